"""Pages for referees and organisers."""

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.web.referee import appeals, board_views, calls, procedures
from scoring.web.referee import views as referee

board = "referee/<name:slug>/rounds/<num:number>/tables/<num:table_number>/boards/<num:board>/"
urlpatterns = [
    path("accounts/login/", referee.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("referee/", referee.referee_home, name="referee-home"),
    path("referee/<name:slug>/", referee.event_rounds, name="referee-event"),
    path("referee/<name:slug>/rounds/<num:number>/", referee.round_dashboard, name="referee-round"),
    path("referee/<name:slug>/rounds/<num:number>/live", referee.round_live, name="referee-round-live"),
    path("referee/<name:slug>/rounds/<num:number>/tables/", referee.round_table_action, name="referee-table-action"),
    path("referee/<name:slug>/rounds/<num:number>/publish/", referee.round_publish_view, name="referee-publish"),
    path("referee/<name:slug>/rounds/<num:number>/official/", referee.round_official_view, name="referee-official"),
    path(
        "referee/<name:slug>/rounds/<num:number>/tables/<num:table_number>/confirm/",
        board_views.table_confirm,
        name="referee-table-confirm",
    ),
    path("referee/<name:slug>/rounds/<num:number>/calls/", calls.calls_page, name="referee-calls"),
    path("referee/<name:slug>/rounds/<num:number>/calls/<num:call_id>/", calls.call_page, name="referee-call"),
    path(
        "referee/<name:slug>/rounds/<num:number>/calls/<num:call_id>/apply/",
        calls.call_penalty_apply,
        name="referee-call-apply",
    ),
    path("referee/<name:slug>/rounds/<num:number>/appeals/", appeals.appeals_page, name="referee-appeals"),
    path(
        "referee/<name:slug>/rounds/<num:number>/appeals/flood/",
        appeals.appeals_flood_dismiss,
        name="referee-appeals-flood",
    ),
    path(
        "referee/<name:slug>/rounds/<num:number>/appeals/<num:appeal_id>/", appeals.appeal_page, name="referee-appeal"
    ),
    path(board, board_views.board_entry, name="referee-board"),
    path(f"{board}preview/", board_views.board_preview, name="referee-preview"),
    path(f"{board}confirm/", board_views.board_confirm, name="referee-confirm"),
    path(f"{board}irregularity/", board_views.board_irregularity, name="referee-irregularity"),
    path(f"{board}flag/", board_views.board_flag_clear, name="referee-flag-clear"),
    path(f"{board}not-played/", procedures.board_not_played_view, name="referee-board-not-played"),
    path(f"{board}late/", procedures.board_late_penalty_view, name="referee-board-late"),
]
