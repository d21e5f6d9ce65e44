"""Pages for the public: no login, published rounds only."""

from django.urls import path

from scoring.web import downloads as exports
from scoring.web.public import views as public

urlpatterns = [
    path("", public.home, name="home"),
    path("language/<str:code>/", public.switch_language, name="switch-language"),
    path("events/<name:slug>/", public.event_detail, name="event"),
    path("events/<name:slug>/standings/", public.standings, name="standings"),
    path("events/<name:slug>/entrants/<code:code>/", public.entrant, name="entrant"),
    path("events/<name:slug>/changes/", public.changes, name="changes"),
    path("events/<name:slug>/penalties/", public.penalties, name="penalties"),
    path("events/<name:slug>/statistics/", public.statistics, name="statistics"),
    path("events/<name:slug>/final/", public.final_stage, name="final-stage"),
    path("events/<name:slug>/cross/", public.cross_table, name="cross-table"),
    path("events/<name:slug>/rounds/<num:number>/", public.round_detail, name="round"),
    path("events/<name:slug>/rounds/<num:number>/boards/<num:board>/", public.board_detail, name="board"),
    path("events/<name:slug>/rounds/<num:number>/draw/", public.draw, name="draw"),
    path("events/<name:slug>/standings.xlsx", exports.standings_xlsx, name="standings-xlsx"),
    path("events/<name:slug>/results.xlsx", exports.results_xlsx, name="results-xlsx"),
    path("events/<name:slug>/standings.pdf", exports.standings_pdf, name="standings-pdf"),
    path("events/<name:slug>/standings.png", public.standings_png, name="standings-png"),
    path("events/<name:slug>/rounds/<num:number>/results.pdf", exports.round_results_pdf, name="round-results-pdf"),
    path("events/<name:slug>/rounds/<num:number>/travellers.pdf", exports.travellers_pdf, name="travellers-pdf"),
    path("events/<name:slug>/rounds/<num:number>/scoresheets.pdf", exports.scoresheets_pdf, name="scoresheets-pdf"),
    path("events/<name:slug>/cross-table.pdf", exports.cross_table_pdf, name="cross-table-pdf"),
    path("events/<name:slug>/cross-table.xlsx", exports.cross_table_xlsx, name="cross-table-xlsx"),
    path("events/<name:slug>/rounds/<num:number>/draw.pdf", exports.wall_draw_pdf, name="draw-pdf"),
    path("events/<name:slug>/rounds/<num:number>/table-cards.pdf", exports.table_cards_pdf, name="table-cards-pdf"),
]
