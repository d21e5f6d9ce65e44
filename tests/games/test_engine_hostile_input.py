"""Any JSON value anywhere in a deal is an invalid deal with a code, never an exception (deal-json.md)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.huapai import POINT_CARDS, SEATS, read_deal, score_deal
from tests.conftest import scaled_examples
from tests.games.hostile import assert_refusal, json_values, put
from tests.strategies import valid_deals

hostile_values = json_values(["N", "n", " S ", "SQ", "sq", "♤Q", "HT", "shown", "first", "huapai", "online-2deck", ""])
PATHS = [
    ("ruleset",),
    ("options",),
    ("options", "scale"),
    ("options", "normalisation"),
    ("captured",),
    ("captured", "N"),
    ("captured", "X"),
    ("holders",),
    ("holders", "SQ"),
    ("holders", "HA"),
    ("exposed",),
    ("exposed", "SQ"),
    ("exposed", "C10"),
    ("penalties",),
    ("penalties", "N"),
]


@settings(max_examples=scaled_examples(400))
@given(
    valid_deals(ruleset=st.sampled_from(["huapai", "online", "online-2deck"])), st.sampled_from(PATHS), hostile_values
)
def test_a_wrong_value_anywhere_is_a_coded_problem_never_an_exception(deal, path, value):
    put(deal, path, value)
    result, problems = read_deal(deal)
    assert (result is None) == bool(problems)
    for problem in problems:
        assert_refusal(problem)  # a code, a short message, its JSON written
    if result is not None:
        assert set(score_deal(deal)["scores"]) == set(SEATS)


@given(hostile_values)
def test_a_deal_that_is_not_an_object_is_bad_deal(value):
    if isinstance(value, dict):
        return
    _, problems = read_deal(value)
    assert [p.code for p in problems] == ["bad_deal"]


@pytest.mark.parametrize(
    ("deal_change", "code"),
    [
        ({"holders": {"SQ": ["N"]}, "exposed": {"SQ": ["shown"]}}, None),  # a one-copy list is one copy
        ({"holders": {"SQ": ["N", "E"]}}, "bad_deal"),  # one deck has one copy
        ({"holders": {"SQ": {"seat": "N"}}}, "unknown_seat"),
        ({"exposed": {"SQ": {}}, "holders": {"SQ": "N"}}, "bad_exposure"),
        ({"ruleset": {}}, "unknown_ruleset"),
        ({"ruleset": ""}, "unknown_ruleset"),
        ({"ruleset": None}, None),  # null is absent
        ({"penalties": {"N": -100_001}}, "bad_penalty"),
        ({"penalties": {"N": -3_000_000_000}}, "bad_penalty"),
        ({"penalties": {"N": -100_000}}, None),
        ({"penalties": {"N": -5.0}}, "bad_penalty"),
        ({"penalties": {"n ": -5}}, None),  # seat keys: any case, spaces ignored
    ],
)
def test_decided_spellings_and_bounds(deal_change, code):
    deal = {"captured": {"N": list(POINT_CARDS), "E": [], "S": [], "W": []}, **deal_change}
    _, problems = read_deal(deal)
    assert [p.code for p in problems][:1] == ([code] if code else [])


@pytest.mark.parametrize("spelling", ["SQ ", " sq", "♤Q", "♠q", "Sq"])
def test_lenient_card_spellings_are_accepted_on_purpose(spelling):
    cards = [card for card in POINT_CARDS if card != "SQ"]
    deal = {"captured": {"N": cards, "E": [spelling], "S": [], "W": []}}
    assert score_deal(deal)["raw"]["E"] == -100


def test_lower_case_seat_keys_are_accepted_on_purpose():
    deal = {"captured": {"n": list(POINT_CARDS), "e": [], "s": [], "w": []}}
    assert score_deal(deal)["raw"]["N"] > 0


def test_a_seat_given_twice_is_refused():
    deal = {"captured": {"N": list(POINT_CARDS), "n": [], "E": [], "S": [], "W": []}}
    _, problems = read_deal(deal)
    assert [p.code for p in problems] == ["bad_deal"]
