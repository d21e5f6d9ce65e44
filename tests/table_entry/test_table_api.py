"""The table link's calls against table-api.md: codes, idempotency, versions, verification,
disputes, sign-off, throttling, and what the history records."""

import json
import re

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, DealHistory, Entrant, RefereeCall, Round, Table
from scoring.rounds.table_links import table_token_replace
from scoring.table_entry.codes import wrong_codes_clear
from tests.archives import EXAMPLES, pairs_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


def two_board_round(entry="players", pairs=("A", "B")):
    rounds = [
        {"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": pairs[0], "ew": pairs[1], "deals": []}]}
    ]
    archive = pairs_archive(list(pairs), rounds, length=2)
    archive["event"]["entry"] = entry
    return import_archive(archive)


@pytest.fixture
def event():
    return two_board_round()


@pytest.fixture
def table(event):
    return Table.objects.select_related("ns_entrant", "ew_entrant").get(round__event=event, number=1)


def code_of(event, pair):
    return Entrant.objects.get(event=event, code=pair).access_code


def example(name):
    deal = dict(EXAMPLES[name]["deal"])
    deal.pop("ruleset", None)
    return deal


class Table_:
    """The calls a phone makes, with their headers."""

    def __init__(self, client, table):
        self.client, self.base = client, f"/t/{table.token}/"

    def send(self, method, path, body, key="k-1", version=None, raw=None):
        headers = {}
        if key is not None:
            headers["Idempotency-Key"] = key
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        data = raw if raw is not None else json.dumps(body)
        call = getattr(self.client, method)
        return call(self.base + path, data=data, content_type="application/json", headers=headers)

    def put(self, board, body, **kw):
        return self.send("put", f"boards/{board}", body, **kw)

    def verify(self, board, code, **kw):
        return self.send("post", f"boards/{board}/verify", {"code": code}, **kw)

    def dispute(self, board, code, reason, **kw):
        return self.send("post", f"boards/{board}/dispute", {"code": code, "reason": reason}, **kw)

    def signoff(self, code, **kw):
        return self.send("post", "signoff", {"code": code}, **kw)

    def state(self):
        return self.client.get(self.base + "state")


@pytest.fixture
def phone(table):
    # As a phone calls: no session, no CSRF cookie, and Django's CSRF check on.
    return Table_(Client(enforce_csrf_checks=True), table)


def error_code(response):
    return response.json()["error"]["code"]


def test_the_state_lists_each_board_of_the_match_and_both_sides(phone, event):
    response = phone.state()
    assert response.status_code == 200
    state = response.json()
    assert [b["board"] for b in state["boards"]] == [1, 2]
    assert {b["status"] for b in state["boards"]} == {"empty"}
    assert state["sides"]["NS"]["entrants"] == ["A"] and state["sides"]["EW"]["entrants"] == ["B"]
    assert state["signed_off"] == {"NS": False, "EW": False}
    assert state["game"]["partnerships"] is True  # the page reads it; it never guesses from side names
    # Secrets of the table are not in its state: codes are typed, never shown.
    assert code_of(event, "A") not in response.content.decode()
    # Unchanged: a 304 on the same ETag.
    again = phone.client.get(phone.base + "state", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_a_write_needs_a_key_and_a_code_of_this_table(phone, event):
    body = {**example("T1"), "code": code_of(event, "A")}
    assert phone.put(1, body, key=None).status_code == 428
    assert error_code(phone.put(1, {**body, "code": "WRONGCOD"}, key="k-wrong")) == "bad_code"
    assert Deal.objects.count() == 0


def test_an_entry_then_the_same_key_again_gets_the_first_answer_and_writes_nothing(phone, event):
    body = {**example("T1"), "code": code_of(event, "A")}
    first = phone.put(1, body, key="abc")
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "draft"
    assert first.json()["sides"] == EXAMPLES["T1"]["expected"]["sides"]
    replay = phone.put(1, body, key="abc")
    assert (replay.status_code, replay.json()) == (201, first.json())
    assert Deal.objects.count() == 1
    assert DealHistory.objects.count() == 1
    mismatch = phone.put(1, {**body, "penalties": {"N": -10}}, key="abc")
    assert (mismatch.status_code, error_code(mismatch)) == (422, "idempotency_mismatch")


def test_replacing_needs_the_version_and_a_stale_one_changes_nothing(phone, event):
    body = {**example("T1"), "code": code_of(event, "A")}
    version = phone.put(1, body, key="k1").json()["version"]
    assert error_code(phone.put(1, body, key="k2")) == "version_required"
    stale = phone.put(1, {**body, "penalties": {"N": -10}}, key="k3", version=version - 1)
    assert stale.status_code == 412
    replaced = phone.put(1, {**body, "penalties": {"N": -10}}, key="k4", version=version)
    assert replaced.status_code == 200 and replaced.json()["penalties"] == {"N": -10}
    assert replaced.json()["version"] == version + 1


def test_an_impossible_deal_is_refused_with_its_deal_error_and_nothing_stored(phone, event):
    body = {**example("T1"), "code": code_of(event, "A")}
    body["captured"] = {**body["captured"], "W": []}  # three hearts left out
    response = phone.put(1, body, key="k1")
    assert response.status_code == 400
    assert error_code(response) not in ("bad_code", "bad_json")
    assert Deal.objects.count() == 0


def test_the_other_side_verifies_and_the_writer_may_not(phone, event):
    # A deal with exposures and a penalty: the verifying side sees them, not a bare OK.
    body = {**example("N3p"), "code": code_of(event, "A")}
    version = phone.put(1, body, key="k1").json()["version"]
    seen = phone.client.get(phone.base + "boards/1").json()
    entered = EXAMPLES["N3p"]["deal"]
    assert seen["status"] == "draft" and seen["entered_by"] == "NS" and seen["version"] == version
    assert {seat: sorted(cards) for seat, cards in seen["captured"].items()} == {
        seat: sorted(cards) for seat, cards in entered["captured"].items()
    }
    assert seen["holders"] == entered["holders"]
    assert seen["exposed"] == {"SQ": "shown", "DJ": "shown", "C10": "first"}
    assert seen["penalties"] == {"N": -50}
    assert seen["scores"] == EXAMPLES["N3p"]["expected"]["scores"]  # every seat's, penalty included
    assert seen["sides"] == EXAMPLES["N3p"]["expected"]["sides"]
    # …and in words, as the page shows them.
    assert seen["text"]["exposed"] == "♠Q明 ♦J明 ♣10首明"
    assert seen["text"]["holders"] == "♠Q:N ♦J:S ♣10:W ♥A:E"
    same = phone.verify(1, code_of(event, "A"), key="k2", version=version)
    assert (same.status_code, error_code(same)) == (403, "same_side")
    assert phone.verify(1, code_of(event, "B"), key="k3").status_code == 428
    verified = phone.verify(1, code_of(event, "B"), key="k4", version=version)
    assert verified.status_code == 200 and verified.json()["status"] == "confirmed"
    # The history names the acting entrant and the channel.
    rows = list(DealHistory.objects.filter(board=1).order_by("id"))
    assert [(r.action, r.entrant.code, r.channel) for r in rows] == [
        ("create", "A", "table link"),
        ("confirm", "B", "table link"),
    ]
    assert all(r.user is None for r in rows)
    # A confirmed deal is the players' no longer: a change is the referees'.
    assert error_code(phone.put(1, body, key="k5", version=version + 1)) == "confirmed"


def test_the_referee_api_history_shows_the_entrant_and_the_channel(phone, event, client):
    phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    referee = make_user("ref", "referee", event)
    client.force_login(referee)
    rows = client.get("/api/events/t-pairs/rounds/1/tables/1/boards/1/history").json()
    assert rows[0]["entrant"] == "A" and rows[0]["channel"] == "table link" and rows[0]["user"] is None
    # The board page's history says who acted, and through which door.
    page = client.get("/referee/t-pairs/rounds/1/tables/1/boards/1/").content.decode()
    assert re.search(r'<ol id="history"><li>v1 录入 · A（本桌链接）', page)


def test_a_dispute_goes_to_the_referees_who_settle_it_with_a_reason(phone, event, table):
    body = {**example("T1"), "code": code_of(event, "A")}
    version = phone.put(1, body, key="k1").json()["version"]
    assert error_code(phone.dispute(1, code_of(event, "B"), "", key="k2")) == "bad_reason"
    disputed = phone.dispute(1, code_of(event, "B"), "♠Q 是东家吃的", key="k3")
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    call = RefereeCall.objects.get(table=table)
    assert (call.kind, call.board, call.note, call.entrant.code) == ("dispute", 1, "♠Q 是东家吃的", "B")
    # The players can no longer change it or verify it.
    assert error_code(phone.put(1, body, key="k4", version=version + 1)) == "disputed"
    assert error_code(phone.verify(1, code_of(event, "B"), key="k5", version=version + 1)) == "not_draft"
    referee = make_user("ref", "referee", event)
    deal = Deal.objects.select_related("table__round__event").get(board=1)
    with pytest.raises(EntryError) as refused:
        deal_confirm(deal=deal, user=referee, expected_version=deal.version)
    assert refused.value.code == "reason_required"
    deal_confirm(deal=deal, user=referee, expected_version=deal.version, reason="问过四家，原录入正确")
    deal.refresh_from_db()
    call.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED and deal.confirmed_by == referee
    assert call.answered_by == referee and call.answered_at is not None
    assert DealHistory.objects.filter(board=1).last().action == DealHistory.Action.RULING


def test_signing_off_needs_every_board_confirmed_and_then_closes_the_table_to_players(phone, event, table):
    a, b = code_of(event, "A"), code_of(event, "B")
    assert error_code(phone.signoff(a, key="s0")) == "unconfirmed_boards"
    for board, name in ((1, "T1"), (2, "T7")):
        version = phone.put(board, {**example(name), "code": a}, key=f"p{board}").json()["version"]
        assert phone.verify(board, b, key=f"v{board}", version=version).status_code == 200
    first = phone.signoff(a, key="s1")
    assert first.status_code == 200 and first.json()["signed_off"] == {"NS": True, "EW": False}
    # A dispute before both have signed withdraws the signature given: the table signs again.
    assert phone.dispute(2, b, "再看一眼", key="d0").status_code == 200
    assert phone.state().json()["signed_off"] == {"NS": False, "EW": False}
    deal = Deal.objects.select_related("table__round__event").get(board=2)
    deal_confirm(deal=deal, user=make_user("chief", "referee", event), expected_version=deal.version, reason="无误")
    assert phone.signoff(b, key="s1b").json()["signed_off"] == {"NS": False, "EW": True}
    first = phone.signoff(a, key="s1c")
    assert first.json()["signed_off"] == {"NS": True, "EW": True}
    # Both signed: players are done.
    closed = phone.dispute(1, a, "后悔了", key="d1")
    assert (closed.status_code, error_code(closed)) == (409, "signed_off")
    assert error_code(phone.signoff(b, key="s9")) == "signed_off"
    assert phone.state().json()["writable"] is False
    # A referee still can, with a reason.
    referee = make_user("ref", "referee", event)
    deal = Deal.objects.select_related("table__round__event").get(board=1)
    table.refresh_from_db()
    with pytest.raises(EntryError) as refused:
        deal_save(table=table, board=1, deal_json=example("T7"), user=referee, expected_version=deal.version)
    assert refused.value.code == "reason_required"
    deal_save(
        table=table, board=1, deal_json=example("T7"), user=referee, expected_version=deal.version, reason="裁判长更正"
    )


def test_ten_wrong_codes_guard_the_table_from_unknown_phones_until_a_referee_clears_it(phone, event, table):
    body = {**example("T1"), "code": "NOPE2345"}
    for attempt in range(10):
        assert error_code(phone.put(1, body, key=f"w{attempt}")) == "bad_code"
    right = phone.put(1, {**body, "code": code_of(event, "A")}, key="right")
    assert right.status_code == 429 and error_code(right) == "table_guarded"
    assert 0 < int(right["Retry-After"]) <= 600
    # Reads go on, and the state says why in words.
    state = phone.state()
    assert state.status_code == 200 and state.json()["guarded"]["message"]
    wrong_codes_clear(table)
    assert phone.put(1, {**body, "code": code_of(event, "A")}, key="right").status_code == 201


def test_the_code_of_an_entrant_at_another_table_is_refused(phone, event, table):
    other = Entrant.objects.create(event=event, code="Z")
    response = phone.put(1, {**example("T1"), "code": other.access_code}, key="k1")
    assert (response.status_code, error_code(response)) == (403, "bad_code")


def test_codes_are_read_as_typed_on_a_phone(phone, event):
    typed = code_of(event, "A").lower()
    typed = typed[:4] + " " + typed[4:]
    assert phone.put(1, {**example("T1"), "code": typed}, key="k1").status_code == 201


def test_a_replaced_token_answers_404(client, table):
    old = table.token
    table_token_replace(table)
    assert client.get(f"/t/{old}/state").status_code == 404
    assert client.get(f"/t/{old}/").status_code == 404
    assert client.get(f"/t/{table.token}/state").status_code == 200


def test_a_body_over_64_kib_is_413(phone):
    response = phone.put(1, None, key="big", raw=json.dumps({"code": "x" * 70_000}))
    assert response.status_code == 413


def test_in_an_event_entered_by_referees_the_link_only_reads(client):
    event = two_board_round(entry="referees")
    table = Table.objects.get(round__event=event)
    phone = Table_(client, table)
    response = phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    assert (response.status_code, error_code(response)) == (403, "players_entry_off")
    assert phone.state().json()["writable"] is False


def test_once_the_round_is_published_the_link_only_reads(phone, event):
    Round.objects.filter(event=event).update(status=Round.Status.PROVISIONAL)
    response = phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    assert (response.status_code, error_code(response)) == (409, "round_published")


def test_a_call_puts_the_table_on_the_referees_queue_once(phone, table):
    first = phone.send("post", "call", {"kind": "revoke", "note": "东家藏牌"}, key="c1")
    assert first.status_code == 200
    again = phone.send("post", "call", {"kind": "other"}, key="c2")
    assert again.status_code == 200
    assert RefereeCall.objects.filter(table=table, answered_at=None).count() == 1
    assert phone.state().json()["referee_called"] is True
    assert error_code(phone.send("post", "call", {"kind": "nonsense"}, key="c3")) == "bad_kind"


def test_the_page_and_the_service_worker_are_served_and_never_cached(client, table):
    page = client.get(f"/t/{table.token}/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert 'id="table-app"' in page.content.decode()
    worker = client.get(f"/t/{table.token}/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert f"/t/{table.token}/" in worker.content.decode()


def test_a_penalty_ruled_at_the_table_joins_the_players_entry_and_they_cannot_drop_it(event, table):
    """Issue 23: a referee penalises W before the board is entered; the players' entry carries it,
    the verifying side sees it, and a player's change that drops it is refused."""
    from scoring.rulings.calls import call_open, call_rule

    referee = make_user("ref", role="referee", event=event)
    call = call_open(table=table, user=referee, kind="revoke", board=1, seats="W")
    call_rule(call=call, user=referee, outcome="penalty", ruling="藏牌", penalty_seat="W", penalty=-50)
    phone = Table_(Client(), table)
    created = phone.put(1, {**example("T1"), "code": code_of(event, "A")})
    assert created.status_code == 201, created.content
    deal = Deal.objects.get(table=table, board=1)
    assert deal.penalties == {"W": -50}
    assert deal.scores["W"] == EXAMPLES["T1"]["expected"]["scores"]["W"] - 50
    dropped = phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k-2", version=deal.version)
    assert dropped.status_code == 409 and dropped.json()["error"]["code"] == "ruled_penalty"
    kept = phone.put(
        1, {**example("T1"), "penalties": {"W": -60}, "code": code_of(event, "A")}, key="k-3", version=deal.version
    )
    assert kept.status_code == 200 and Deal.objects.get(pk=deal.pk).penalties == {"W": -60}
