"""In the admin an event's result-deciding fields are read-only once it has a deal (the
service's frozen list, scoring.events.setup.RESULT_FIELDS), and editable before."""

import pytest

from scoring.events.setup import RESULT_FIELDS
from scoring.models import Deal, Event
from tests.events.admin_setup import form_fields, fresh_event

pytestmark = pytest.mark.django_db


def test_the_result_fields_are_read_only_in_the_admin_once_the_event_has_a_deal(client, people, event):
    assert Deal.objects.filter(table__round__event=event).exists()
    client.force_login(people["organiser"])
    response = client.get(f"/admin/scoring/event/{event.pk}/change/")
    assert response.status_code == 200
    assert not form_fields(response) & set(RESULT_FIELDS)
    assert {"name", "venue", "correction_minutes"} <= form_fields(response)


def test_a_post_to_the_admin_cannot_change_a_frozen_field_after_the_first_deal(client, people, event):
    client.force_login(people["organiser"])
    before = Event.objects.get(pk=event.pk)
    form = client.get(f"/admin/scoring/event/{event.pk}/change/").context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(name="改名的赛事", kind="teams", ruleset="other", tiebreaks='["random"]', points_win="7")
    response = client.post(f"/admin/scoring/event/{event.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    after = Event.objects.get(pk=event.pk)
    assert after.name == "改名的赛事"
    assert [getattr(after, f) for f in RESULT_FIELDS] == [getattr(before, f) for f in RESULT_FIELDS]


def test_the_result_fields_are_editable_in_the_admin_before_the_first_deal(client, people, event):
    fresh = fresh_event(people["organiser"])
    client.force_login(people["organiser"])
    response = client.get(f"/admin/scoring/event/{fresh.pk}/change/")
    assert set(RESULT_FIELDS) <= form_fields(response)
