"""The referee JSON API."""

from django.urls import path

from scoring.web.api import views as api

prefix = "events/<name:slug>/rounds/<num:round_number>/tables/<num:table_number>/boards/<num:board>"
urlpatterns = [
    path(prefix, api.deal_detail, name="api-deal"),
    path(f"{prefix}/confirm", api.deal_confirm_view, name="api-deal-confirm"),
    path(f"{prefix}/history", api.deal_history_view, name="api-deal-history"),
]
