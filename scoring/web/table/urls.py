"""The table link's page and calls (table-api.md)."""

from django.urls import path

from scoring.web.table import views as table

prefix = "t/<token:token>/"
urlpatterns = [
    path(prefix, table.page, name="table-page"),
    path(f"{prefix}state", table.state, name="table-state"),
    path(f"{prefix}boards/<num:board>", table.board, name="table-board"),
    path(f"{prefix}boards/<num:board>/verify", table.board_verify, name="table-verify"),
    path(f"{prefix}boards/<num:board>/dispute", table.board_dispute, name="table-dispute"),
    path(f"{prefix}boards/<num:board>/preview", table.preview, name="table-preview"),
    path(f"{prefix}signoff", table.signoff, name="table-signoff"),
    path(f"{prefix}call", table.call_referee, name="table-call"),
    path(f"{prefix}appeal", table.appeal, name="table-appeal"),
    path(f"{prefix}sw.js", table.service_worker, name="table-service-worker"),
]
