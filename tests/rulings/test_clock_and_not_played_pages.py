"""The pages of the round clock and of boards not played: the organiser's buttons, the time left
on a table's phone (its ETag moving with the clock) and on the referees' grid, late boards, the
board page's forms, and "未打" with its rule on the public pages and the papers."""

import re
import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import ClockEntry, Deal, Event, Round, Table
from scoring.rulings.clock import clock_act
from scoring.rulings.not_played import board_not_played
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db
CONSOLE = "/organiser/t-pairs/rounds/3/"
GRID = "/referee/t-pairs/rounds/3/"


def timed(event, **settings):
    event.extra = {**event.extra, "round_minutes": 90, **settings}
    event.save()
    return Round.objects.select_related("event").get(event=event, number=3)


def table_one(event):
    return Table.objects.select_related("round__event").get(round__event=event, round__number=3, number=1)


def test_the_organiser_runs_the_clock_from_the_rounds_console_and_a_referee_cannot(client, event, people):
    rnd = timed(event)
    client.force_login(people["referee1"])
    assert client.post(CONSOLE + "clock/", {"action": "start"}).status_code == 403
    client.force_login(people["organiser"])
    page = client.get(CONSOLE).content.decode()
    assert 'id="clock-start"' in page and "开始计时（90 分钟）" in page and 'id="clock-pause"' not in page
    assert client.post(CONSOLE + "clock/", {"action": "start"}).status_code == 302
    client.post(CONSOLE + "clock/", {"action": "extend", "minutes": "15"})
    client.post(CONSOLE + "clock/", {"action": "extend", "minutes": "999"})  # refused by the form
    page = client.get(CONSOLE).content.decode()
    assert 'id="round-clock"' in page and 'data-state="running"' in page and 'id="clock-pause"' in page
    remaining = int(re.search(r'data-remaining="(\d+)"', page).group(1))
    assert 104 * 60 < remaining <= 105 * 60
    assert [e.action for e in ClockEntry.objects.filter(round=rnd)] == ["start", "extend"]
    assert "organiser" in re.search(r'<details id="clock-log">.*?</details>', page, re.S).group()
    response = client.post(CONSOLE + "clock/", {"action": "call_time", "finish_in_play": "1"}, follow=True)
    assert "时间到：30 副记为未打" in response.content.decode()
    assert Deal.objects.filter(table__round=rnd, extra__has_key="not_played").count() == 30


def test_a_tables_phone_sees_the_time_left_and_its_etag_moves_with_the_clock(client, event, people):
    rnd = timed(event)
    table = table_one(event)
    state = f"/t/{table.token}/state"
    first = client.get(state)
    assert first.json()["clock"] == {
        "state": "not_started",
        "ends_at": None,
        "remaining": 5400,
        "total": 5400,
        "called_at": None,
    }
    etag = first["ETag"]
    assert client.get(state, HTTP_IF_NONE_MATCH=etag).status_code == 304
    start = timezone.now() - timedelta(minutes=10)
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=start)
    running = client.get(state, HTTP_IF_NONE_MATCH=etag)
    assert running.status_code == 200 and running["ETag"] != etag
    face = running.json()["clock"]
    assert face["state"] == "running" and face["ends_at"] == (start + timedelta(minutes=90)).isoformat()
    # While it runs, the answer does not change: the phone counts down from the end it was sent.
    assert client.get(state, HTTP_IF_NONE_MATCH=running["ETag"]).status_code == 304
    clock_act(rnd=rnd, user=people["organiser"], action="pause", now=start + timedelta(minutes=10))
    paused = client.get(state, HTTP_IF_NONE_MATCH=running["ETag"]).json()["clock"]
    assert paused["state"] == "paused" and paused["remaining"] == 80 * 60
    # The settings' minutes are in the stamp too (before a start they are what the clock shows).
    page = client.get(f"/t/{table.token}/").content.decode()
    assert 'id="round-clock"' in page


def test_the_referees_grid_shows_the_time_left_late_boards_and_boards_not_played(client, event, people):
    rnd = timed(event, late_penalty=-50)
    client.force_login(people["referee1"])
    untimed_etag = client.head(GRID)["ETag"]
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=30))
    assert client.head(GRID)["ETag"] != untimed_etag
    page = client.get(GRID).content.decode()
    remaining = int(re.search(r'id="round-clock"[^>]*data-remaining="(\d+)"', page).group(1))
    assert 59 * 60 < remaining <= 60 * 60 and "计时中" in page
    clock_act(rnd=rnd, user=people["organiser"], action="call_time")
    table = table_one(event)
    late, _ = deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    page = client.get(GRID).content.decode()
    assert "时间到" in page and 'class="grid-late"' in page and "⏱1" in page
    assert 'class="cell not_played"' in page
    board = client.get(GRID + "tables/1/boards/1/").content.decode()
    assert 'id="late-board"' in board and 'id="late-penalty"' in board and "给迟打罚分 -50" in board
    response = client.post(GRID + "tables/1/boards/1/late/", {"seat": "S"}, follow=True)
    assert "迟打罚分已计入这一副" in response.content.decode()
    late.refresh_from_db()
    assert late.penalties == {"S": -50}
    assert "迟打罚分已经给过" in client.get(GRID + "tables/1/boards/1/").content.decode()
    recorded = client.get(GRID + "tables/1/boards/2/").content.decode()
    assert "未打：无成绩（双方 0 分）" in recorded and "时间到时这一副还没有开始" in recorded


def test_a_referee_records_a_board_not_played_from_its_page(client, event, people):
    client.force_login(people["referee1"])
    page = client.get(GRID + "tables/1/boards/3/").content.decode()
    assert 'id="not-played-form"' in page and "本赛事未打的副计：无成绩（双方 0 分）" in page
    response = client.post(GRID + "tables/1/boards/3/not-played/", {"reason": ""}, follow=True)
    assert Deal.objects.filter(table__number=1, table__round__number=3, board=3).count() == 0
    response = client.post(GRID + "tables/1/boards/3/not-played/", {"reason": "E 身体不适，未能开始"}, follow=True)
    text = response.content.decode()
    assert "未打：无成绩（双方 0 分）" in text and 'id="not-played"' in text
    assert 'id="not-played-form"' not in text  # zero: nothing to record again


def test_the_chief_arbiter_types_the_adjusted_score_of_a_board_awaiting_it(client, event, people):
    event.extra = {**event.extra, "not_played": "adjusted"}
    event.save()
    board_not_played(table=table_one(event), board=4, user=people["referee1"], reason="未开始")
    client.force_login(people["organiser"])
    page = client.get(GRID + "tables/1/boards/4/").content.decode()
    assert "未打：等裁判长给调整分" in page
    assert not re.search(r'name="adjusted-N" value="0"', page)  # the stored zeros only held its place
    client.force_login(people["referee2"])
    page = client.get(GRID + "tables/1/boards/4/").content.decode()
    assert "等裁判长（组织者）在这一页给出调整分" in page


def test_the_public_pages_and_papers_show_not_played_with_its_rule(client, event, people):
    event.extra = {**event.extra, "not_played": "average"}
    event.save()
    one, two = table_one(event), Table.objects.get(round__event=event, round__number=3, number=2)
    played, _ = deal_save(table=two, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=played, user=people["referee2"], expected_version=played.version)
    board_not_played(table=one, board=1, user=people["referee1"], reason="NS 迟到")
    sheets = client_pdf(client, people, "/events/t-pairs/rounds/3/scoresheets.pdf")
    assert "未打：按其他 1 桌的平均分" in sheets
    Round.objects.filter(event=event, number=3).update(status="provisional")
    traveller = client.get("/events/t-pairs/rounds/3/boards/1/").content.decode()
    assert "未打：按其他 1 桌的平均分" in traveller
    code = one.ns_entrant.code
    assert "未打：按其他 1 桌的平均分" in client.get(f"/events/t-pairs/entrants/{code}/").content.decode()
    penalties = client.get("/events/t-pairs/penalties/").content.decode()
    assert "未打：按其他 1 桌的平均分" in penalties and "NS 迟到" in penalties
    travellers = client_pdf(client, people, "/events/t-pairs/rounds/3/travellers.pdf")
    assert "未打：按其他1桌的平均分" in re.sub(r"\s", "", travellers)  # wrapped in its cell
    english = client.get("/events/t-pairs/rounds/3/boards/1/", HTTP_ACCEPT_LANGUAGE="en")
    assert "not played: the average of 1 other table" in english.content.decode()
    Event.objects.filter(pk=event.pk).update(entry=Event.Entry.PLAYERS)
    state = client.get(f"/t/{one.token}/state").json()
    assert state["boards"][0]["not_played"] == "未打：按其他 1 桌的平均分"


def client_pdf(client, people, url):
    """The text of a PDF the organiser downloads (pdftotext, as the papers' own tests read them)."""
    client.force_login(people["organiser"])
    response = client.get(url)
    assert response.status_code == 200, url
    done = subprocess.run(["pdftotext", "-", "-"], input=b"".join(response), capture_output=True, check=True)
    return done.stdout.decode()
