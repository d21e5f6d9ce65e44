"""The referee JSON API."""

from django.urls import path

from scoring.views import api

prefix = "events/<slug:slug>/rounds/<int:round_number>/tables/<int:table_number>/boards/<int:board>"
urlpatterns = [
    path(prefix, api.deal_detail, name="api-deal"),
    path(f"{prefix}/confirm", api.deal_confirm_view, name="api-deal-confirm"),
    path(f"{prefix}/history", api.deal_history_view, name="api-deal-history"),
]
