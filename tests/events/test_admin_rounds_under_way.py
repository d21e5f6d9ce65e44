"""In the admin a round under way (started, or with a deal at one of its tables), its matches
and its tables are read-only and are not deleted — for superusers too: who sits where and
who meets whom decide whose results the deals are, and a delete would take the deals with it
(the fixture's rounds 1 and 2 are imported: no history protects their deals). A round not
under way yet (round 3, paired, no deal) keeps its admin pages."""

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.admin import refuse_once_under_way
from scoring.models import Deal, Entrant, Match, PairingLog, Round, Table
from tests.events.admin_setup import form_fields

pytestmark = pytest.mark.django_db

SEATS = ["ns_entrant", "ew_entrant", "north", "east", "south", "west"]


@pytest.fixture(params=["superuser", "organiser"])
def signed_in(request, client, people, admin_user):
    client.force_login(admin_user if request.param == "superuser" else people["organiser"])
    return client


def stored(event):
    """Everything the admin could touch of the event's rounds, matches, tables and deals."""
    return (
        list(Round.objects.filter(event=event).order_by("number").values_list("pk", "number", "sessions", "extra")),
        list(
            Match.objects.filter(round__event=event)
            .order_by("pk")
            .values_list("pk", "round_id", "number", "home_id", "away_id", "bye_id", "label")
        ),
        list(
            Table.objects.filter(round__event=event)
            .order_by("pk")
            .values_list("pk", "round_id", "match_id", "number", *(f"{seat}_id" for seat in SEATS))
        ),
        list(Deal.objects.filter(table__round__event=event).order_by("pk").values_list("pk", "table_id", "ns_score")),
    )


def raw(value):
    return "" if value is None else value


def round_data(rnd, **changes):
    """The round's change form as posted, with its tables' inline (ignored where not shown)."""
    tables = list(rnd.tables.order_by("number"))
    data = {
        "event": rnd.event_id,
        "number": rnd.number,
        "sessions": rnd.sessions,
        "extra": json.dumps(rnd.extra),
        "tables-TOTAL_FORMS": len(tables),
        "tables-INITIAL_FORMS": len(tables),
        "tables-MIN_NUM_FORMS": 0,
        "tables-MAX_NUM_FORMS": 1000,
    }
    for index, table in enumerate(tables):
        data.update(
            {
                f"tables-{index}-id": table.pk,
                f"tables-{index}-round": rnd.pk,
                f"tables-{index}-number": table.number,
                f"tables-{index}-match": table.match_id,
                **{f"tables-{index}-{seat}": raw(getattr(table, f"{seat}_id")) for seat in SEATS},
            }
        )
    data.update(changes)
    return data


def swapped_pairs(rnd):
    """Table 1's inline fields with its two pairs (entrants and players) changing places."""
    table = rnd.tables.get(number=1)
    return {
        "tables-0-ns_entrant": table.ew_entrant_id,
        "tables-0-ew_entrant": table.ns_entrant_id,
        "tables-0-north": table.east_id,
        "tables-0-south": table.west_id,
        "tables-0-east": table.north_id,
        "tables-0-west": table.south_id,
    }


def match_data(match, **changes):
    data = {
        "round": match.round_id,
        "number": match.number,
        "home": raw(match.home_id),
        "away": raw(match.away_id),
        "bye": raw(match.bye_id),
        "label": match.label,
        "extra": json.dumps(match.extra),
    }
    data.update(changes)
    return data


def test_a_round_with_deals_is_shown_read_only_and_a_change_is_refused(signed_in, event):
    played = event.rounds.get(number=1)
    before = stored(event)
    url = f"/admin/scoring/round/{played.pk}/change/"
    page = signed_in.get(url)
    assert page.status_code == 200
    assert not form_fields(page)
    tables = page.context["inline_admin_formsets"]  # the superuser's; organisers have none
    assert not any(t.has_add_permission or t.has_change_permission or t.has_delete_permission for t in tables)
    response = signed_in.post(url, round_data(played, number=9, sessions=2, **swapped_pairs(played)))
    assert response.status_code == 403
    assert stored(event) == before


def test_a_round_with_deals_cannot_be_deleted_in_the_admin(signed_in, event):
    played = event.rounds.get(number=1)
    before = stored(event)
    url = f"/admin/scoring/round/{played.pk}/delete/"
    assert signed_in.get(url).status_code == 403
    assert signed_in.post(url, {"post": "yes"}).status_code == 403
    assert stored(event) == before


def test_a_started_round_without_a_deal_is_frozen_too(signed_in, event):
    started = event.rounds.get(number=3)
    Round.objects.filter(pk=started.pk).update(status=Round.Status.IN_PLAY)
    before = stored(event)
    assert (
        signed_in.post(f"/admin/scoring/round/{started.pk}/change/", round_data(started, number=9)).status_code == 403
    )
    assert signed_in.post(f"/admin/scoring/round/{started.pk}/delete/", {"post": "yes"}).status_code == 403
    assert stored(event) == before


def test_a_match_of_a_round_with_deals_is_shown_read_only_and_a_change_is_refused(signed_in, event):
    match = Match.objects.get(round__event=event, round__number=1, number=1)
    spare = Entrant.objects.get(event=event, code="C")
    before = stored(event)
    url = f"/admin/scoring/match/{match.pk}/change/"
    page = signed_in.get(url)
    assert page.status_code == 200
    assert not form_fields(page)
    changed = match_data(match, home=match.away_id, away=match.home_id, bye=spare.pk, number=7)
    assert signed_in.post(url, changed).status_code == 403
    assert stored(event) == before


def test_a_match_of_a_round_with_deals_cannot_be_deleted_in_the_admin(signed_in, event):
    match = Match.objects.get(round__event=event, round__number=1, number=1)
    before = stored(event)
    url = f"/admin/scoring/match/{match.pk}/delete/"
    assert signed_in.get(url).status_code == 403
    assert signed_in.post(url, {"post": "yes"}).status_code == 403
    assert stored(event) == before


def test_no_match_is_added_to_a_round_with_deals(signed_in, event):
    played = event.rounds.get(number=1)
    bye = Entrant.objects.get(event=event, code="A")
    before = stored(event)
    response = signed_in.post(
        "/admin/scoring/match/add/", {"round": played.pk, "number": 3, "bye": bye.pk, "extra": "{}"}
    )
    assert response.status_code == 200
    assert "round" in response.context["adminform"].form.errors
    assert stored(event) == before


def test_a_round_not_under_way_keeps_its_tables_editable_for_a_superuser(client, admin_user, event):
    paired = event.rounds.get(number=3)
    swap = swapped_pairs(paired)
    client.force_login(admin_user)
    response = client.post(f"/admin/scoring/round/{paired.pk}/change/", round_data(paired, **swap))
    assert response.status_code == 302
    table = paired.tables.get(number=1)
    assert (table.ns_entrant_id, table.north_id) == (swap["tables-0-ns_entrant"], swap["tables-0-north"])
    assert PairingLog.objects.filter(round=paired, action="admin-edit").exists()


def test_a_match_of_a_round_not_under_way_may_still_be_deleted(client, people, event):
    match = Match.objects.get(round__event=event, round__number=3, number=1)
    client.force_login(people["organiser"])
    assert client.post(f"/admin/scoring/match/{match.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Match.objects.filter(pk=match.pk).exists()


def test_the_check_under_the_rounds_lock_refuses_a_round_under_way(event):
    """What save_model and delete_model ask again inside the admin's transaction (a deal
    entered after the permission check, by a referee at the same moment)."""
    with transaction.atomic():
        refuse_once_under_way([event.rounds.get(number=3).pk])
        with pytest.raises(PermissionDenied):
            refuse_once_under_way([event.rounds.get(number=3).pk, event.rounds.get(number=2).pk])


def test_a_delete_page_asks_whether_a_round_is_under_way_once_not_once_a_match(client, admin_user, event):
    """Django's delete page asks the permission of every match it would take with the round; the
    under-way check is answered once per round and request (a freshly paired big event has
    thousands of matches)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    paired = event.rounds.get(number=3)
    assert paired.matches.count() >= 2
    client.force_login(admin_user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/admin/scoring/round/{paired.pk}/delete/").status_code == 200
    deal_checks = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].startswith('SELECT 1 AS "a" FROM "scoring_deal"')
    ]
    assert len(deal_checks) == 1, deal_checks
