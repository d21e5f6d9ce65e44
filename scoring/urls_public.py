"""Pages for the public: no login, published rounds only."""

from django.urls import path

from scoring.views import exports, public

urlpatterns = [
    path("", public.home, name="home"),
    path("events/<slug:slug>/", public.event_detail, name="event"),
    path("events/<slug:slug>/standings/", public.standings, name="standings"),
    path("events/<slug:slug>/entrants/<str:code>/", public.entrant, name="entrant"),
    path("events/<slug:slug>/changes/", public.changes, name="changes"),
    path("events/<slug:slug>/rounds/<int:number>/", public.round_detail, name="round"),
    path("events/<slug:slug>/rounds/<int:number>/boards/<int:board>/", public.board_detail, name="board"),
    path("events/<slug:slug>/standings.xlsx", exports.standings_xlsx, name="standings-xlsx"),
    path("events/<slug:slug>/results.xlsx", exports.results_xlsx, name="results-xlsx"),
    path("events/<slug:slug>/standings.pdf", exports.standings_pdf, name="standings-pdf"),
    path("events/<slug:slug>/rounds/<int:number>/results.pdf", exports.round_results_pdf, name="round-results-pdf"),
    path("events/<slug:slug>/rounds/<int:number>/travellers.pdf", exports.travellers_pdf, name="travellers-pdf"),
    path("events/<slug:slug>/rounds/<int:number>/scoresheets.pdf", exports.scoresheets_pdf, name="scoresheets-pdf"),
]
