"""Pages for the public: no login, published rounds only."""

from django.urls import path

from scoring.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("events/<slug:slug>/", public.event_detail, name="event"),
    path("events/<slug:slug>/standings/", public.standings, name="standings"),
    path("events/<slug:slug>/entrants/<str:code>/", public.entrant, name="entrant"),
    path("events/<slug:slug>/changes/", public.changes, name="changes"),
]
