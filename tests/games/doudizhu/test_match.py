"""A match at a table (law §1.1, §0 standings, D-B9, D-B10): deals_per_match deals, the totals,
the winners, table points and what goes into the standings."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games.doudizhu import (
    DOUDIZHU,
    DealError,
    first_bidder,
    match_units,
    score_match,
    standing_points,
    table_points,
)
from scoring.games.doudizhu.match import match_error_json

WIN = {"landlord": "N", "bid": 1, "first_out": "N"}  # N +3, the others −1
LOSS = {"landlord": "E", "bid": 2, "open": True, "first_out": "S"}  # E −12, the others +4


def test_the_first_bidder_moves_one_seat_a_deal_so_eight_deals_give_each_seat_two():
    order = [first_bidder(index) for index in range(8)]
    assert order == ["N", "E", "S", "W", "N", "E", "S", "W"]
    assert [first_bidder(index, first="W") for index in range(3)] == ["W", "N", "E"]


def test_table_points_are_two_per_lower_opponent_and_one_per_equal():
    assert table_points({"N": 10, "E": -5, "S": -5, "W": 0}) == {"N": 6, "E": 1, "S": 1, "W": 4}
    assert table_points({"N": 0, "E": 0, "S": 0, "W": 0}) == {"N": 3, "E": 3, "S": 3, "W": 3}


@given(st.fixed_dictionaries({seat: st.integers(-50, 50) for seat in "NESW"}))
def test_table_points_always_share_twelve(totals):
    points = table_points(totals)
    assert sum(points.values()) == 12
    assert all(points[a] > points[b] for a in "NESW" for b in "NESW" if totals[a] > totals[b])


def test_a_match_of_eight_deals_is_finished_with_its_winners():
    match = score_match([WIN] * 5 + [LOSS] * 3)
    assert match["deals_played"] == 8 and match["finished"]
    assert match["totals"] == {"N": 15 + 12, "E": -5 - 36, "S": -5 + 12, "W": -5 + 12}
    assert match["winners"] == ["N"]
    assert match["table_points"] == {"N": 6, "E": 0, "S": 3, "W": 3}
    assert match["standings"] == {seat: {"points": match["totals"][seat], "tiebreak": None} for seat in "NESW"}
    assert len(match["results"]) == 8


def test_an_unfinished_match_has_no_winner_yet():
    match = score_match([WIN, WIN])
    assert not match["finished"] and match["winners"] == [] and match["deals_played"] == 2


def test_equal_totals_share_the_win():
    match = score_match([WIN], DOUDIZHU.rules(deals_per_match=1))
    assert match["winners"] == ["N"]
    tied = score_match([{"tianzha": ["N", "S"]}], DOUDIZHU.rules(deals_per_match=1))
    assert tied["winners"] == ["N", "S"]


def test_table_points_standings_break_ties_on_the_total():
    rules = DOUDIZHU.rules("bengbu-doudizhu", {"standings": "table_points", "deals_per_match": 2})
    match = score_match([WIN, LOSS], rules)
    assert match["standings"]["N"] == {"points": match["table_points"]["N"], "tiebreak": match["totals"]["N"]}
    assert standing_points({"N": 1, "E": 1, "S": -1, "W": -1}, "table_points")["N"] == {"points": 5, "tiebreak": 1}


def test_a_deal_beyond_the_match_is_refused():
    with pytest.raises(DealError) as refused:
        score_match([WIN] * 9)
    # The ninth deal, counted from 1 as every game's match error counts (its board number).
    assert refused.value.code == "match_over" and refused.value.deal == 9
    assert match_error_json(refused.value)["deal"] == 9


def test_an_invalid_deal_is_refused_with_its_position_and_own_code():
    with pytest.raises(DealError) as refused:
        score_match([WIN, WIN, {"bid": "pass"}])
    error = refused.value
    assert error.code == "passed_out" and error.deal == 3 and "第 3 副" in error.message
    assert match_error_json(error) == {"error": {"code": "passed_out", "message": error.message}, "deal": 3}


def test_the_event_rules_apply_to_every_deal_of_the_match():
    rules = DOUDIZHU.rules(options={"tianzha_points": 10})
    assert score_match([{"tianzha": ["W"]}], rules)["totals"]["W"] == 30


def test_match_units_group_a_tables_deals_by_deals_per_match():
    scores = [{"N": 3, "E": -1, "S": -1, "W": -1}] * 10
    units = match_units(scores, 8)
    assert [(unit.number, unit.deals, unit.finished) for unit in units] == [
        (1, list(range(8)), True),
        (2, [8, 9], False),
    ]
    assert units[0].totals == {"N": 24, "E": -8, "S": -8, "W": -8} and units[0].winners == ["N"]
    assert units[0].table_points == {"N": 6, "E": 2, "S": 2, "W": 2}
    assert [unit.deals for unit in DOUDIZHU.match_units(scores, None)] == [unit.deals for unit in units]
