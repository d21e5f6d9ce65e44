"""Any JSON value anywhere in a 跑胡子 deal is the game's refusal with a code, never another exception."""

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.scorefile import score_stream
from scoring.games.paohuzi import DealError, read_deal, score_deal
from scoring.games.paohuzi.game import PAOHUZI
from tests.conftest import scaled_examples
from tests.games.paohuzi.strategies import valid_deals

WORDS = ["E", "S", "W", "N", "e", " E", "self", "draw", "discard", "none", "wangdiao", "paohuzi", ""]


def json_values(huge=True):
    """Any JSON value; `huge`: integers beyond 64 bits too (a Python caller's, never orjson's)."""
    integers = st.integers(-(2**63), 2**64 - 1) | st.sampled_from([0, 1, 2, 15, 200, 201])
    if huge:
        integers |= st.integers(-(2**70), 2**70) | st.integers(4400, 5000).map(lambda digits: 10**digits)
    return st.recursive(
        st.none()
        | st.booleans()
        | integers
        | st.floats(allow_nan=huge, allow_infinity=huge)
        | st.text(max_size=6)
        | st.sampled_from(
            ["E", "S", "W", "N", "e", " E", "self", "draw", "discard", "none", "wangdiao", "paohuzi", ""]
        ),
        lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
        max_leaves=8,
    )


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


def put(deal, path, value):
    target = deal
    for key in path[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    target[path[-1]] = value


def check_refusal(problem):
    assert isinstance(problem, DealError) and problem.code and problem.message
    assert len(problem.message) < 300
    json.dumps(problem.as_json(), ensure_ascii=False)  # every message serialises


@settings(max_examples=scaled_examples(600))
@given(valid_deals, st.lists(st.tuples(st.sampled_from(PATHS), json_values()), min_size=1, max_size=3))
def test_a_wrong_value_anywhere_is_a_coded_refusal_never_an_exception(deal, changes):
    for path, value in changes:
        put(deal, path, value)
    result, problems = read_deal(deal)
    assert (result is None) == bool(problems) and len(problems) <= 1
    for problem in problems:
        check_refusal(problem)
    if result is not None:
        scores = score_deal(deal)["scores"]
        assert sum(scores.values()) == 0 and all(type(score) is int for score in scores.values())


@given(json_values())
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
        ({"huxi": 10**5000}, "bad_huxi"),  # no repr: the message still renders
        ({"red": 2**64}, "bad_red"),
        ({"xing": float("nan")}, "bad_xing"),
        ({"wangba": {"E": 1.0}}, "bad_wangba"),
        ({"wangba": {"E": [[[[[]]]]]}}, "bad_wangba"),
        ({"wangba": {1: 1}}, "unknown_seat"),
        ({"wangba": {"E": -1}}, "bad_wangba"),
        ({"options": {"min_huxi": True}}, "bad_option"),
        ({"options": {"min_huxi": 10**5000}}, "bad_option"),
        ({"options": {7: 1}}, "bad_option"),
        ({"options": {"discard_pays": ["all"]}}, "bad_option"),
        ({"dealer": {"seat": "E"}}, "unknown_seat"),
        ({"winner": {}}, "unknown_seat"),
        ({"from": 10**5000}, "unknown_seat"),
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
        check_refusal(problem)


def test_a_list_nested_too_deep_for_repr_is_still_a_refusal():
    value = []
    for _ in range(100_000):
        value = [value]
    _, problems = read_deal({"winner": value, "wangba": {}})
    assert [problem.code for problem in problems] == ["unknown_seat"]
    check_refusal(problems[0])


@settings(max_examples=scaled_examples(300))
@given(st.lists(json_values(huge=False), min_size=1, max_size=5))
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
