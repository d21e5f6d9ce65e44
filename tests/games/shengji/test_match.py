"""A 升级 match (law §2.1 M1–M4): the state threaded deal by deal equals the match function,
and the match ends exactly once, at the target or after its deals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import get_game
from scoring.games.shengji import (
    DealError,
    Rules,
    match_outcome,
    match_standing,
    read_event_options,
    shengji_match,
)
from tests.games.shengji.strategies import match_deals, match_options

SHENGJI = get_game("shengji")


def oracle_end(deals, options):
    """The number of deals after which the match ends (None: it goes on), by the law's words."""
    start = options["start_level"]
    levels = {"NS": start, "EW": start}
    declarer = deals[0]["declarer"]
    for played, deal in enumerate(deals, 1):
        p = deal["points"]
        other = "EW" if declarer == "NS" else "NS"
        if p < 50:
            levels[declarer] += 2
        elif p < 100:
            levels[declarer] += 1
        elif p < 120:
            declarer = other
        else:
            declarer = other
            levels[declarer] += 1
        if options["target"] is not None and max(levels.values()) > options["target"]:
            return played
        if options["deals"] is not None and played >= options["deals"]:
            return played
    return None


@given(match_deals(), match_options())
def test_a_match_threaded_deal_by_deal_is_the_match_function(deals, options):
    rules = SHENGJI.rules("shengji", options)
    whole = shengji_match(deals, options)
    state, finished = None, False
    for played, deal in enumerate(deals, 1):
        if finished:
            assert whole["error"]["code"] == "match_over" and whole["error"]["deal"] == played
            return
        given_deal = deal if state is None else {**deal, "state": state}
        result = SHENGJI.score_deal(given_deal, rules)
        state = result["state"]
        finished, winner = match_outcome(state, played, rules)
        assert shengji_match(deals[:played], options) == {
            "state": state,
            "ranks": result["ranks"],
            "deals_played": played,
            "finished": finished,
            "winner": winner,
        }
    assert whole == shengji_match(deals, rules) and "error" not in whole
    assert whole["state"] == state and whole["deals_played"] == len(deals)


@given(match_deals(max_size=30), match_options())
def test_the_match_ends_exactly_once_at_the_target_or_after_its_deals(deals, options):
    end = oracle_end(deals, options)
    ends = [played for played in range(1, len(deals) + 1) if shengji_match(deals[:played], options).get("finished")]
    assert ends == ([] if end is None else [end])
    for played in range(1, len(deals) + 1):
        result = shengji_match(deals[:played], options)
        if end is not None and played > end:
            assert result["error"] == {**result["error"], "code": "match_over", "deal": end + 1}
        else:
            assert result["finished"] == (played == end)
            assert (result["winner"] is None) == (played != end)


@given(match_deals(), match_options())
def test_the_winner_is_the_side_above_the_target_or_the_higher_level(deals, options):
    result = shengji_match(deals, options)
    if "error" in result or not result["finished"]:
        return
    levels = result["state"]["levels"]
    if options["target"] is not None and max(levels.values()) > options["target"]:
        assert levels[result["winner"]] > options["target"]
    else:
        expected = "draw" if levels["NS"] == levels["EW"] else max(levels, key=levels.get)
        assert result["winner"] == expected


def test_a_later_deal_may_carry_the_state_the_match_reached_and_no_other():
    first = {"declarer": "NS", "points": 40}
    reached = {"declarer": "NS", "levels": {"NS": 3, "EW": 1}}
    assert shengji_match([first, {"state": reached, "points": 80}])["deals_played"] == 2
    assert shengji_match([first, {"state": reached, "declarer": "NS", "points": 80}])["deals_played"] == 2
    wrong = {"declarer": "NS", "levels": {"NS": 4, "EW": 1}}
    assert shengji_match([first, {"state": wrong, "points": 80}])["error"]["code"] == "state_mismatch"
    assert shengji_match([first, {"declarer": "EW", "points": 80}])["error"]["code"] == "declarer_mismatch"
    refused = shengji_match([first, {"state": {"declarer": "NS"}, "points": 80}])
    assert refused["error"]["code"] == "bad_state" and refused["error"]["deal"] == 2


def test_the_first_deal_of_a_match_carries_no_state_and_takes_the_match_s_start_level():
    state = {"declarer": "NS", "levels": {"NS": 1, "EW": 1}}
    refused = shengji_match([{"state": state, "points": 40}])
    assert refused["error"]["code"] == "state_mismatch" and refused["error"]["deal"] == 1
    assert shengji_match([{"points": 40}])["error"]["code"] == "missing_key"
    deal = {"declarer": "EW", "points": 40, "options": {"start_level": 5}}
    assert shengji_match([deal], {"start_level": 2})["state"]["levels"] == {"NS": 2, "EW": 4}
    bad = {"declarer": "EW", "points": 40, "options": {"start_level": 99}}
    assert shengji_match([bad])["error"]["code"] == "bad_option"


def test_before_any_deal_the_match_has_no_state():
    assert shengji_match([], {"start_level": 2}) == {
        "state": None,
        "ranks": {"NS": "2", "EW": "2"},
        "deals_played": 0,
        "finished": False,
        "winner": None,
    }


@pytest.mark.parametrize(
    ("options", "code"),
    [
        (None, None),
        ({}, None),
        ({"target": None, "deals": 8}, None),
        ({"target": None}, "bad_option"),  # M4: at least one
        ({"target": None, "deals": None}, "bad_option"),
        ({"target": 2, "start_level": 3}, "bad_option"),  # target from start_level
        ({"target": 3, "start_level": 3}, None),
        ({"target": 1001}, "bad_option"),
        ({"target": True}, "bad_option"),
        ({"deals": 0}, "bad_option"),
        ({"deals": 2**70}, None),
        ({"start_level": 14}, "bad_option"),
        ({"start_level": None}, None),  # null is absent: the default
        ({"rounds": 3}, "bad_option"),
        ([], "bad_option"),
        ("x", "bad_option"),
    ],
)
def test_match_options(options, code):
    result = shengji_match([{"declarer": "NS", "points": 40}], options)
    assert result.get("error", {}).get("code") == code
    if code:
        assert "deal" not in result["error"]
        with pytest.raises(DealError):
            SHENGJI.rules("shengji", options)


def test_the_event_s_options_are_plain_data_that_read_back():
    rules = SHENGJI.rules("shengji", {"target": None, "deals": 6}, start_level=2)
    assert rules == Rules(start_level=2, target=None, deals=6)
    assert read_event_options(rules.options()) == rules
    assert SHENGJI.rules("shengji") == Rules(start_level=1, target=13, deals=None)
    with pytest.raises(DealError) as refused:
        SHENGJI.rules("huapai")
    assert refused.value.code == "unknown_ruleset"


@given(st.lists(st.sampled_from([0, 40, 80, 110, 135]), min_size=1, max_size=6))
def test_a_list_that_is_not_deals_is_refused_by_position(points):
    deals = [{"declarer": "NS", "points": points[0]}, *({"points": p} for p in points[1:]), "junk"]
    result = shengji_match(deals, {"target": None, "deals": 100})
    assert result["error"] == {**result["error"], "code": "bad_json", "deal": len(deals)}
    assert shengji_match("deals")["error"]["code"] == "bad_json"


def test_a_finished_match_gives_each_side_its_match_points_and_level_difference():
    run = [{"declarer": "NS", "points": 40}, *({"points": p} for p in (80, 110, 135))]
    won = shengji_match(run, {"target": None, "deals": 4})
    assert match_standing(won) == {
        "NS": {"match_points": 2, "level_difference": 4},
        "EW": {"match_points": 0, "level_difference": -4},
    }
    drawn = shengji_match([{"declarer": "NS", "points": 60}, {"points": 130}], {"target": None, "deals": 2})
    assert match_standing(drawn) == {
        "NS": {"match_points": 1, "level_difference": 0},
        "EW": {"match_points": 1, "level_difference": 0},
    }
    assert match_standing(shengji_match(run)) is None  # not finished: first to pass K
    assert match_standing(shengji_match([{"points": 1}])) is None
    assert SHENGJI.match_standing(won) == match_standing(won)
