"""The table link at a 升级 table: the pairs enter and verify as in 华牌 (NS against EW), and each
deal's level state comes from the table's match (the engine's), never from the phone."""

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.models import Deal, Entrant, Table
from tests.archives import shengji_archive
from tests.table_entry.test_table_api import Table_, error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    archive = shengji_archive(table_one=[], table_two=[], status="in_play")
    archive["event"]["entry"] = "players"
    return import_archive(archive)


@pytest.fixture
def phone(event):
    return Table_(Client(enforce_csrf_checks=True), Table.objects.get(round__event=event, number=1))


def code(event, pair):
    return Entrant.objects.get(event=event, code=pair).access_code


def test_pairs_enter_and_verify_a_shengji_match_whose_state_the_engine_carries(phone, event):
    state = phone.state().json()
    assert state["game"]["sides"] == ["NS", "EW"]
    # Worked by hand from law §2.3, from A (1): 40 points to 台下 is S2, NS on 台上 up two levels
    # (A→3): each NS seat scores 2; then 60 is S3, NS up one (3→4).
    first = phone.put(1, {"declarer": "NS", "points": 40, "code": code(event, "A")}, key="b1")
    assert first.status_code == 201, first.content
    assert first.json()["scores"] == {"N": 2, "E": 0, "S": 2, "W": 0}
    skipped = phone.put(3, {"points": 60, "code": code(event, "A")}, key="b3")
    assert skipped.status_code == 400 and error_code(skipped)  # board 2 is not entered yet
    second = phone.put(2, {"points": 60, "code": code(event, "B")}, key="b2")
    assert second.status_code == 201 and second.json()["scores"] == {"N": 1, "E": 0, "S": 1, "W": 0}
    stored = Deal.objects.get(table__round__event=event, table__number=1, board=2)
    assert stored.game_data["state"] == {"declarer": "NS", "levels": {"NS": 3, "EW": 1}}  # carried, not sent
    own = phone.verify(1, code(event, "A"), key="v1-own", version=first.json()["version"])
    assert (own.status_code, error_code(own)) == (403, "same_side")
    assert phone.verify(1, code(event, "B"), key="v1", version=first.json()["version"]).status_code == 200


def test_a_match_ended_by_its_target_lists_its_boards_played_and_may_be_signed_off():
    """Worked by hand from §2.3: from A with the target 3, 台下 taking 0 twice is S2 twice (NS
    A→3→5), past 3 after two deals: the match is over, its table needs boards 1–2 only."""
    archive = shengji_archive(
        table_one=[], table_two=[], status="in_play", options={"start_level": 1, "target": 3, "deals": None}, boards=10
    )
    archive["event"]["entry"] = "players"
    event = import_archive(archive)
    phone = Table_(Client(enforce_csrf_checks=True), Table.objects.get(round__event=event, number=1))
    for board, deal in ((1, {"declarer": "NS", "points": 0}), (2, {"points": 0})):
        written = phone.put(board, {**deal, "code": code(event, "A")}, key=f"p{board}")
        assert written.status_code == 201, written.content
        assert (
            phone.verify(board, code(event, "B"), key=f"v{board}", version=written.json()["version"]).status_code == 200
        )
    over = phone.put(3, {"points": 0, "code": code(event, "A")}, key="p3")
    assert over.status_code == 400  # the match is over
    assert [b["board"] for b in phone.state().json()["boards"]] == [1, 2]
    for pair, side in (("A", "NS"), ("B", "EW")):
        signed = phone.send("post", "signoff", {"code": code(event, pair), "side": side}, key=f"s{pair}")
        assert signed.status_code == 200, signed.content
    assert phone.state().json()["writable"] is False


def test_the_phone_shows_the_match_in_levels_not_doubled_sums(phone, event):
    # Worked by hand from §2.3, from A (1): 40 to 台下 (S2) takes NS A→3, 60 (S3) 3→4: NS gained
    # three levels in all, each NS seat carrying them; EW none. The side's figure is one seat's.
    a, b = code(event, "A"), code(event, "B")
    for board, deal in ((1, {"declarer": "NS", "points": 40}), (2, {"points": 60})):
        entered = phone.put(board, {**deal, "code": a}, key=f"e{board}")
        assert phone.verify(board, b, key=f"v{board}", version=entered.json()["version"]).status_code == 200
    state = phone.state().json()
    assert [board["sides"] for board in state["boards"][:2]] == [{"NS": 2, "EW": 0}, {"NS": 1, "EW": 0}]
    assert (state["totals"]["NS"], state["totals"]["EW"]) == (3, 0)
    # The match in the game's words, as the round's page and papers give it: NS now play 4.
    assert state["match"]["finished"] is False, state["match"]
    assert "4" in state["match"]["summary"] and "NS" in state["match"]["summary"]
