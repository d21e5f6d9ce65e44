"""Archives of a 跑胡子 event (event-archive.md `event.game`, a match `{"table", "seats": {"E", "S",
"W"}, "deals"}`): three-seat matches read, scored by the game and stored whole with North empty,
a round whose count does not divide by three (a bye), round-tripped; standings per games law §0
with the bye as docs/games/paohuzi.md decides (0 score; 2 table points where they count).

Expected scores are the law's worked examples (shared/rules/games/examples.json); totals and
table points are summed here in §0's own words, never read from the site."""

import copy
import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError, parse_archive
from scoring.models import Deal, Table
from scoring.results.standings import event_standings
from scoring.results.standings_json import standings_json
from tests.archives import PAOHUZI, PAOHUZI_TABLES, game_examples, paohuzi_archive

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(PAOHUZI)
SEATS = ("E", "S", "W")
BYE = "p07"


def match_totals(tables=PAOHUZI_TABLES):
    """{table: {seat: match total}} from the examples' expected scores."""
    return {
        number: {seat: sum(EXAMPLES[name]["expected"]["scores"][seat] for name in names) for seat in SEATS}
        for number, names in tables.items()
    }


def player(table, seat):
    return f"p{3 * (table - 1) + SEATS.index(seat) + 1:02d}"


def expected_totals():
    found = {BYE: 0}
    for table, match in match_totals().items():
        for seat in SEATS:
            found[player(table, seat)] = match[seat]
    return found


def expected_table_points():
    """§0: 2 per opponent at the table with a lower match total, 1 per equal one; the bye 2."""
    found = {BYE: 2}
    for table, match in match_totals().items():
        for seat in SEATS:
            found[player(table, seat)] = sum(
                2 if match[seat] > match[o] else 1 if match[seat] == match[o] else 0 for o in SEATS if o != seat
            )
    return found


def test_three_seat_matches_are_stored_with_north_empty_and_the_laws_scores():
    event = import_archive(paohuzi_archive())
    assert event.game == PAOHUZI and event.kind == "individual" and event.match_length == 3
    tables = list(Table.objects.filter(round__event=event).order_by("number"))
    assert [t.north_id for t in tables] == [None, None]
    assert [(t.east.code, t.south.code, t.west.code) for t in tables] == [("p01", "p02", "p03"), ("p04", "p05", "p06")]
    deals = Deal.objects.filter(table__round__event=event).select_related("table").order_by("table__number", "board")
    assert deals.count() == 6
    for deal in deals:
        name = PAOHUZI_TABLES[deal.table.number][deal.board - 1]
        expected = EXAMPLES[name]["expected"]["scores"]
        assert {seat: deal.scores[seat] for seat in SEATS} == expected, name
        assert deal.scores["N"] == 0 and deal.game_data is not None and "game" not in deal.game_data
    huang = next(d for d in deals if d.table.number == 1 and d.board == 2)  # PHZ13, a 黄庄
    assert huang.game_data["winner"] is None and huang.game_data["wangba"]["E"] == 2


def test_the_archive_round_trips_with_the_bye():
    event = import_archive(paohuzi_archive())
    exported = export_archive(event)
    assert exported["event"]["game"] == PAOHUZI and exported["event"]["options"]["deals_per_match"] == 3
    matches = exported["rounds"][0]["matches"]
    assert matches[0]["seats"] == {"E": "p01", "S": "p02", "W": "p03"}
    assert {"bye": BYE} in [{k: v for k, v in m.items() if k == "bye"} for m in matches]
    for board, name in enumerate(PAOHUZI_TABLES[1], start=1):
        source = {k: v for k, v in EXAMPLES[name]["deal"].items() if k != "game"}
        written = matches[0]["deals"][board - 1]
        assert written["board"] == board and "game" not in written
        assert written["winner"] == source["winner"]
        assert {s: n for s, n in written["wangba"].items() if n} == {s: n for s, n in source["wangba"].items() if n}
    again = copy.deepcopy(exported)
    again["event"]["slug"] = "t-phz-copy"
    copied = import_archive(json.loads(json.dumps(again)))
    second = export_archive(copied)
    second["event"]["slug"] = exported["event"]["slug"]
    assert second == exported
    assert standings_json(copied)["rows"] == standings_json(event)["rows"]


def test_standings_are_the_total_with_the_bye_at_zero():
    event = import_archive(paohuzi_archive())
    rows = event_standings(event)
    assert {row.id: row.total_score for row in rows} == expected_totals()
    totals = expected_totals()
    assert [row.total_score for row in rows] == sorted(totals.values(), reverse=True)
    assert next(row for row in rows if row.id == BYE).deals == 0


def test_table_points_count_the_bye_as_two_and_the_total_breaks_ties():
    event = import_archive(paohuzi_archive(options={"standings": "table_points"}))
    rows = event_standings(event)
    points, totals = expected_table_points(), expected_totals()
    assert {row.id: row.table_points for row in rows} == points
    assert [row.id for row in rows] == sorted(points, key=lambda p: (-points[p], -totals[p], p))
    first_with_one = next(row for row in rows if row.table_points == 1)
    assert [row.rank for row in rows if row.table_points == 1] == [first_with_one.rank] * 2  # equal: shared


def test_a_match_with_north_or_four_seats_is_refused_by_name():
    archive = paohuzi_archive()
    archive["rounds"][0]["matches"][0]["seats"] = {"N": "p07", "E": "p01", "S": "p02", "W": "p03"}
    with pytest.raises(ArchiveError, match="E S W"):
        parse_archive(archive)


def test_a_player_at_a_table_and_on_a_bye_is_refused():
    archive = paohuzi_archive(bye="p01")
    with pytest.raises(ArchiveError):
        parse_archive(archive)
