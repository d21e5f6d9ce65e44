"""Helpers for the admin tests: an event without deals, organised by the fixture's organiser."""

from scoring.models import Event, EventRole


def fresh_event(organiser, slug="fresh"):
    event = Event.objects.create(slug=slug, name="新赛事")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


def form_fields(response):
    return set(response.context["adminform"].form.fields)
