"""Archives of another game than 华牌 (event-archive.md `event.game`): a 蚌埠斗地主 event's
deals read and scored by its game, stored whole and round-tripped; its standings per games
law §0; an unknown game refused by name; a 华牌 archive exactly as before.

Expected scores are the law's worked examples, read from shared/rules/games/examples.json
at test time; standings are summed and compared here by §0's own words."""

import copy
import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError, parse_archive
from scoring.models import Deal, Event
from scoring.results.standings import event_standings
from scoring.results.standings_json import standings_json
from tests.archives import DOUDIZHU, DOUDIZHU_TABLES, doudizhu_archive, four_pairs_two_rounds, game_examples

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(DOUDIZHU)
SEATS = ("N", "E", "S", "W")


def expected_totals(tables=DOUDIZHU_TABLES):
    """{player: total} summed from the examples' expected scores (p01–p04 at table 1, N E S W)."""
    totals = {}
    for number, names in tables.items():
        for index, seat in enumerate(SEATS, start=1):
            player = f"p{4 * (number - 1) + index:02d}"
            totals[player] = sum(EXAMPLES[name]["expected"]["scores"][seat] for name in names)
    return totals


def test_each_deal_is_stored_whole_with_the_laws_scores():
    event = import_archive(doudizhu_archive())
    assert event.game == DOUDIZHU and event.kind == "individual" and event.match_length == 4
    deals = Deal.objects.filter(table__round__event=event).select_related("table").order_by("table__number", "board")
    assert deals.count() == 8
    for deal in deals:
        name = DOUDIZHU_TABLES[deal.table.number][deal.board - 1]
        assert deal.scores == EXAMPLES[name]["expected"]["scores"], name
        assert deal.game_data is not None and "game" not in deal.game_data
        assert "captured" not in deal.game_data and deal.penalties == {}  # none of 华牌's keys
    table_one = [d for d in deals if d.table.number == 1]
    # DDZ22 (board 3) as the engine keeps it: its 飛彈 and its landlord, not 华牌's cards.
    assert table_one[2].game_data["landlord"] == "N" and table_one[2].game_data["feidan"] == {"N": 1, "W": 1}


def test_the_archive_round_trips_deal_for_deal():
    event = import_archive(doudizhu_archive())
    exported = export_archive(event)
    assert exported["event"]["game"] == DOUDIZHU
    assert exported["event"]["options"]["deals_per_match"] == 4
    first = exported["rounds"][0]["matches"][0]
    assert first["seats"] == {"N": "p01", "E": "p02", "S": "p03", "W": "p04"}
    # Each exported deal is the example's deal (canonical: defaults written out), "game" left to the event.
    for board, name in enumerate(DOUDIZHU_TABLES[1], start=1):
        source = {k: v for k, v in EXAMPLES[name]["deal"].items() if k != "game"}
        written = first["deals"][board - 1]
        assert written["board"] == board and "game" not in written
        assert {k: v for k, v in written.items() if k in source and v is not None} == {
            k: v for k, v in source.items() if v is not None
        }
    again = copy.deepcopy(exported)
    again["event"]["slug"] = "t-ddz-copy"
    copied = import_archive(json.loads(json.dumps(again)))
    second = export_archive(copied)
    second["event"]["slug"] = exported["event"]["slug"]
    assert second == exported
    assert standings_json(copied)["rows"] == standings_json(event)["rows"]


def test_standings_are_the_total_of_deal_scores():
    event = import_archive(doudizhu_archive())
    totals = expected_totals()
    rows = event_standings(event)
    assert {row.id: row.total_score for row in rows} == totals
    ordered = sorted(totals.values(), reverse=True)
    assert [row.total_score for row in rows] == ordered
    # The documented JSON of an individual event: rank, id, total, deals (no table points).
    assert set(standings_json(event)["rows"][0]) == {"rank", "id", "total_score", "deals"}


def test_standings_by_table_points_rank_them_first_with_the_total_as_tie_break():
    event = import_archive(doudizhu_archive(options={"standings": "table_points"}))
    totals = expected_totals()
    # §0: at each table, 2 points for every opponent with a lower match total, 1 for an equal one.
    points = {}
    for number in DOUDIZHU_TABLES:
        players = [f"p{4 * (number - 1) + i:02d}" for i in range(1, 5)]
        for player in players:
            points[player] = sum(
                2 if totals[player] > totals[other] else 1 if totals[player] == totals[other] else 0
                for other in players
                if other != player
            )
    rows = event_standings(event)
    assert {row.id: row.table_points for row in rows} == points
    keys = [(row.table_points, row.total_score) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert standings_json(event)["rows"][0]["table_points"] == max(points.values())


def test_the_parsed_archive_ranks_as_the_database_does():
    archive = doudizhu_archive(options={"standings": "table_points"})
    parsed = parse_archive(copy.deepcopy(archive))
    from scoring.engine.standings import compute_standings

    plain = compute_standings(parsed.format, parsed.match_results(), parsed.entrant_ids())
    stored = event_standings(import_archive(archive))
    assert [(r.id, r.rank, r.table_points, r.total_score) for r in plain] == [
        (r.id, r.rank, r.table_points, r.total_score) for r in stored
    ]


def test_an_unknown_game_is_refused_by_name():
    archive = doudizhu_archive()
    archive["event"]["game"] = "mahjong"
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert refused.value.code == "unknown_game" and "mahjong" in refused.value.message
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda a: a["event"].update(kind="pairs"), "individual"),
        (lambda a: a["event"].update(ruleset="huapai"), "huapai"),
        (lambda a: a["event"]["options"].update(feidan_stack="double"), "feidan_stack"),
        (lambda a: a["event"]["options"].update(deals_per_match=6), "deals_per_match"),
        (lambda a: a["rounds"][0]["matches"][0]["seats"].pop("W"), "N E S W"),
        (lambda a: a["rounds"][0]["matches"][0]["deals"][0].update(bid="pass"), "第1轮 1号桌 第1副"),
        (lambda a: a["rounds"][0]["matches"][0]["deals"].append({"board": 5, "tianzha": ["N"]}), "4 副"),
    ],
)
def test_a_bad_game_archive_is_refused_whole_naming_the_fault(change, named):
    archive = doudizhu_archive()
    change(archive)
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert named in refused.value.message
    assert not Event.objects.exists()


def test_a_huapai_archive_is_unchanged():
    archive = four_pairs_two_rounds()
    event = import_archive(copy.deepcopy(archive))
    assert event.game == "huapai"
    exported = export_archive(event)
    assert "game" not in exported["event"]
    for rnd in exported["rounds"]:
        for match in rnd["matches"]:
            for deal in match["deals"]:
                assert set(deal) >= {"board", "captured", "holders", "exposed", "penalties"}
    # Kept as every game's deal is: whole, in the game's keys.
    for deal in Deal.objects.filter(table__round__event=event):
        assert set(deal.game_data) == {"captured", "holders", "exposed", "penalties"}
    # An archive naming 华牌 is the same archive.
    named = copy.deepcopy(archive)
    named["event"].update(game="huapai", slug="t-named")
    again = export_archive(import_archive(named))
    again["event"]["slug"] = exported["event"]["slug"]
    assert again == exported


@pytest.mark.parametrize(
    "change",
    [
        lambda a: a["event"].update(game="mahjong"),
        lambda a: a["event"].update(kind="pairs"),
        lambda a: a["event"]["options"].update(deals_per_match=6),
        lambda a: a["rounds"][0]["matches"][0]["seats"].pop("W"),
        lambda a: a["rounds"][0]["matches"][0]["deals"].append({"board": 5, "tianzha": ["N"]}),
        lambda a: a["rounds"][0]["matches"][0]["deals"][0].update(bid="pass"),
    ],
)
def test_a_game_archive_refusal_reads_in_english_without_chinese(change):
    import re

    from django.utils import translation

    from scoring.messages import message_text

    archive = doudizhu_archive()
    change(archive)
    with pytest.raises(ArchiveError) as refused, translation.override("en"):
        import_archive(archive)
    with translation.override("en"):
        text = message_text(refused.value)
    assert not re.search(r"[\u3400-\u9fff]", text), text
