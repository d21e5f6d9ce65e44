"""The top-level "game" key of a scored line (games/README.md §0): null counts as absent (a
华牌 deal), and any other value that names no game is `unknown_game`, however it is built."""

import orjson
import pytest

from scoring.engine.scorefile import score_stream
from scoring.games.refusals import shown
from tests.conftest import load_examples

HUAPAI_DEAL = next(example["deal"] for example in load_examples() if "error" not in example["expected"])


def results(lines):
    written = []
    score_stream(iter(lines), written.append)
    return [orjson.loads(line) for line in written]


def test_a_null_game_is_a_huapai_deal():
    first, second = results([orjson.dumps({**HUAPAI_DEAL, "game": None}), orjson.dumps(HUAPAI_DEAL)])
    assert first == second and "error" not in first


@pytest.mark.parametrize(
    "game", [b"[" * 1000 + b"]" * 1000, b"18446744073709551615", b'{"a": [1]}', b'"Huapai"', b"true", b"1.5"]
)
def test_a_game_that_names_no_game_is_unknown_game_never_a_crash(game):
    (result,) = results([b'{"game": ' + game + b"}"])
    assert result["error"]["code"] == "unknown_game" and result["error"]["message"]


@pytest.mark.parametrize(
    ("value", "text"),
    [([[1]], "[…]"), ([], "[]"), ({"a": 1}, "{…}"), ({}, "{}"), (2**70, "2**70…"), (-(2**70), "-2**70…")],
)
def test_a_value_a_message_cannot_repr_safely_is_shown_short(value, text):
    assert f"{shown(value)!r:.40}" == text


@pytest.mark.parametrize("value", ["NS", 5, 2**64 - 1, None, True, 1.5])
def test_a_value_a_message_can_repr_is_itself(value):
    assert shown(value) is value
