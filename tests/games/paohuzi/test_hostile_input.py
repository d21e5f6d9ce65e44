"""Any JSON value anywhere in a 跑胡子 deal is the game's refusal with a code, never another exception."""

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.scorefile import score_stream
from scoring.games.paohuzi import DealError, read_deal, score_deal
from scoring.games.paohuzi.game import PAOHUZI
from tests.conftest import scaled_examples
from tests.games.hostile import UNPRINTABLE, assert_refusal, json_values, nested_list, put
from tests.games.paohuzi.strategies import valid_deals

WORDS = ["E", "S", "W", "N", "e", " E", "self", "draw", "discard", "none", "wangdiao", "paohuzi", ""]
NUMBERS = [0, 1, 2, 15, 200, 201]


def hostile_values(huge=True):
    """Any JSON value; `huge`: integers beyond 64 bits too, and NaN (a Python caller's, never orjson's)."""
    return json_values(WORDS, NUMBERS, orjson_only=not huge, huge=huge)


PATHS = [
    ("game",),
    ("options",),
    ("options", "min_huxi"),
    ("options", "discard_pays"),
    ("options", "di"),
    ("dealer",),
    ("wangba",),
    ("wangba", "E"),
    ("wangba", "S"),
    ("wangba", "N"),
    ("winner",),
    ("huxi",),
    ("red",),
    ("source",),
    ("from",),
    ("wang",),
    ("xing",),
]


@settings(max_examples=scaled_examples(600))
@given(valid_deals, st.lists(st.tuples(st.sampled_from(PATHS), hostile_values()), min_size=1, max_size=3))
def test_a_wrong_value_anywhere_is_a_coded_refusal_never_an_exception(deal, changes):
    for path, value in changes:
        put(deal, path, value)
    result, problems = read_deal(deal)
    assert (result is None) == bool(problems) and len(problems) <= 1
    for problem in problems:
        assert_refusal(problem)
    if result is not None:
        scores = score_deal(deal)["scores"]
        assert sum(scores.values()) == 0 and all(type(score) is int for score in scores.values())


@given(hostile_values())
def test_a_deal_that_is_not_an_object_is_bad_json(value):
    if isinstance(value, dict):
        return
    _, problems = read_deal(value)
    assert [problem.code for problem in problems] == ["bad_json"]
    with pytest.raises(DealError):
        PAOHUZI.score_deal(value)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"huxi": True}, "bad_huxi"),  # bools are not integers
        ({"huxi": 20.0}, "bad_huxi"),
        ({"huxi": UNPRINTABLE}, "bad_huxi"),  # no repr: the message still renders
        ({"red": 2**64}, "bad_red"),
        ({"xing": float("nan")}, "bad_xing"),
        ({"wangba": {"E": 1.0}}, "bad_wangba"),
        ({"wangba": {"E": [[[[[]]]]]}}, "bad_wangba"),
        ({"wangba": {1: 1}}, "unknown_seat"),
        ({"wangba": {"E": -1}}, "bad_wangba"),
        ({"options": {"min_huxi": True}}, "bad_option"),
        ({"options": {"min_huxi": UNPRINTABLE}}, "bad_option"),
        ({"options": {7: 1}}, "bad_option"),
        ({"options": {"discard_pays": ["all"]}}, "bad_option"),
        ({"dealer": {"seat": "E"}}, "unknown_seat"),
        ({"winner": {}}, "unknown_seat"),
        ({"from": UNPRINTABLE}, "unknown_seat"),
        ({"source": None}, "missing_key"),  # null counts as absent
        ({"wang": None, "xing": None, "dealer": None, "options": None}, None),
        ({"wangba": {"E": None, "S": 0}}, None),
        ({"board": 3, "table": [1], "note": {"x": 1}}, None),  # keys the law does not define
    ],
)
def test_decided_types_and_bounds(change, code):
    deal = {"winner": "E", "huxi": 20, "red": 3, "source": "draw", "from": "S", "wangba": {}, **change}
    _, problems = read_deal(deal)
    assert [problem.code for problem in problems] == ([code] if code else [])
    for problem in problems:
        assert_refusal(problem)


def test_a_list_nested_too_deep_for_repr_is_still_a_refusal():
    value = nested_list(100_001)
    _, problems = read_deal({"winner": value, "wangba": {}})
    assert [problem.code for problem in problems] == ["unknown_seat"]
    assert_refusal(problems[0])


@settings(max_examples=scaled_examples(300))
@given(st.lists(hostile_values(huge=False), min_size=1, max_size=5))
def test_score_stream_answers_every_line_whatever_it_holds(values):
    lines = [orjson.dumps({"game": "paohuzi", "winner": value, "wangba": value}) for value in values]
    lines += [orjson.dumps(value) for value in values]
    lines.append(b"\xff\xfe not utf-8")
    lines.append(b"[" * 2000 + b"]" * 2000)  # deeper than orjson reads
    out = []
    score_stream(lines, out.append)
    results = [orjson.loads(line) for line in out]
    assert len(results) == len(lines)
    assert all(("scores" in result) != ("error" in result) for result in results)
