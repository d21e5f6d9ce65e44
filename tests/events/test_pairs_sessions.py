"""节 in pairs events (issue 23): the pairs swap directions between 节 and a pair may field its
registered substitute (替补) from a later 节; results stay with the draw's seats."""

import json
import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.engine.vocabulary import Kind
from scoring.entry.services import deal_save
from scoring.events.entrants import entrant_update
from scoring.events.lineups import (
    LineUpError,
    board_chairs,
    chairs,
    directions_swapped,
    lineup_matches,
    lineup_set,
    seats_for,
    session_notes,
)
from scoring.exports.files import scoresheets_pdf
from scoring.models import Entrant, Event, Match, Round, Table
from scoring.results.labels import entrant_labels
from scoring.web.organiser.event_form import EventForm
from tests.archives import pairs_archive
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db


def swapping_pairs(boards=4):
    """A v B, `boards` boards in two 节, directions swapped in the second; B has a substitute."""
    rounds = [{"number": 1, "sessions": 2, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=boards)
    archive["event"].update({"sessions_per_round": 2, "swap_directions": True})
    archive["players"].append({"id": "p09", "name": "替补甲"})
    archive["pairs"][1]["substitutes"] = ["p09"]
    return archive


@pytest.fixture
def event():
    return import_archive(swapping_pairs())


class Plain:
    """An event's settings without a database row (the rule is about settings only)."""

    def __init__(self, kind, swap):
        self.kind, self.swap_directions = kind, swap


def test_every_even_session_of_a_swapping_pairs_event_has_the_pairs_on_the_other_line():
    swapping = Plain(Kind.PAIRS, True)
    assert [directions_swapped(swapping, s) for s in (1, 2, 3, 4)] == [False, True, False, True]
    assert not directions_swapped(Plain(Kind.PAIRS, False), 2)
    assert not directions_swapped(Plain(Kind.TEAMS, True), 2)  # teams field line-ups instead
    # Everyone moves one chair on: the NS pair sits E–W, neighbours in the playing order kept.
    assert chairs(swapping, 2) == {"N": "E", "E": "S", "S": "W", "W": "N"}
    assert chairs(swapping, 3) == {"N": "N", "E": "E", "S": "S", "W": "W"}


def test_the_draw_and_the_archive_carry_the_sessions_the_swap_and_the_substitute(event):
    assert event.swap_directions and event.sessions_per_round == 2
    assert Round.objects.get(event=event).sessions == 2
    b = Entrant.objects.get(event=event, code="B")
    assert [m.player.code for m in b.memberships.order_by("position")][2] == "p09"
    exported = export_archive(event)
    assert exported["event"]["swap_directions"] is True
    assert exported["event"]["sessions_per_round"] == 2
    assert exported["rounds"][0]["sessions"] == 2
    pair_b = next(p for p in exported["pairs"] if p["id"] == "B")
    assert pair_b["players"] == ["p03", "p04"] and pair_b["substitutes"] == ["p09"]
    # And back: a second import of the export is the same event.
    again = json.loads(json.dumps(exported))
    again["event"]["slug"] = "again"
    copy = import_archive(again)
    assert export_archive(copy)["pairs"] == exported["pairs"]


def test_a_pair_fields_its_substitute_from_the_second_session_and_the_line_up_travels(event):
    match = Match.objects.get(round__event=event)
    lineup_set(match, 2, {1: {"N": "p01", "S": "p02", "E": "p09", "W": "p04"}})
    table = Table.objects.get(round__event=event)
    assert seats_for(table, 2, event)["E"].code == "p03"  # 节 1: boards 1–2
    assert seats_for(table, 3, event)["E"].code == "p09"  # 节 2: boards 3–4
    exported = export_archive(event)
    assert exported["rounds"][0]["matches"][0]["lineups"] == [
        {"session": 2, "ns": ["p01", "p02"], "ew": ["p09", "p04"]}
    ]
    exported["event"]["slug"] = "copy"
    copy = import_archive(exported)
    assert seats_for(Table.objects.get(round__event=copy), 3, copy)["E"].code == "p09"


def test_a_seat_goes_only_to_a_member_of_the_pair_on_that_line(event):
    match = Match.objects.get(round__event=event)
    with pytest.raises(LineUpError) as caught:
        lineup_set(match, 2, {1: {"N": "p09", "S": "p02", "E": "p03", "W": "p04"}})  # B's substitute for A
    assert caught.value.code == "not_a_member"


def test_a_pair_line_up_is_refused_once_its_session_has_a_result(event):
    table = Table.objects.get(round__event=event)
    deal_save(table=table, board=3, deal_json=example_deal(), user=make_user("ref", "referee", event))
    with pytest.raises(LineUpError) as caught:
        lineup_set(Match.objects.get(round__event=event), 2, {1: {"N": "p01", "S": "p02", "E": "p09", "W": "p04"}})
    assert caught.value.code == "session_started"


def test_the_notes_of_a_table_name_each_later_session_s_boards_chairs_and_players(event):
    table = Table.objects.get(round__event=event)
    lineup_set(Match.objects.get(round__event=event), 2, {1: {"N": "p01", "S": "p02", "E": "p09", "W": "p04"}})
    (note,) = session_notes(table, event, 2)
    assert note["session"] == 2 and note["boards"] == (3, 4) and note["swapped"]
    assert [(seat, chair, player.code) for seat, chair, player in note["seats"]] == [
        ("N", "E", "p01"),
        ("E", "S", "p09"),
        ("S", "W", "p02"),
        ("W", "N", "p04"),
    ]
    assert board_chairs(table, 2, event) is None
    assert board_chairs(table, 3, event) == [("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")]


def test_results_stay_with_the_draw_s_seats_in_a_swapped_session(event):
    """The same deal scores the same for each pair whichever 节 it is played in."""
    table = Table.objects.get(round__event=event)
    referee = make_user("ref", "referee", event)
    first, _created = deal_save(table=table, board=1, deal_json=example_deal(), user=referee)
    swapped, _created = deal_save(table=table, board=3, deal_json=example_deal(), user=referee)
    assert (first.ns_score, first.ew_score) == (swapped.ns_score, swapped.ew_score)


def test_the_score_sheet_says_where_each_seat_sits_in_the_swapped_session(event, tmp_path):
    lineup_set(Match.objects.get(round__event=event), 2, {1: {"N": "p01", "S": "p02", "E": "p09", "W": "p04"}})
    rnd = Round.objects.get(event=event)
    path = tmp_path / "sheets.pdf"
    with path.open("wb") as out:
        scoresheets_pdf(event, rnd, entry_url=lambda table: "https://example.org/").write(out)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    compact = "".join(text.split())
    assert "第2节（第3–4副）交换坐向，仍按抽签座位记分" in compact
    assert "E替补甲（p09）坐南" in compact


def test_the_entry_page_of_a_swapped_board_says_where_each_seat_sits(event):
    referee = make_user("ref", "referee", event)
    client = Client()
    client.force_login(referee)
    page = client.get(reverse("referee-board", args=[event.slug, 1, 1, 3])).content.decode()
    assert 'id="swapped-directions"' in page and "N 现坐东 E" in page
    first = client.get(reverse("referee-board", args=[event.slug, 1, 1, 1])).content.decode()
    assert 'id="swapped-directions"' not in first


def test_the_table_page_names_the_swapped_session(event):
    table = Table.objects.get(round__event=event)
    page = Client().get(f"/t/{table.token}/").content.decode()
    assert "第 2 节（第 3–4 副）" in page and "两对交换坐向" in page


def test_a_pair_registers_its_substitute_after_entering_and_is_named_apart():
    archive = swapping_pairs()
    archive["pairs"][1].pop("substitutes")
    event = import_archive(archive)
    a = Entrant.objects.get(event=event, code="A")
    entrant_update(a, names=["选手1", "选手2", "替补乙"], club="")
    assert a.memberships.count() == 3
    label = entrant_labels(event)["A"]["name"]
    assert label.endswith("（替补：替补乙）") and "选手1" in label
    assert [match.home.code for match in lineup_matches(Round.objects.get(event=event))] == ["A"]


@pytest.mark.parametrize(
    ("kind", "sessions", "accepted"),
    [(Event.Kind.PAIRS, 2, True), (Event.Kind.PAIRS, 1, False), (Event.Kind.TEAMS, 2, False)],
)
def test_the_event_form_takes_the_swap_for_pairs_events_of_several_sessions_only(kind, sessions, accepted):
    data = {
        "name": "换向测试",
        "slug": "swap-form",
        "kind": kind,
        "ruleset": "huapai",
        "game_threshold": 1000,
        "match_mode": "boards",
        "match_length": 16,
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "sessions_per_round": sessions,
        "swap_directions": "on",
        "correction_minutes": 30,
        "entry": "referees",
    }
    form = EventForm(data)
    assert form.is_valid() is accepted, form.errors
    if not accepted:
        assert "swap_directions" in form.errors
