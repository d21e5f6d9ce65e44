"""The referees' live grid of a round in players mode: each table's state in one word, the
queue of calls and disputes, unlocking a table, and the stamp the page polls."""

import json
import re

import pytest

from scoring.archive.database import import_archive
from scoring.cache import grid as kept_grids
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
    grid = round_grid(rnd)
    cells, counts = grid.by_id, grid.counts
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
    assert round_grid(rnd).by_id[by_number[2].id]["state"] == "referee_called"


def test_a_table_far_behind_the_room_is_late(client, event):
    by_number = tables(event)
    for number, (ns, ew) in {1: ("A", "B"), 2: ("C", "D"), 3: ("E", "F")}.items():
        play(client, event, by_number[number], ns, ew, [1, 2])
    grid = round_grid(by_number[1].round)
    assert [n for n, t in by_number.items() if grid.by_id[t.id]["late"]] == [4, 5]
    assert grid.counts["late"] == 2


def test_the_referee_page_shows_the_queue_answers_calls_and_unlocks_tables(client, event):
    by_number = tables(event)
    send(client, by_number[2], "call", {"kind": "claim", "note": "摊牌有争议"}, "c1")
    for attempt in range(10):
        send(client, by_number[3], "boards/1", {"code": "WRONG234"}, f"w{attempt}")
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
    assert RefereeCall.objects.get(table=by_number[2]).answered_by == referee
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


def live(client, headers=None, **query):
    address = "/referee/t-pairs/rounds/1/live"
    if query:
        address += "?" + "&".join(f"{name}={value}" for name, value in query.items())
    return client.get(address, headers=headers or {})


def row_of(html, number):
    found = re.search(rf'<tr id="grid-t{number}"[^>]*>.*?</tr>', html, re.S)
    assert found, html[:500]
    return found.group(0)


def test_a_live_update_sends_what_moved_since_the_grid_the_page_holds(client, event):
    """The page's update after a table acted: the counts, the table's row and its version —
    computed again for that table only — and nothing more while nothing moves."""
    by_number = tables(event)
    play(client, event, by_number[1], "A", "B", [1])
    client.force_login(make_user("ref", "referee", event))
    page = client.get("/referee/t-pairs/rounds/1/").content.decode()
    held = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    versions = dict(re.findall(r'data-table="(\d+)" data-version="([^"]+)"', page))
    assert set(versions) == {"1", "2", "3", "4", "5"}
    assert live(client, {"If-None-Match": held}).status_code == 304
    # Table 3 enters a board: it now waits for the other side's verification.
    send(client, by_number[3], "boards/1", {**deal("T1"), "code": code(event, "E")}, "e1")
    answer = live(client, {"If-None-Match": held})
    assert answer.status_code == 200
    data = answer.json()
    assert data["round"] == "in_play"
    fresh = {str(number): version for number, version in data["versions"]}
    assert [n for n in fresh if fresh[n] != versions[n]] == ["3"]
    assert list(data["rows"]) == ["3"]  # the one row that moved, as HTML
    row = row_of(data["rows"]["3"], 3)
    assert 'data-state="awaiting_verification"' in row and " 0/4" in row
    assert 'href="/referee/t-pairs/rounds/1/tables/3/boards/1/" title="draft"' in row
    assert f'data-version="{fresh["3"]}"' in row
    # The counts at the top: one table done with board 1 (in progress), one waiting, three not started.
    assert "进行中 1" in data["counts"] and "等核对 1" in data["counts"] and "未开始 3" in data["counts"]
    assert "还有 19 副未确认" in data["todo"]  # 5 tables × 4 boards, 1 confirmed
    # The table's row again on its own, as a page that missed it asks for it.
    asked = live(client, rows="3,4").json()["rows"]
    assert sorted(asked) == ["3", "4"] and row_of(asked["3"], 3) == row
    # Nothing moved since: 304 again on the new ETag.
    assert live(client, {"If-None-Match": answer["ETag"]}).status_code == 304


def test_an_update_from_a_worker_that_did_not_keep_the_pages_grid_sends_the_versions(client, event):
    by_number = tables(event)
    client.force_login(make_user("ref", "referee", event))
    page = client.get("/referee/t-pairs/rounds/1/").content.decode()
    held = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    kept_grids.forget()  # another worker: it never assembled the grid this page holds
    send(client, by_number[2], "call", {"kind": "claim"}, "c1")
    data = live(client, {"If-None-Match": held}).json()
    assert data["rows"] == {}  # the page compares the versions and asks for the rows it lacks
    assert dict(data["versions"])[2] != re.search(r'data-table="2" data-version="([^"]+)"', page).group(1)
    assert 'data-state="referee_called"' in live(client, rows="2").json()["rows"]["2"]
    assert "referee_called" in data["counts"] and 'id="referee-queue"' in data["queue"]


def test_the_live_update_keeps_to_my_area_and_refuses_junk(client, event):
    client.force_login(make_user("ref", "referee", event))
    data = live(client, first=2, last=3).json()
    assert [number for number, _version in data["versions"]] == [2, 3]
    assert sorted(live(client, rows="1,2,3", first=2, last=3).json()["rows"]) == ["2", "3"]
    for junk in ("x", "1,,2", "-1", ",".join(["1"] * 201), "1" * 12):
        assert live(client, rows=junk).status_code == 400, junk
    assert client.post("/referee/t-pairs/rounds/1/live").status_code == 405
    client.logout()
    assert live(client).status_code == 302  # to the login page


def test_from_the_grid_one_click_opens_the_tables_boards_with_their_history(client, event):
    by_number = tables(event)
    play(client, event, by_number[2], "C", "D", [1, 2])
    send(client, by_number[2], "boards/3", {**deal("T1"), "code": code(event, "C")}, "c3")
    send(client, by_number[2], "boards/3/dispute", {"code": code(event, "D"), "reason": "♠Q 不对"}, "c3d")
    client.force_login(make_user("ref", "referee", event))
    grid = client.get("/referee/t-pairs/rounds/1/").content.decode()
    cell = re.search(r'<td class="grid-cell"><a class="grid-state disputed" href="([^"]+)"', row_of(grid, 2))
    assert cell, row_of(grid, 2)
    page = client.get(cell.group(1))
    assert page.status_code == 200
    text = page.content.decode()
    boards = re.findall(r'<details class="history" id="history-(\d+)"', text)
    assert boards == ["1", "2", "3"]
    history = {b: re.search(rf'id="history-{b}".*?</details>', text, re.S).group(0) for b in boards}
    # Each board's history: who acted (the entrant, through the table link) and what.
    for board in ("1", "2"):
        assert re.findall(r"<li>v\d+ (\S+) · (\S+)（本桌链接）", history[board]) == [("录入", "C"), ("确认", "D")]
    assert re.findall(r"<li>v\d+ (\S+) · (\S+)（本桌链接）", history["3"]) == [("录入", "C"), ("提出争议", "D")]
    assert "♠Q 不对" in history["3"]
