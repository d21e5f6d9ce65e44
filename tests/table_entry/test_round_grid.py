"""The referees' live grid of a round in players mode: each table's state in one word, the
queue of calls and disputes, unlocking a table, and the stamp the page polls."""

import json

import pytest

from scoring.archive.database import import_archive
from scoring.models import Entrant, RefereeCall, Table, WrongCode
from scoring.table_entry.grid import round_grid
from tests.archives import EXAMPLES, pairs_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    matches = [
        {"table": n, "ns": ns, "ew": ew, "deals": []}
        for n, (ns, ew) in enumerate([("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"), ("I", "J")], start=1)
    ]
    archive = pairs_archive(list("ABCDEFGHIJ"), [{"number": 1, "status": "in_play", "matches": matches}], length=4)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def deal(name):
    body = dict(EXAMPLES[name]["deal"])
    body.pop("ruleset")
    return body


def send(client, table, path, body, key):
    return client.generic(
        "PUT" if path.startswith("boards/") and path.count("/") == 1 else "POST",
        f"/t/{table.token}/{path}",
        json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": key, **({"If-Match": body.pop("_v")} if "_v" in body else {})},
    )


def code(event, pair):
    return Entrant.objects.get(event=event, code=pair).access_code


def tables(event):
    return {t.number: t for t in Table.objects.filter(round__event=event).select_related("round")}


def play(client, event, table, ns, ew, boards):
    for board in boards:
        version = send(client, table, f"boards/{board}", {**deal("T1"), "code": code(event, ns)}, f"p{board}").json()
        send(
            client,
            table,
            f"boards/{board}/verify",
            {"code": code(event, ew), "_v": str(version["version"])},
            f"v{board}",
        )


def test_each_table_in_one_word(client, event):
    by_number = tables(event)
    play(client, event, by_number[1], "A", "B", [1, 2, 3, 4])  # complete, then signed off
    send(client, by_number[1], "signoff", {"code": code(event, "A")}, "s1")
    send(client, by_number[1], "signoff", {"code": code(event, "B")}, "s2")
    play(client, event, by_number[2], "C", "D", [1, 2, 3])  # three of four confirmed
    send(client, by_number[3], "boards/1", {**deal("T1"), "code": code(event, "E")}, "e1")  # awaiting verification
    send(client, by_number[4], "boards/1", {**deal("T1"), "code": code(event, "G")}, "g1")
    send(client, by_number[4], "boards/1/dispute", {"code": code(event, "H"), "reason": "猪不是北家的"}, "g2")
    rnd = by_number[1].round
    cells, counts = round_grid(rnd, 4)
    states = {n: cells[t.id]["state"] for n, t in by_number.items()}
    assert states == {
        1: "signed_off",
        2: "in_progress",
        3: "awaiting_verification",
        4: "disputed",
        5: "not_started",
    }
    assert cells[by_number[2].id]["confirmed"] == 3
    # The room's median table has confirmed 0 boards here; nobody is "late" behind it.
    assert not any(cell["late"] for cell in cells.values())
    assert counts["signed_off"] == 1 and counts["not_started"] == 1
    # A call outranks everything else the table shows.
    send(client, by_number[2], "call", {"kind": "revoke"}, "c1")
    cells, _counts = round_grid(rnd, 4)
    assert cells[by_number[2].id]["state"] == "referee_called"


def test_a_table_far_behind_the_room_is_late(client, event):
    by_number = tables(event)
    for number, (ns, ew) in {1: ("A", "B"), 2: ("C", "D"), 3: ("E", "F")}.items():
        play(client, event, by_number[number], ns, ew, [1, 2])
    cells, counts = round_grid(by_number[1].round, 4)
    assert [n for n, t in by_number.items() if cells[t.id]["late"]] == [4, 5]
    assert counts["late"] == 2


def test_the_referee_page_shows_the_queue_answers_calls_and_unlocks_tables(client, event):
    by_number = tables(event)
    send(client, by_number[2], "call", {"kind": "claim", "note": "摊牌有争议"}, "c1")
    for attempt in range(10):
        send(client, by_number[3], "call", {"code": "WRONG234"}, f"w{attempt}")
    referee = make_user("ref", "referee", event)
    client.force_login(referee)
    page = client.get("/referee/t-pairs/rounds/1/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="referee-queue"' in text and "摊牌有争议" in text
    assert "录入码错误过多：解锁" in text
    stamp = client.head("/referee/t-pairs/rounds/1/")["ETag"]
    answered = client.post("/referee/t-pairs/rounds/1/tables/", {"table": 2, "action": "answer"})
    assert answered.status_code == 302
    assert RefereeCall.objects.get().answered_by == referee
    assert client.head("/referee/t-pairs/rounds/1/")["ETag"] != stamp
    client.post("/referee/t-pairs/rounds/1/tables/", {"table": 3, "action": "unlock"})
    assert not WrongCode.objects.filter(table=by_number[3]).exists()
    # Hostile input is a message, not a 500.
    assert client.post("/referee/t-pairs/rounds/1/tables/", {"table": "x", "action": "nuke"}).status_code == 302


def test_my_area_shows_only_my_tables(client, event):
    client.force_login(make_user("ref", "referee", event))
    text = client.get("/referee/t-pairs/rounds/1/?first=2&last=3").content.decode()
    shown = {n for n in range(1, 6) if f'/tables/{n}/confirm/"' in text}
    assert shown == {2, 3}


def test_the_public_and_other_events_referees_cannot_act_on_tables(client, event):
    assert client.post("/referee/t-pairs/rounds/1/tables/", {"table": 1, "action": "unlock"}).status_code == 302
    other = make_user("stranger")
    client.force_login(other)
    assert client.post("/referee/t-pairs/rounds/1/tables/", {"table": 1, "action": "unlock"}).status_code == 403
