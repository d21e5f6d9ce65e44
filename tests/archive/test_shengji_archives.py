"""Archives of a 升级 pairs event (event-archive.md `event.game`): each table's deals read as one
match — a later deal may leave its state out and the match carries it (§2.1 M1), a state given
must be the one reached, no deal after the match ended, no board missing — stored whole with the
state each was played from, round-tripped deal for deal; the parsed archive ranks as the
database does. Expected values are the law's worked matches (examples.json SJM2, SJM4)."""

import copy
import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError, parse_archive
from scoring.engine.standings import compute_standings
from scoring.games.shengji import shengji_match
from scoring.models import Deal, Event
from scoring.results.standings import event_standings
from scoring.results.standings_json import standings_json
from tests.archives import SHENGJI, game_examples, shengji_archive, shengji_match_deals

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(SHENGJI)


def test_each_tables_deals_are_one_match_stored_with_the_state_they_were_played_from():
    event = import_archive(shengji_archive())
    assert event.game == SHENGJI and event.kind == "pairs" and event.match_length == 4
    deals = [d.game_data for d in Deal.objects.filter(table__number=1).order_by("board")]
    assert "state" not in deals[0] and deals[0]["declarer"] == "NS"
    options = EXAMPLES["SJM2"]["match_options"]
    result = shengji_match(deals, options)  # what was stored is the law's match, state by state
    expected = EXAMPLES["SJM2"]["expected"]
    assert (result["state"], result["winner"], result["finished"]) == (
        expected["state"],
        expected["winner"],
        expected["finished"],
    )


def test_the_archive_round_trips_deal_for_deal():
    event = import_archive(shengji_archive())
    exported = export_archive(event)
    assert exported["event"]["game"] == SHENGJI
    assert exported["event"]["options"] == {"start_level": 1, "target": None, "deals": 4}
    written = exported["rounds"][0]["matches"][0]["deals"]
    assert [deal["points"] for deal in written] == [deal["points"] for deal in EXAMPLES["SJM2"]["match"]]
    assert written[0]["declarer"] == "NS" and written[2]["state"] == {"declarer": "NS", "levels": {"NS": 4, "EW": 1}}
    again = copy.deepcopy(exported)
    again["event"]["slug"] = "t-sj-copy"
    copied = import_archive(json.loads(json.dumps(again)))
    second = export_archive(copied)
    second["event"]["slug"] = exported["event"]["slug"]
    assert second == exported
    assert standings_json(copied)["rows"] == standings_json(event)["rows"]


def test_the_parsed_archive_ranks_as_the_database_does():
    archive = shengji_archive()
    parsed = parse_archive(copy.deepcopy(archive))
    plain = compute_standings(parsed.format, parsed.match_results(), parsed.entrant_ids())
    stored = event_standings(import_archive(archive))
    figures = [(r.id, r.rank, r.match_points, r.score_difference) for r in plain]
    assert figures == [(r.id, r.rank, r.match_points, r.score_difference) for r in stored]
    assert figures[0] == ("A", 1, 2, 4)  # SJM2: NS at 5 against A, 2 场分, 4 levels ahead


@pytest.mark.parametrize(
    ("change", "code"),
    [
        # A state given that is not the one the match reached (M1).
        (lambda deals: deals[1].update(state={"declarer": "EW", "levels": {"NS": 1, "EW": 1}}), "state_mismatch"),
        # A board missing before a later one: the state cannot be carried.
        (lambda deals: deals.pop(1), None),
        # No 台上 on the first deal (V2).
        (lambda deals: deals[0].pop("declarer"), "missing_key"),
    ],
)
def test_a_table_that_is_not_one_match_is_refused_whole(change, code):
    deals = shengji_match_deals("SJM2")
    change(deals)
    with pytest.raises(ArchiveError) as refused:
        import_archive(shengji_archive(table_one=deals))
    if code:
        assert f"[{code}]" in str(refused.value)
    assert not Event.objects.exists()


def test_a_deal_after_the_match_ended_is_refused():
    match = [{k: v for k, v in deal.items() if k != "game"} for deal in EXAMPLES["SJM4"]["match"]]
    deals = [{"board": board, **deal} for board, deal in enumerate(match, start=1)]
    options = {"start_level": 12, "target": 13, "deals": None}
    with pytest.raises(ArchiveError) as refused:
        import_archive(shengji_archive(table_one=deals, table_two=[], options=options))
    assert f"[{EXAMPLES['SJM4']['expected']['error']['code']}]" in str(refused.value)


# A match played to passing K that time stopped: NS 4, EW 1 after three deals (§2.3 by hand:
# 40 from A, S2; 80, S3; 110, S4), and one of a single deal (NS 3, EW 1).
TO_THE_TARGET = {"start_level": 1, "target": 13, "deals": None}
CUT_SHORT = [{"board": 1, "declarer": "NS", "points": 40}, {"board": 2, "points": 80}, {"board": 3, "points": 110}]


def cut_short(status=None, rulings=()):
    archive = shengji_archive(
        table_one=copy.deepcopy(CUT_SHORT), table_two=copy.deepcopy(CUT_SHORT[:1]), options=TO_THE_TARGET, boards=40
    )
    if status:
        archive["rounds"][0]["status"] = status
    for match, ruling in zip(archive["rounds"][0]["matches"], rulings, strict=False):
        match["ruling"] = ruling
    return archive


def test_the_chief_arbiters_ruling_round_trips_and_decides_the_match():
    rulings = [
        {"outcome": "EW", "reason": "规程第 5 条：时间到时台下一方胜"},
        {"outcome": "as_it_stands", "reason": "时间到"},
    ]
    event = import_archive(cut_short(rulings=rulings))
    assert event.rounds.get().status == "official"  # every match has its result: the ruling's
    stored = {t.number: t.match_ruling for t in event.rounds.get().tables.all()}
    assert stored[1] == {**rulings[0], "deals": 3} and stored[2] == {**rulings[1], "deals": 1}
    exported = export_archive(event)
    assert [m["ruling"] for m in exported["rounds"][0]["matches"]] == rulings
    again = copy.deepcopy(exported)
    again["event"]["slug"] = "t-sj-ruled"
    copied = import_archive(json.loads(json.dumps(again)))
    second = export_archive(copied)
    second["event"]["slug"] = exported["event"]["slug"]
    assert second == exported
    rows = {row.id: (row.match_points, row.score_difference) for row in event_standings(copied)}
    assert rows["A"] == (0, 3) and rows["B"] == (2, -3)  # ruled for EW though NS stood higher
    assert rows["C"] == (2, 2)  # as it stands: NS at 3 against A
    parsed = parse_archive(copy.deepcopy(exported))
    plain = compute_standings(parsed.format, parsed.match_results(), parsed.entrant_ids())
    assert {row.id: (row.match_points, row.score_difference) for row in plain} == rows


def test_an_unfinished_match_without_a_ruling_has_no_result_yet():
    # Its round is in play (no result yet), and a round given as published is refused: the site
    # publishes no round with a match neither finished nor ruled on.
    assert import_archive(cut_short()).rounds.get().status == "in_play"
    with pytest.raises(ArchiveError) as refused:
        import_archive(cut_short(status="official", rulings=[{"outcome": "draw", "reason": "时间到"}]))
    assert refused.value.code == "unruled_match" and "2号桌" in str(refused.value)


@pytest.mark.parametrize(
    "ruling",
    [
        {"outcome": "draw"},  # no reason
        {"outcome": "N", "reason": "时间到"},  # not an outcome of 升级
    ],
)
def test_a_ruling_the_site_would_not_take_is_refused(ruling):
    with pytest.raises(ArchiveError) as refused:
        import_archive(cut_short(rulings=[ruling]))
    assert "[bad_ruling]" in str(refused.value)


def test_a_ruling_on_a_match_that_ended_by_itself_is_refused():
    archive = shengji_archive()  # SJM2: four deals of four, NS win
    archive["rounds"][0]["matches"][0]["ruling"] = {"outcome": "draw", "reason": "时间到"}
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert refused.value.code == "bad_ruling"
