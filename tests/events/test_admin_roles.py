"""In the admin an organiser cannot remove another organiser's role, nor the event's last
organiser; roles are not edited in place."""

import pytest

from scoring.events.accounts import role_grant
from scoring.models import EventRole

pytestmark = pytest.mark.django_db


def role_of(user, event):
    return EventRole.objects.get(user=user, event=event, role=EventRole.Role.ORGANISER)


def test_an_organiser_cannot_delete_another_organisers_role_in_the_admin(client, people, event):
    colleague, _ = role_grant(username="co-organiser", role=EventRole.Role.ORGANISER, event=event)
    client.force_login(people["organiser"])
    theirs = role_of(colleague, event)
    assert client.post(f"/admin/scoring/eventrole/{theirs.pk}/delete/", {"post": "yes"}).status_code == 403
    assert EventRole.objects.filter(pk=theirs.pk).exists()


def test_an_organiser_cannot_delete_their_own_last_organiser_role_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    mine = role_of(people["organiser"], event)
    assert client.post(f"/admin/scoring/eventrole/{mine.pk}/delete/", {"post": "yes"}).status_code == 403
    assert EventRole.objects.filter(pk=mine.pk).exists()


def test_an_organiser_may_step_down_when_another_organiser_remains(client, people, event):
    role_grant(username="co-organiser", role=EventRole.Role.ORGANISER, event=event)
    client.force_login(people["organiser"])
    mine = role_of(people["organiser"], event)
    assert client.post(f"/admin/scoring/eventrole/{mine.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not EventRole.objects.filter(pk=mine.pk).exists()


def test_a_role_cannot_be_edited_in_place_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    mine = role_of(people["organiser"], event)
    client.post(
        f"/admin/scoring/eventrole/{mine.pk}/change/", {"event": event.pk, "user": mine.user_id, "role": "referee"}
    )
    assert role_of(people["organiser"], event)
