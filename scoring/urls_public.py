"""Pages for the public: no login, published rounds only."""

from django.urls import path

from scoring.views import public

urlpatterns = [
    path("", public.home, name="home"),
]
