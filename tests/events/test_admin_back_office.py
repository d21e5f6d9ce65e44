"""The admin is a back office for looking. The organiser's console does every edit an event
needs, through its services; the admin adds, changes and deletes nothing of its own, for
superusers too. Its two exceptional edits (an event made by mistake deleted, a player's sort
key and federation number corrected) each go through their service."""

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import scoring.admin
from scoring.cache.versions import current_version
from scoring.events.entrants import EntrantError, player_correct
from scoring.events.setup import EventError, event_delete
from scoring.models import (
    Appeal,
    Deal,
    DealHistory,
    Entrant,
    Event,
    EventRole,
    Irregularity,
    Match,
    PairingLog,
    Player,
    Round,
    Table,
)
from tests.events.admin_setup import fresh_event

pytestmark = pytest.mark.django_db

# Every registration of the admin. A new one is read-only too, or is added here with its service.
REGISTERED = {Event, Player, Entrant, Round, Match, EventRole, PairingLog, DealHistory, Appeal, Irregularity}


@pytest.fixture(params=["superuser", "organiser"])
def signed_in(request, client, people, admin_user):
    client.force_login(admin_user if request.param == "superuser" else people["organiser"])
    return client


def url(model, *parts):
    return "/".join(["/admin/scoring", model._meta.model_name, *map(str, parts), ""])


def snapshot(event):
    """What an admin write could touch of the event, as stored."""
    return [
        list(model.objects.filter(**{path: event.pk}).order_by("pk").values())
        for model, path in (
            (Event, "pk"),
            (Player, "event"),
            (Entrant, "event"),
            (Round, "event"),
            (Match, "round__event"),
            (Table, "round__event"),
            (Deal, "table__round__event"),
            (EventRole, "event"),
        )
    ]


def some(model, event):
    path = {Event: "pk", Match: "round__event", PairingLog: "round__event", Irregularity: "deal__table__round__event"}
    return model.objects.filter(**{path.get(model, "event"): event.pk}).order_by("pk").first()


def test_the_admin_registers_exactly_the_models_this_test_knows():
    assert {model for model in admin.site._registry if model._meta.app_label == "scoring"} == REGISTERED


def test_the_admin_has_no_page_for_deals():
    assert Deal not in admin.site._registry


@pytest.mark.parametrize("model", [Event, Player, Entrant, Round, Match, EventRole])
def test_a_change_posted_through_the_admin_is_refused_and_changes_nothing(signed_in, event, model):
    obj = some(model, event)
    assert obj is not None
    before = snapshot(event)
    page = signed_in.get(url(model, obj.pk, "change"))
    assert page.status_code == 200  # shown for looking
    if model is not Player:
        response = signed_in.post(url(model, obj.pk, "change"), {"name": "改", "number": 9, "status": "official"})
        assert response.status_code == 403
    assert signed_in.post(url(model, "add"), {"name": "新", "number": 9}).status_code == 403
    if model is not Event:
        assert signed_in.post(url(model, obj.pk, "delete"), {"post": "yes"}).status_code == 403
    assert snapshot(event) == before


def test_a_match_round_or_table_seat_posted_through_the_admin_changes_nothing(signed_in, event):
    """Who meets whom and who sits where decide whose results the deals are: the console's
    pairing pages alone change them, with their under-way rule and log."""
    before = snapshot(event)
    rnd = (
        Round.objects.filter(event=event, status=Round.Status.SCHEDULED).first()
        or Round.objects.filter(event=event).first()
    )
    match = Match.objects.filter(round__event=event).first()
    table = rnd.tables.order_by("number").first()
    assert signed_in.post(url(Match, match.pk, "change"), {"round": match.round_id, "number": 7}).status_code == 403
    posted = {
        "event": event.pk,
        "number": rnd.number,
        "sessions": rnd.sessions,
        "tables-TOTAL_FORMS": 1,
        "tables-INITIAL_FORMS": 1,
        "tables-0-id": table.pk,
        "tables-0-ns_entrant": table.ew_entrant_id,
        "tables-0-ew_entrant": table.ns_entrant_id,
    }
    assert signed_in.post(url(Round, rnd.pk, "change"), posted).status_code == 403
    assert signed_in.post(url(Match, "add"), {"round": rnd.pk, "number": 9}).status_code == 403
    assert PairingLog.objects.filter(round__event=event, action="admin-edit").count() == 0
    assert snapshot(event) == before


@pytest.mark.parametrize("model", sorted(REGISTERED, key=lambda m: m._meta.model_name))
def test_no_admin_list_offers_a_bulk_action(signed_in, event, model):
    response = signed_in.get(url(model))
    assert response.status_code == 200
    assert response.context["action_form"] is None


def test_a_bulk_delete_posted_anyway_deletes_nothing(signed_in, event):
    spare = Entrant.objects.create(event=event, code="Z", name="Z 对")
    signed_in.post(url(Entrant), {"action": "delete_selected", "_selected_action": [spare.pk], "post": "yes"})
    assert Entrant.objects.filter(pk=spare.pk).exists()


def test_an_appeal_is_only_read_in_the_admin(signed_in, event, people):
    appeal = Appeal.objects.create(event=event, filed_by="A 对", statement="对罚分有异议", filed_at=timezone.now())
    assert signed_in.get(url(Appeal, appeal.pk, "change")).status_code == 200
    assert signed_in.post(url(Appeal, appeal.pk, "change"), {"status": "upheld"}).status_code == 403
    appeal.refresh_from_db()
    assert appeal.decided_at is None


# The exceptional edits, each through its service -------------------------------------------


def test_an_event_made_by_mistake_is_deleted_through_its_service(signed_in, people, monkeypatch):
    mistake = fresh_event(people["organiser"], slug="mistake")
    Entrant.objects.create(event=mistake, code="A", name="A 对")
    called = []
    monkeypatch.setattr(scoring.admin, "event_delete", lambda event: called.append(event.pk) or event_delete(event))
    assert signed_in.get(url(Event, mistake.pk, "delete")).status_code == 200
    response = signed_in.post(url(Event, mistake.pk, "delete"), {"post": "yes"})
    assert response.status_code == 302
    assert called == [mistake.pk]
    assert not Event.objects.filter(pk=mistake.pk).exists()


def test_an_event_with_deals_is_not_deleted_in_the_admin(signed_in, event):
    assert signed_in.post(url(Event, event.pk, "delete"), {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_deal_entered_after_the_delete_page_was_shown_keeps_the_event(signed_in, event, monkeypatch):
    """The page's check passed (as if before the first deal); the service checks again under
    the event's lock and refuses; nothing is deleted and no deletion is logged."""
    from django.contrib.admin.models import LogEntry

    monkeypatch.setattr(scoring.admin, "has_results", lambda event: False)
    response = signed_in.post(url(Event, event.pk, "delete"), {"post": "yes"})
    assert response.status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()
    assert Deal.objects.filter(table__round__event=event).exists()
    assert not LogEntry.objects.exists()


def test_the_delete_service_refuses_an_event_with_deals(event):
    with pytest.raises(EventError) as refused:
        event_delete(event)
    assert refused.value.code == "has_results"
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_players_sort_key_is_corrected_through_its_service_and_reaches_the_public(signed_in, event, monkeypatch):
    player = Player.objects.filter(event=event).order_by("code").first()
    called = []
    monkeypatch.setattr(
        scoring.admin, "player_correct", lambda p, **fields: called.append(fields) or player_correct(p, **fields)
    )
    before = current_version(event, public=True)
    response = signed_in.post(
        url(Player, player.pk, "change"),
        {"name": "改名", "code": "X9", "club": "别处", "sort_key": "shan ming", "federation_id": "CN-1"},
    )
    assert response.status_code == 302
    assert called == [{"sort_key": "shan ming", "federation_id": "CN-1"}]
    stored = Player.objects.get(pk=player.pk)
    assert (stored.sort_key, stored.federation_id) == ("shan ming", "CN-1")
    # The name, club and number are the console's: posted here, they are not saved.
    assert (stored.name, stored.code, stored.club) == (player.name, player.code, player.club)
    assert current_version(event, public=True) != before


@pytest.mark.parametrize("bad", ["zhao\x00jiu", "zhao\x1b[31m", "zhao\x7f"])
def test_a_sort_key_with_a_control_character_is_refused(signed_in, event, bad):
    player = Player.objects.filter(event=event).order_by("code").first()
    response = signed_in.post(url(Player, player.pk, "change"), {"sort_key": bad, "federation_id": ""})
    assert response.status_code == 200
    assert "sort_key" in response.context["adminform"].form.errors
    assert Player.objects.get(pk=player.pk).sort_key == player.sort_key
    with pytest.raises(EntrantError):
        player_correct(player, sort_key=bad, federation_id="")


def test_the_admin_index_asks_once_whether_the_user_organises_an_event(client, people):
    client.force_login(people["organiser"])
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/")
    assert response.status_code == 200
    assert "/admin/scoring/entrant/" in response.content.decode()  # every model was asked about
    assert len([q for q in queries if '"scoring_eventrole"' in q["sql"]]) == 1


def test_an_organiser_sees_only_their_own_events_people_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    listing = client.get(url(EventRole)).content.decode()
    assert "referee1" in listing and "other_referee" not in listing


def test_a_paired_event_without_deals_is_deleted_with_its_rounds(people):
    mistake = fresh_event(people["organiser"], slug="paired-mistake")
    a, b = (Entrant.objects.create(event=mistake, code=code, name=f"{code} 对") for code in "AB")
    rnd = Round.objects.create(event=mistake, number=1)
    match = Match.objects.create(round=rnd, number=1, home=a, away=b)
    Table.objects.create(round=rnd, match=match, number=1, ns_entrant=a, ew_entrant=b)
    event_delete(mistake)
    assert not Event.objects.filter(pk=mistake.pk).exists()
