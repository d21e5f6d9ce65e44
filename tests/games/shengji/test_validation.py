"""Reading a 升级 deal: G1–G3 then V1–V3 (law §0, §2.2), the first failure's code winning; any
JSON value anywhere is a refusal with a code, never another exception."""

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.scorefile import score_stream
from scoring.games import get_game
from scoring.games.shengji import DealError, read_deal, score_deal
from scoring.games.shengji.deal import check_deal, quick_read
from tests.conftest import scaled_examples
from tests.games.hostile import assert_refusal, json_values, nested_list, put
from tests.games.shengji.strategies import first_deals, later_deals, valid_deals

SHENGJI = get_game("shengji")
STATE = {"declarer": "NS", "levels": {"NS": 3, "EW": 1}}


def code_of(deal):
    try:
        score_deal(deal)
    except DealError as error:
        assert error.message
        return error.code
    return None


# Each defect: (the law's order, code, a word its message names, the key it changes, change).
# A later deal (with a state) and a first deal (without) take different defects.
def _set(key, value):
    def change(deal):
        deal[key] = value

    return change


def _drop(key):
    def change(deal):
        deal.pop(key, None)

    return change


def _mismatch(deal):
    """A declarer other than the state's; after a defect of the state itself (which comes first
    in the law's order), any side."""
    state = deal.get("state")
    deal["declarer"] = "EW" if isinstance(state, dict) and state.get("declarer") == "NS" else "NS"


COMMON = [
    (1, "unknown_game", "paohuzi", "game", _set("game", "paohuzi")),
    (2, "bad_option", "start_level", "options", _set("options", {"start_level": 0})),
    (2, "bad_option", "colour", "options", _set("options", {"colour": 1})),
    (2, "bad_option", "options", "options", _set("options", [])),
    (4, "unknown_side", "declarer", "declarer", _set("declarer", "ns")),
    (7, "missing_key", "points", "points", _drop("points")),
    (8, "bad_points", "points", "points", _set("points", 47)),
    (8, "bad_points", "points", "points", _set("points", True)),
    (8, "bad_points", "points", "points", _set("points", 100.0)),
]
LATER = [
    *COMMON,
    (3, "bad_state", "state", "state", _set("state", "NS")),
    (3, "bad_state", "declarer", "state", _set("state", {"declarer": "N", "levels": {"NS": 1, "EW": 1}})),
    (3, "bad_state", "levels", "state", _set("state", {"declarer": "NS", "levels": {"NS": 1}})),
    (3, "bad_state", "levels", "state", _set("state", {"declarer": "NS", "levels": {"NS": 1, "EW": True}})),
    (3, "bad_state", "levels", "state", _set("state", {"declarer": "NS", "levels": {"NS": 1, "EW": 1, "N": 1}})),
    (5, "declarer_mismatch", "declarer", "declarer", _mismatch),
]
FIRST = [*COMMON, (6, "missing_key", "declarer", "declarer", _drop("declarer"))]


def _message(deal):
    try:
        score_deal(deal)
    except DealError as error:
        return error.message
    raise AssertionError("the deal was accepted")


@given(st.data())
def test_each_defect_alone_gives_exactly_its_own_code(data):
    later = data.draw(st.booleans())
    deal = data.draw(later_deals() if later else first_deals())
    assert code_of(deal) is None
    _, code, word, _, change = data.draw(st.sampled_from(LATER if later else FIRST))
    change(deal)
    assert code_of(deal) == code
    assert word in _message(deal)
    result, problems = read_deal(deal)
    assert result is None and [problem.code for problem in problems] == [code]


@given(st.data())
def test_of_two_defects_the_first_in_the_law_s_order_wins(data):
    later = data.draw(st.booleans())
    deal = data.draw(later_deals() if later else first_deals())
    defects = LATER if later else FIRST
    one = data.draw(st.sampled_from(defects))
    two = data.draw(st.sampled_from([defect for defect in defects if defect[3] != one[3]]))
    first, second = sorted((one, two), key=lambda defect: defect[0])
    for defect in data.draw(st.permutations([one, two])):
        defect[4](deal)
    assert code_of(deal) == first[1]
    assert first[2] in _message(deal)
    assert first[0] < second[0]


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ([], "bad_json"),
        ("{}", "bad_json"),
        (None, "bad_json"),
        ({"game": "huapai", "declarer": "NS", "points": 40}, "unknown_game"),
        ({"game": None, "declarer": "NS", "points": 40}, None),  # null counts as absent
        ({"declarer": "NS", "points": 40, "options": None}, None),
        ({"declarer": "NS", "points": 40, "options": {"start_level": None}}, None),
        ({"declarer": "NS", "points": 40, "options": {"target": 13}}, "bad_option"),  # an event option
        ({"declarer": "NS", "points": 40, "options": {"start_level": True}}, "bad_option"),
        ({"declarer": "NS", "points": 40, "options": {"start_level": 13}}, None),
        ({"state": None, "declarer": "NS", "points": 40}, None),
        ({"state": {"declarer": "NS", "levels": {"NS": 1, "EW": 1, "N": None}}, "points": 0}, None),
        ({"state": {"declarer": "NS", "levels": {"NS": 1, "EW": 1}, "note": "x"}, "points": 0}, None),
        ({"state": {"declarer": "NS", "levels": {"NS": 1_000_000, "EW": 1}}, "points": 0}, None),
        ({"state": {"declarer": "NS", "levels": {"NS": 1_000_001, "EW": 1}}, "points": 0}, "bad_state"),
        ({"state": {"declarer": "NS", "levels": {"NS": 2**64 - 1, "EW": 1}}, "points": 0}, "bad_state"),
        ({"state": {"declarer": "NS", "levels": {"NS": 3.0, "EW": 1}}, "points": 0}, "bad_state"),
        ({"state": STATE, "declarer": None, "points": 0}, None),
        ({"state": STATE, "declarer": ["NS"], "points": 0}, "unknown_side"),
        ({"state": STATE, "points": None}, "missing_key"),
        ({"state": STATE, "points": -5}, "bad_points"),
        ({"state": STATE, "points": 200}, None),
        ({"state": STATE, "points": "40"}, "bad_points"),
        ({"state": STATE, "points": 40, "board": 7, "table": {"x": 1}}, None),  # keys the law does not define
    ],
)
def test_decided_cases(deal, code):
    assert code_of(deal) == code


hostile_values = json_values(
    ["NS", "EW", "ns", "N", "shengji", "start_level", "levels", "declarer", ""],
    [0, 1, 5, 13, 14, 40, 120, 200, 205, 1_000_000, 2**63, 2**64 - 1],
    key_size=6,
)
PATHS = [
    ("game",),
    ("options",),
    ("options", "start_level"),
    ("options", "x"),
    ("state",),
    ("state", "declarer"),
    ("state", "levels"),
    ("state", "levels", "NS"),
    ("state", "levels", "EW"),
    ("state", "levels", "x"),
    ("declarer",),
    ("points",),
]
CODES = {
    "bad_json",
    "unknown_game",
    "bad_option",
    "bad_state",
    "unknown_side",
    "declarer_mismatch",
    "missing_key",
    "bad_points",
}


def _check_result(result):
    assert set(result["scores"]) == {"N", "E", "S", "W"}
    assert all(type(score) is int for score in result["scores"].values())
    json.dumps(result)


@settings(max_examples=scaled_examples(400))
@given(valid_deals, st.lists(st.tuples(st.sampled_from(PATHS), hostile_values), min_size=1, max_size=3))
def test_a_wrong_value_anywhere_is_a_refusal_never_an_exception(deal, changes):
    for path, value in changes:
        put(deal, path, value)
    try:
        result = score_deal(deal)
    except DealError as error:
        assert_refusal(error, CODES)
    else:
        _check_result(result)
        orjson.dumps(result)


@settings(max_examples=scaled_examples(200))
@given(hostile_values)
def test_anything_given_as_a_whole_deal_is_a_refusal_never_an_exception(value):
    try:
        _check_result(score_deal(value))
    except DealError as error:
        assert_refusal(error, CODES)


@pytest.mark.parametrize(
    "path", [("game",), ("options",), ("options", "start_level"), ("state",), ("declarer",), ("points",)]
)
def test_deeply_nested_junk_is_a_refusal(path):
    deal = {"game": "shengji", "state": dict(STATE), "points": 40}
    put(deal, path, nested_list(1000))
    assert code_of(deal) == {"game": "unknown_game", "options": "bad_option", "state": "bad_state"}.get(
        path[0], "unknown_side" if path == ("declarer",) else "bad_points"
    )


def test_a_deeply_nested_level_is_a_bad_state():
    assert code_of({"state": {"declarer": "NS", "levels": {"NS": nested_list(1000), "EW": 1}}}) == "bad_state"


def _stream(lines):
    written = []
    status = score_stream(iter(lines), written.append)
    return status, [orjson.loads(line) for line in written]


@settings(max_examples=scaled_examples(200))
@given(valid_deals, st.lists(st.tuples(st.sampled_from(PATHS), hostile_values), max_size=3))
def test_a_line_of_the_stream_is_a_result_or_a_refusal(deal, changes):
    for path, value in changes:
        put(deal, path, value)
    try:
        line = orjson.dumps(deal)
    except TypeError:  # beyond 64 bits: not JSON orjson writes (nor reads)
        return
    status, results = _stream([line, b'{"game": "shengji", "declarer": "EW", "points": 0}'])
    assert status == 0 and len(results) == 2
    if deal.get("game") != "shengji":
        return  # another game's line (null: 华牌), or unknown_game: the dispatcher's (below)
    if "error" in results[0]:
        assert results[0]["error"]["code"] in CODES
    else:
        assert results[0]["game"] == "shengji"
        assert results[0] == orjson.loads(orjson.dumps(score_deal(orjson.loads(line))))


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b'{"game": "SHENGJI", "declarer": "NS", "points": 40}', "unknown_game"),
        (b'{"game": 1, "declarer": "NS", "points": 40}', "unknown_game"),
        (b'{"game": ' + b"[" * 1000 + b"]" * 1000 + b"}", "unknown_game"),
        (b'{"game": "shengji", "declarer": "NS", "points": 40, "options": "x"}', "bad_option"),
        (b'{"game": "shengji", "declarer": "NS", "points": 40, "options": {"start_level": 1.0}}', "bad_option"),
        (
            b'{"game": "shengji", "state": {"declarer": "NS", "levels": {"NS": 18446744073709551615, "EW": 1}}}',
            "bad_state",
        ),
        (b'{"game": "shengji", "declarer": "NS", "points": 18446744073709551616}', "bad_points"),
        (b'{"game": "shengji", "declarer": "NS", "points": 40}', None),
    ],
)
def test_the_common_checks_hold_end_to_end_through_the_stream(line, code):
    _, results = _stream([line, line])
    assert results[0] == results[1]
    assert results[0].get("error", {}).get("code") == code


def _read_by_the_checks(deal, start_level):
    try:
        valid = check_deal(deal, start_level)
    except DealError:
        return None
    return valid.before.declarer, valid.before.ns, valid.before.ew, valid.points


@settings(max_examples=scaled_examples(400))
@given(
    valid_deals,
    st.lists(st.tuples(st.sampled_from(PATHS), hostile_values), max_size=2),
    st.integers(1, 13),
)
def test_the_quick_reading_accepts_only_what_the_checks_accept_and_reads_it_alike(deal, changes, start_level):
    for path, value in changes:
        put(deal, path, value)
    quick = quick_read(deal, start_level)
    assert quick is None or quick == _read_by_the_checks(deal, start_level)


@given(valid_deals, st.integers(1, 13))
def test_the_quick_reading_reads_every_valid_deal_without_options(deal, start_level):
    deal.pop("options", None)
    assert quick_read(deal, start_level) == _read_by_the_checks(deal, start_level)
