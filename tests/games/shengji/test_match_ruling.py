"""What a chief arbiter's ruling means for an unfinished 升级 match, asked of the game through
`scoring.games.stored` (pure): "as it stands" (the levels reached decide, equal levels drawn),
"drawn", or the side the regulations name; the standings take it, the match then needs only the
deals it had, and its words say how it was ruled and why. A finished match keeps its own result.

Deals worked by hand from §2.3: 40 from A (S2, NS to 3), 80 (S3, NS to 4), 110 (S4, EW on 台上)."""

import pytest

from scoring.engine.standings import Format, MatchResult, TableResult, compute_standings
from scoring.games import get_game
from scoring.games.refusals import DealError
from scoring.games.rulings import read_ruling, ruling_outcomes
from scoring.games.shengji import shengji_match
from scoring.games.stored import boards_played_out, table_outcome, table_summary

SHENGJI = get_game("shengji")
RULES = SHENGJI.rules(options={"start_level": 1, "target": 13, "deals": None})
MATCH = [{"declarer": "NS", "points": 40}, {"points": 80}, {"points": 110}]  # NS 4, EW 1
LEVEL = [{"declarer": "NS", "points": 110}]  # S4 at once: both at A, EW on 台上


def ruling(outcome, reason="时间到"):
    return read_ruling(SHENGJI, {"outcome": outcome, "reason": reason}, 3)


@pytest.mark.parametrize(
    ("deals", "outcome", "winner"),
    [
        (MATCH, "as_it_stands", "NS"),
        (LEVEL, "as_it_stands", "draw"),  # equal levels as it stands: drawn
        (MATCH, "draw", "draw"),
        (MATCH, "EW", "EW"),  # the regulations may name the side behind
    ],
)
def test_a_ruled_match_is_over_with_the_winner_the_ruling_gives(deals, outcome, winner):
    assert table_outcome(SHENGJI, RULES, deals, 40)[2:] == (None, False)  # unfinished without one
    ns, ew, ruled_winner, finished = table_outcome(SHENGJI, RULES, deals, 40, ruling(outcome))
    assert (ruled_winner, finished) == (winner, True)
    assert (ns, ew) == ((4, 1) if deals is MATCH else (1, 1))  # the levels reached still count


def test_the_pure_standings_take_the_ruled_outcome():
    table = TableResult(ns="A", ew="B", deal_count=3)
    table.set_outcome(table_outcome(SHENGJI, RULES, MATCH, 40, ruling("EW")))
    rows = compute_standings(Format(length=40, game="shengji"), [MatchResult(round=1, tables=[table])], ["A", "B"])
    figures = {row.id: (row.match_points, row.score_difference) for row in rows}
    assert figures == {"A": (0, 3), "B": (2, -3)}


def test_a_ruled_match_needs_only_the_deals_it_had():
    assert boards_played_out(SHENGJI, RULES, MATCH, 40) == 4  # going on: the deals played and the next
    assert boards_played_out(SHENGJI, RULES, MATCH, 40, ruling("as_it_stands")) == 3


def test_a_match_to_a_target_in_progress_counts_the_deals_played_and_the_next():
    """Never the round's most (40): the match may end on any deal, so the grid, the phones, the
    count still to confirm and the checklist want the next deal, no more."""
    assert SHENGJI.boards_in_play(RULES, None, 40) == 1  # before the first deal
    assert boards_played_out(SHENGJI, RULES, [], 40) == 1
    assert boards_played_out(SHENGJI, RULES, MATCH[:1], 40) == 2
    assert boards_played_out(SHENGJI, RULES, MATCH, 3) == 3  # never past the round's most
    # Both a target and a number of deals (M4): it may still end sooner, so the same.
    both = SHENGJI.rules(options={"start_level": 1, "target": 13, "deals": 10})
    assert boards_played_out(SHENGJI, both, MATCH, 10) == 4
    # A number of deals and no target (M3): the match has that many deals, all counted.
    fixed = SHENGJI.rules(options={"start_level": 1, "target": None, "deals": 10})
    assert boards_played_out(SHENGJI, fixed, MATCH, 10) == 10
    assert boards_played_out(SHENGJI, fixed, [], 10) == 10


def test_a_match_that_finished_by_itself_keeps_its_own_result():
    to_three = SHENGJI.rules(options={"start_level": 1, "target": 3, "deals": None})
    assert shengji_match(MATCH[:2], to_three)["winner"] == "NS"
    assert table_outcome(SHENGJI, to_three, MATCH[:2], 40, ruling("EW"))[2:] == ("NS", True)


def test_the_match_in_words_says_how_it_was_ruled_and_why():
    words = str(table_summary(SHENGJI, RULES, MATCH, ruling("as_it_stands", "规程第 5 条")))
    assert words == "NS 打4（4） · EW 打A（1） · 3 副，未打完 · 裁判长裁定：按当时级数 南北(NS) 胜（理由：规程第 5 条）"
    assert "判为平局" in str(table_summary(SHENGJI, RULES, MATCH, ruling("draw")))
    assert "按赛事规程判 东西(EW) 胜" in str(table_summary(SHENGJI, RULES, MATCH, ruling("EW")))


@pytest.mark.parametrize(
    "raw",
    [None, {"outcome": "draw"}, {"outcome": "draw", "reason": "  "}, {"outcome": "N", "reason": "x"}, {"reason": "x"}],
)
def test_a_ruling_needs_an_outcome_of_the_game_and_a_reason(raw):
    with pytest.raises(DealError) as refused:
        read_ruling(SHENGJI, raw, 3)
    assert refused.value.code == "bad_ruling"
    assert ruling_outcomes(SHENGJI) == ("as_it_stands", "draw", "NS", "EW")


def test_a_deal_after_the_match_ended_is_refused_in_deals_not_games():
    to_three = {"start_level": 1, "target": 3, "deals": None}
    refused = shengji_match([*MATCH[:2], {"points": 40}], to_three)["error"]
    assert refused["code"] == "match_over" and refused["deal"] == 3
    assert "第 2 副结束" in refused["message"] and "第 3 副不能再记" in refused["message"]
    assert "局" not in refused["message"]
