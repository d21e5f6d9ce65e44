"""The admin asks "does this user organise an event?" once per request (every page asks it for
each model and each permission), and asks again after a write that may change the answer."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.events.accounts import role_grant
from scoring.events.setup import grant_event_creation
from scoring.models import EventRole
from tests.events.test_admin_event_creation import new_event

pytestmark = pytest.mark.django_db


def role_queries(queries):
    return [q["sql"] for q in queries if '"scoring_eventrole"' in q["sql"]]


def test_the_admin_index_asks_once_whether_the_user_organises_an_event(client, people):
    client.force_login(people["organiser"])
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/")
    assert response.status_code == 200
    assert "/admin/scoring/entrant/" in response.content.decode()  # every model was asked about
    assert len(role_queries(queries)) == 1


def test_a_named_organiser_who_adds_their_first_event_is_sent_to_the_events_they_organise(client):
    """Before the event they organise nothing; after it the admin's answer is yes: the list of
    events (not the admin's index, where a user organising nothing is sent)."""
    named = get_user_model().objects.create(username="named", is_staff=True)
    grant_event_creation(named)
    client.force_login(named)
    assert client.get("/admin/scoring/event/").status_code == 403  # organises nothing yet
    response = new_event(client)
    assert response.status_code == 302 and response["Location"] == "/admin/scoring/event/"


def test_an_organiser_who_steps_down_from_their_only_event_is_sent_to_the_admin_index(client, people, event):
    """After the role goes they organise nothing: not back to the list of roles they may no
    longer see."""
    role_grant(username="co-organiser", role=EventRole.Role.ORGANISER, event=event)
    client.force_login(people["organiser"])
    mine = EventRole.objects.get(user=people["organiser"], event=event, role=EventRole.Role.ORGANISER)
    response = client.post(f"/admin/scoring/eventrole/{mine.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/scoring/eventrole/").status_code == 403
