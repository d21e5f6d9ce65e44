"""The table link for a game other than 华牌 (table-api.md, for 蚌埠斗地主): its deal JSON plus the
code, versions, idempotency and bad codes exactly as for 华牌; where every player plays alone,
any other player at the table verifies and the table is signed off when every seated player has
signed (docs/organising.md). Expected scores and refusal codes are the law's worked examples
(shared/rules/games/examples.json), never the code's output."""

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.entry.services import deal_confirm
from scoring.games import GAMES
from scoring.models import Deal, DealHistory, Entrant, RefereeCall, Table
from scoring.table_entry.codes import seat_sides
from tests.archives import DOUDIZHU, doudizhu_archive, game_examples
from tests.referee_setup import make_user
from tests.table_entry.test_table_api import Table_, error_code

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(DOUDIZHU)
# Table 1 of the archive: p01 N, p02 E, p03 S, p04 W.
SEAT_OF = {"N": "p01", "E": "p02", "S": "p03", "W": "p04"}


@pytest.fixture
def event():
    archive = doudizhu_archive(tables={1: (), 2: ()}, status="in_play")
    archive["event"]["entry"] = "players"
    return import_archive(archive)


@pytest.fixture
def table(event):
    return Table.objects.get(round__event=event, number=1)


@pytest.fixture
def phone(table):
    return Table_(Client(enforce_csrf_checks=True), table)


def code(event, seat):
    """The code of the player seated at `seat` of table 1."""
    return Entrant.objects.get(event=event, code=SEAT_OF[seat]).access_code


def deal(name):
    return dict(EXAMPLES[name]["deal"])


def scores(name):
    return EXAMPLES[name]["expected"]["scores"]


def test_the_state_has_a_side_per_player(phone):
    state = phone.state().json()
    assert set(state["sides"]) == {"N", "E", "S", "W"}  # in seat order: state["game"]["sides"]
    assert state["sides"]["E"]["entrants"] == ["p02"]
    assert state["signed_off"] == {"N": False, "E": False, "S": False, "W": False}
    seats = ["N", "E", "S", "W"]
    assert state["game"] == {"id": DOUDIZHU, "seats": seats, "sides": seats, "partnerships": False}
    assert [b["board"] for b in state["boards"]] == [1, 2, 3, 4] and state["writable"] is True


def test_a_player_enters_the_games_deal_and_the_same_key_replays_the_first_answer(phone, event):
    body = {**deal("DDZ14"), "code": code(event, "N")}
    first = phone.put(1, body, key="ddz-1")
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "draft" and first.json()["entered_by"] == "N"
    assert first.json()["scores"] == scores("DDZ14")
    again = phone.put(1, body, key="ddz-1")
    assert (again.status_code, again.json()) == (201, first.json())
    assert DealHistory.objects.filter(board=1).count() == 1  # written once
    other = phone.put(1, {**deal("DDZ01"), "code": code(event, "N")}, key="ddz-1")
    assert (other.status_code, error_code(other)) == (422, "idempotency_mismatch")
    stored = Deal.objects.get(table__number=1, board=1)
    assert stored.scores == scores("DDZ14") and stored.game_data["landlord"] == "W"
    # The state shows the board as the players' draft with every seat's score.
    board = phone.state().json()["boards"][0]
    assert board["status"] == "draft" and board["scores"] == scores("DDZ14")


def test_replacing_needs_the_version_and_a_stale_one_changes_nothing(phone, event):
    n = code(event, "N")
    version = phone.put(1, {**deal("DDZ01"), "code": n}, key="k1").json()["version"]
    replacement = {**deal("DDZ22"), "code": n}
    assert (phone.put(1, replacement, key="k2").status_code, error_code(phone.put(1, replacement, key="k2b"))) == (
        428,
        "version_required",
    )
    assert phone.put(1, replacement, key="k3", version=version - 1).status_code == 412
    assert Deal.objects.get(board=1, table__number=1).scores == scores("DDZ01")
    replaced = phone.put(1, replacement, key="k4", version=version)
    assert replaced.status_code == 200 and replaced.json()["scores"] == scores("DDZ22")
    assert replaced.json()["version"] == version + 1


@pytest.mark.parametrize("name", ["DDZX1", "DDZX3", "DDZX4", "DDZX5", "DDZX6", "DDZX8", "DDZX11"])
def test_an_invalid_deal_is_400_with_the_laws_code_and_nothing_stored(phone, event, name):
    response = phone.put(1, {**deal(name), "code": code(event, "E")}, key=f"bad-{name}")
    assert response.status_code == 400
    assert error_code(response) == EXAMPLES[name]["expected"]["error"]["code"]
    assert not Deal.objects.exists()


def test_a_code_of_another_table_or_none_is_refused(phone, event):
    elsewhere = Entrant.objects.get(event=event, code="p05").access_code  # table 2's North
    response = phone.put(1, {**deal("DDZ01"), "code": elsewhere}, key="k1")
    assert (response.status_code, error_code(response)) == (403, "bad_code")
    assert error_code(phone.put(1, deal("DDZ01"), key="k2")) == "bad_code"
    assert not Deal.objects.exists()


@pytest.mark.parametrize("verifier", ["E", "S", "W"])
def test_any_other_player_verifies_and_the_writer_may_not(phone, event, verifier):
    version = phone.put(1, {**deal("DDZ13"), "code": code(event, "N")}, key="k1").json()["version"]
    seen = phone.client.get(phone.base + "boards/1").json()
    assert seen["landlord"] == "S" and seen["scores"] == scores("DDZ13")
    assert ["地主", "南(S)"] in seen["words"] and ["叫分", "抢牌"] in seen["words"]
    own = phone.verify(1, code(event, "N"), key="k2", version=version)
    assert (own.status_code, error_code(own)) == (403, "same_side")
    assert phone.verify(1, code(event, verifier), key="k3").status_code == 428  # If-Match needed
    verified = phone.verify(1, code(event, verifier), key="k4", version=version)
    assert verified.status_code == 200 and verified.json()["status"] == "confirmed"
    rows = list(DealHistory.objects.filter(board=1).order_by("id"))
    assert [(r.action, r.entrant.code, r.channel) for r in rows] == [
        ("create", "p01", "table link"),
        ("confirm", SEAT_OF[verifier], "table link"),
    ]


def test_a_replacement_by_another_player_makes_the_first_writer_a_verifier(phone, event):
    # Whoever wrote last may not verify: the landlord corrected the farmer's entry, the farmer checks it.
    version = phone.put(1, {**deal("DDZ01"), "code": code(event, "E")}, key="k1").json()["version"]
    phone.put(1, {**deal("DDZ22"), "code": code(event, "N")}, key="k2", version=version)
    assert error_code(phone.verify(1, code(event, "N"), key="k3", version=version + 1)) == "same_side"
    assert phone.verify(1, code(event, "E"), key="k4", version=version + 1).json()["status"] == "confirmed"


def test_a_dispute_goes_to_the_referees_and_the_players_can_no_longer_change_it(phone, event, table):
    version = phone.put(1, {**deal("DDZ01"), "code": code(event, "N")}, key="k1").json()["version"]
    disputed = phone.dispute(1, code(event, "W"), "先出完的是西家", key="k2")
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    call = RefereeCall.objects.get(table=table)
    assert (call.kind, call.board, call.entrant.code) == ("dispute", 1, "p04")
    assert error_code(phone.put(1, {**deal("DDZ22"), "code": code(event, "N")}, key="k3", version=version + 1)) == (
        "disputed"
    )
    assert error_code(phone.verify(1, code(event, "E"), key="k4", version=version + 1)) == "not_draft"


def fill_and_confirm(phone, event, names=("DDZ01", "DDZ14", "DDZ22", "DDZ29")):
    for board, name in enumerate(names, start=1):
        version = phone.put(board, {**deal(name), "code": code(event, "N")}, key=f"p{board}").json()["version"]
        assert phone.verify(board, code(event, "E"), key=f"v{board}", version=version).status_code == 200


def test_the_table_is_signed_off_when_every_player_has_signed(phone, event, table):
    assert error_code(phone.signoff(code(event, "N"), key="s0")) == "unconfirmed_boards"
    fill_and_confirm(phone, event)
    state = phone.state().json()
    totals = {seat: sum(scores(n)[seat] for n in ("DDZ01", "DDZ14", "DDZ22", "DDZ29")) for seat in "NESW"}
    assert state["totals"]["sides"] == totals
    view = state["signoff"]["S"]
    assert view["totals"]["we"] == totals["S"] and view["totals"]["all"] == totals and view["totals"]["they"] is None
    assert [row["we"] for row in view["boards"]] == [scores(n)["S"] for n in ("DDZ01", "DDZ14", "DDZ22", "DDZ29")]
    # The sign-off names the player whose figures were shown: another player's code is refused.
    shown = phone.send("post", "signoff", {"code": code(event, "E"), "side": "N"}, key="s-other")
    assert (shown.status_code, error_code(shown)) == (403, "other_side")
    for count, seat in enumerate("NES", start=1):
        answer = phone.send("post", "signoff", {"code": code(event, seat), "side": seat}, key=f"s{seat}")
        assert answer.status_code == 200 and answer.json()["side"] == seat
        assert sum(answer.json()["signed_off"].values()) == count
    # Three of four signed: the table is still open (West may still dispute, which withdraws them).
    table.refresh_from_db()
    assert not table.signed_off and phone.state().json()["writable"] is True
    assert phone.dispute(4, code(event, "W"), "天尊在东家？", key="d1").status_code == 200
    assert phone.state().json()["signed_off"] == {"N": False, "E": False, "S": False, "W": False}
    disputed = Deal.objects.select_related("table__round__event").get(table=table, board=4)
    deal_confirm(
        deal=disputed, user=make_user("ref", "referee", event), expected_version=disputed.version, reason="看过，无误"
    )
    for seat in "NESW":
        assert phone.signoff(code(event, seat), key=f"again-{seat}").status_code == 200
    table.refresh_from_db()
    assert table.signed_off
    state = phone.state().json()
    assert state["signed_off"] == {"N": True, "E": True, "S": True, "W": True}
    assert state["writable"] is False and state["read_only"]["code"] == "signed_off"
    closed = phone.dispute(1, code(event, "S"), "后悔了", key="d2")
    assert (closed.status_code, error_code(closed)) == (409, "signed_off")


def test_the_preview_scores_the_pages_fields_and_a_json_deal_with_the_engine(phone, event):
    fields = phone.client.post(
        phone.base + "boards/1/preview", {"landlord": "W", "bid": "grab", "first_out": "W", "feidan-W": "1"}
    ).json()
    assert fields["problems"] == [] and fields["scores"] == scores("DDZ14")
    assert fields["totals"] == scores("DDZ14")  # the table's running total with this deal
    farmer_with_four = {"landlord": "E", "bid": "1", "first_out": "E", "feidan-S": "4"}  # §1.2 V8: at most 3
    refused = phone.client.post(phone.base + "boards/1/preview", farmer_with_four).json()
    assert refused["scores"] is None
    assert [(p["field"], p["code"]) for p in refused["problems"]] == [("feidan", "bad_feidan")]
    as_json = phone.send("post", "boards/1/preview", deal("DDZ13"), key=None).json()
    assert as_json["scores"] == scores("DDZ13")
    assert not Deal.objects.exists()


def test_the_page_asks_the_games_fields_not_the_card_grid(client, table):
    page = client.get(f"/t/{table.token}/").content.decode()
    for key in ("tianzha", "tianzun", "landlord", "bid", "open", "first_out", "feidan"):
        assert f'data-key="{key}"' in page
    assert 'id="card-grid"' not in page and 'name="feidan-W"' in page
    assert "js/entry.js" in page and "js/table.js" in page


# Who plays for which side, from each game's law: 华牌 and 升级 (§2.1) partners opposite; 蚌埠斗地主
# (§1.1) and 跑胡子 (§3.1, seats E S W) every player for himself.
SIDES_BY_LAW = {
    "huapai": {"N": "NS", "S": "NS", "E": "EW", "W": "EW"},
    "shengji": {"N": "NS", "S": "NS", "E": "EW", "W": "EW"},
    "bengbu-doudizhu": {"N": "N", "E": "E", "S": "S", "W": "W"},
    "paohuzi": {"E": "E", "S": "S", "W": "W"},
}


@pytest.mark.parametrize("game_id", sorted(SIDES_BY_LAW))
def test_each_seat_acts_for_the_side_its_game_gives_it(game_id):
    assert seat_sides(GAMES[game_id]) == SIDES_BY_LAW[game_id]


def test_a_table_of_three_closes_when_its_three_players_have_signed(phone, event, table, monkeypatch):
    # 跑胡子's table (§3.1: E, S, W; North empty) through the same code: a seat the game does not
    # have acts for no side, and the three seated players sign the table off.
    fill_and_confirm(phone, event)
    monkeypatch.setattr(GAMES[DOUDIZHU], "sides", {seat: (seat,) for seat in "ESW"})
    assert phone.state().json()["signed_off"] == {"E": False, "S": False, "W": False}
    assert error_code(phone.signoff(code(event, "N"), key="s-north")) == "bad_code"
    for seat in "ES":
        assert phone.signoff(code(event, seat), key=f"s-{seat}").status_code == 200
    table.refresh_from_db()
    assert not table.signed_off
    assert phone.signoff(code(event, "W"), key="s-W").json()["signed_off"] == {"E": True, "S": True, "W": True}
    table.refresh_from_db()
    assert table.signed_off


def test_the_referees_page_of_a_table_every_player_signed_says_so(phone, event, table, client):
    fill_and_confirm(phone, event)
    for seat in "NESW":
        assert (
            phone.send("post", "signoff", {"code": code(event, seat), "side": seat}, key=f"s{seat}").status_code == 200
        )
    client.force_login(make_user("ref2", "referee", event))
    page = client.get("/referee/t-ddz/rounds/1/tables/1/boards/1/").content.decode()
    assert "本桌每位选手都已签字确认成绩" in page and "双方已签字" not in page
