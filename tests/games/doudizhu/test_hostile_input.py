"""Any value anywhere in a deal is the game's refusal with one of the law's codes, never another
exception: wrong types, huge integers, booleans for integers, nested junk."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.doudizhu import SEATS, DealError, read_deal, score_deal, score_match
from tests.conftest import scaled_examples
from tests.games.hostile import UNPRINTABLE, assert_refusal, json_values, nested_list, put

from .strategies import played_deals, tian_deals

CODES = {
    "bad_json",
    "unknown_game",
    "bad_option",
    "bad_tian",
    "unknown_seat",
    "duplicate_seat",
    "tian_with_play",
    "missing_key",
    "passed_out",
    "bad_bid",
    "bad_open",
    "grab_is_open",
    "bad_feidan",
}

hostile_values = json_values(
    ["N", "E", "S", "W", "n", " N", "grab", "pass", "add", "once", "bengbu-doudizhu", ""],
    [0, 1, 2, 3, 4, 5, 6, 1000, 1001, -1, 2.0, True, False],
)
PATHS = [
    ("game",),
    ("options",),
    ("options", "feidan_stack"),
    ("options", "feidan_reversal"),
    ("options", "tianzha_points"),
    ("options", "tianzun_points"),
    ("options", "deals_per_match"),
    ("tianzha",),
    ("tianzun",),
    ("landlord",),
    ("bid",),
    ("open",),
    ("first_out",),
    ("feidan",),
    ("feidan", "N"),
    ("feidan", "E"),
    ("feidan", "X"),
]


def assert_refused_or_scored(deal):
    try:
        result = score_deal(deal)
    except DealError as error:
        assert_refusal(error, CODES)
        assert read_deal(deal) == (None, [error])
        return
    assert set(result["scores"]) == set(SEATS) and sum(result["scores"].values()) == 0
    json.dumps(result, ensure_ascii=False)


@settings(max_examples=scaled_examples(600))
@given(
    played_deals() | tian_deals(), st.lists(st.tuples(st.sampled_from(PATHS), hostile_values), min_size=1, max_size=3)
)
def test_a_wrong_value_anywhere_is_a_coded_refusal_never_an_exception(deal, changes):
    for path, value in changes:
        put(deal, path, value)
    assert_refused_or_scored(deal)


@given(hostile_values)
def test_a_whole_deal_of_junk_is_a_coded_refusal(value):
    assert_refused_or_scored(value)


@pytest.mark.parametrize(
    "deal",
    [
        {"landlord": "N", "bid": UNPRINTABLE, "first_out": "N"},
        {"landlord": UNPRINTABLE, "bid": 1, "first_out": "N"},
        {"landlord": "N", "bid": 1, "first_out": "N", "feidan": {"E": UNPRINTABLE}},
        {"landlord": "N", "bid": 1, "first_out": "N", "options": {"tianzha_points": UNPRINTABLE}},
        {"landlord": "N", "bid": 1, "first_out": "N", "options": {UNPRINTABLE: 1}},
        {"tianzha": [UNPRINTABLE]},
        {"tianzun": UNPRINTABLE},
        {"game": UNPRINTABLE},
        {"landlord": nested_list(50_000, "N"), "bid": 1, "first_out": "N"},
        {"landlord": "N", "bid": 1, "first_out": "N", "feidan": {"N": 2**63, "E": -(2**63)}},
        {"landlord": "N", "bid": 1, "first_out": "N", "feidan": {1: 1}},
        {"landlord": "N", "bid": 1, "first_out": "N", "feidan": {("N",): 1}},
        {"landlord": "N", "bid": 1, "first_out": "N", "options": {("feidan_stack",): "add"}},
        {"landlord": "N", "bid": 1, "first_out": "N", "open": float("nan")},
        {"landlord": "N", "bid": float("inf"), "first_out": "N"},
        {"landlord": "N", "bid": [1], "first_out": "N"},
        {"landlord": "N", "bid": {"grab": True}, "first_out": "N"},
        {"tianzha": "NESW"},
        {"tianzha": [True]},
    ],
)
def test_python_callers_hostile_values_are_refused(deal):
    with pytest.raises(DealError) as refused:
        score_deal(deal)
    assert_refusal(refused.value, CODES)


def test_bools_are_not_integers_and_integers_not_bools():
    base = {"landlord": "N", "bid": 1, "first_out": "N"}
    cases = [
        ({**base, "bid": True}, "bad_bid"),
        ({**base, "feidan": {"E": False}}, "bad_feidan"),
        ({**base, "open": 0}, "bad_open"),
        ({**base, "options": {"tianzha_points": True}}, "bad_option"),
        ({**base, "options": {"feidan_reversal": 0}}, "bad_option"),
    ]
    for deal, code in cases:
        with pytest.raises(DealError) as refused:
            score_deal(deal)
        assert refused.value.code == code


@given(st.lists(hostile_values, max_size=3) | hostile_values)
def test_a_match_of_junk_is_a_coded_refusal(deals):
    try:
        score_match(deals)
    except DealError as error:
        assert_refusal(error, CODES | {"match_over"})
