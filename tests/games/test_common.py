"""§0 of the games' law in one place (scoring.games.common) and how a message names a value
(scoring.games.refusals): the standings option and its table points, a table's deals grouped
into matches, an arbiter's adjusted score for the game's seats."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import GAMES
from scoring.games.common import ADJUSTED_LIMIT, STANDINGS, DealsMatch, adjusted_scores, group_deals, table_points
from scoring.games.refusals import DealError, preview, shown
from tests.games.hostile import UNPRINTABLE, nested_list

FOUR = ("N", "E", "S", "W")
THREE = ("E", "S", "W")


def test_the_standings_option_is_one_for_the_games_that_have_it():
    having = [game for game in GAMES.values() if "standings" in game.options]
    # The sources' games that rank individuals by it, and the conformance suite's fifth game.
    assert sorted(game.id for game in having) == ["bengbu-doudizhu", "jiaodun", "paohuzi"]
    for game in having:
        assert next(option for option in game.option_specs if option.name == "standings") is STANDINGS
    assert (STANDINGS.level, STANDINGS.default, STANDINGS.choices) == ("event", "total", ("total", "table_points"))


@pytest.mark.parametrize(
    ("totals", "points"),
    [
        ({"N": 10, "E": -5, "S": -5, "W": 0}, {"N": 6, "E": 1, "S": 1, "W": 4}),
        ({"N": 0, "E": 0, "S": 0, "W": 0}, {"N": 3, "E": 3, "S": 3, "W": 3}),
        ({"E": 7, "S": -7, "W": 0}, {"E": 4, "S": 0, "W": 2}),
        ({"E": 1, "S": 1, "W": 0}, {"E": 3, "S": 3, "W": 0}),
    ],
)
def test_table_points_are_two_per_lower_opponent_and_one_per_equal_one(totals, points):
    assert table_points(totals) == points


@given(st.sampled_from([FOUR, THREE]).flatmap(lambda seats: st.fixed_dictionaries({s: st.integers() for s in seats})))
def test_table_points_share_two_per_pair_of_players(totals):
    players = len(totals)
    assert sum(table_points(totals).values()) == players * (players - 1)


def test_deals_group_into_matches_of_a_fixed_number_of_deals():
    scores = [{"W": 1, "S": 2, "E": -3}, (4, 0, -4), {"E": 0, "S": 0, "W": 0}]  # a dict by seat, in any order
    matches = group_deals(scores, 2, THREE)
    assert [(m.number, m.deals, m.totals, m.finished) for m in matches] == [
        (1, [0, 1], {"E": 1, "S": 2, "W": -3}, True),
        (2, [2], {"E": 0, "S": 0, "W": 0}, False),
    ]
    assert matches[0].table_points == {"E": 2, "S": 4, "W": 0} and type(matches[0]) is DealsMatch
    assert group_deals([], 8, FOUR) == []
    with pytest.raises(ValueError):
        group_deals([(1, 2)], 2, THREE)  # a tuple names every seat


def test_an_adjusted_score_gives_every_seat_of_the_table_an_integer_within_the_limit():
    assert adjusted_scores({"W": 3, "E": -1, "S": -2}, THREE) == {"E": -1, "S": -2, "W": 3}
    assert list(adjusted_scores(dict.fromkeys(reversed(FOUR), 0), FOUR)) == list(FOUR)
    assert adjusted_scores(dict.fromkeys(FOUR, ADJUSTED_LIMIT), FOUR)["N"] == ADJUSTED_LIMIT
    for adjusted, seats, named in [
        (None, FOUR, "四个座位"),
        ([1, 2, 3, 4], FOUR, "四个座位"),
        (dict.fromkeys(THREE, 0), FOUR, "四个座位"),
        (dict.fromkeys(FOUR, 0), THREE, "东、南、西三个座位"),
        ({**dict.fromkeys(FOUR, 0), "S": True}, FOUR, "S 的调整分"),
        ({**dict.fromkeys(FOUR, 0), "E": 1.0}, FOUR, "E 的调整分"),
        ({**dict.fromkeys(THREE, 0), "W": -ADJUSTED_LIMIT - 1}, THREE, "W 的调整分"),
    ]:
        with pytest.raises(DealError) as refused:
            adjusted_scores(adjusted, seats)
        assert refused.value.code == "bad_adjusted" and named in refused.value.message


def test_a_message_names_any_value_without_raising():
    assert [preview(value) for value in ("N", 2.0, True, None, [1, 2])] == ["'N'", "2.0", "True", "None", "[1, 2]"]
    assert preview("x" * 100) == "'" + "x" * 38 + "…" and len(preview("x" * 100)) == 40
    assert preview(UNPRINTABLE) == "<int>" and preview(nested_list(100_000)) == "<list>"
    assert [f"{shown(value)!r:.40}" for value in ("N", [1], {}, 2**70)] == ["'N'", "[…]", "{}", "2**70…"]
