"""In the admin nothing moves to another event, and an entrant's rounds (when it joined, after
which it withdrew, its bye) and its number are the console's: the services that hold the
event's round numbers set them (scoring.events.entrants). Names may still be corrected here."""

import pytest

from scoring.models import Entrant, Player, Round
from tests.events.admin_setup import form_fields, fresh_event

pytestmark = pytest.mark.django_db


def posted(client, url, **changes):
    """The change form as the admin shows it, sent back with `changes`."""
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        data.update({management.add_prefix(name): management[name].value() for name in management.fields})
        for inline in formset.formset.forms:
            data.update({inline.add_prefix(name): inline[name].value() or "" for name in inline.fields})
    data.update(changes)
    return client.post(url, data)


def test_an_entrants_rounds_and_number_are_not_changed_in_the_admin(client, people, event):
    entrant = Entrant.objects.filter(event=event).order_by("code").first()
    client.force_login(people["organiser"])
    url = f"/admin/scoring/entrant/{entrant.pk}/change/"
    assert not form_fields(client.get(url)) & {"withdrawn_after_round", "joined_round", "bye_round", "code", "event"}
    response = posted(
        client, url, name="改过的名称", code="ZZ", withdrawn_after_round="1", joined_round="3", bye_round="4"
    )
    assert response.status_code == 302
    after = Entrant.objects.get(pk=entrant.pk)
    assert after.name == "改过的名称"  # what the admin may still correct
    changed = (after.code, after.withdrawn_after_round, after.joined_round, after.bye_round)
    assert changed == (entrant.code, entrant.withdrawn_after_round, entrant.joined_round, entrant.bye_round)


def test_no_entrant_is_added_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    response = client.post("/admin/scoring/entrant/add/", {"event": event.pk, "code": "NEW", "name": "新对"})
    assert response.status_code == 403
    assert not Entrant.objects.filter(event=event, code="NEW").exists()


def test_a_round_or_a_player_does_not_move_to_another_event_in_the_admin(client, people, event):
    other = fresh_event(people["organiser"], slug="second")  # the same organiser's other event
    client.force_login(people["organiser"])
    scheduled = Round.objects.filter(event=event).order_by("-number").first()
    player = Player.objects.filter(event=event).order_by("code").first()
    for url in (f"/admin/scoring/round/{scheduled.pk}/change/", f"/admin/scoring/player/{player.pk}/change/"):
        assert "event" not in form_fields(client.get(url))
    posted(client, f"/admin/scoring/player/{player.pk}/change/", event=str(other.pk), name="改名")
    moved = Player.objects.get(pk=player.pk)
    assert moved.name == "改名" and moved.event_id == event.pk
