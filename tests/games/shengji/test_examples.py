"""升级's worked examples of shared/rules/games/examples.json, read at test time: scored
directly, through the `Game`, and through `score_stream` as JSON Lines beside a 华牌 deal."""

import json

import orjson
import pytest

from scoring.engine.scorefile import score_stream
from scoring.games import get_game
from scoring.games.huapai import score_deal as huapai_score_deal
from scoring.games.shengji import RANKS, DealError, score_deal, shengji_match
from tests.conftest import SHARED, load_examples

ALL = json.loads((SHARED / "rules" / "games" / "examples.json").read_text(encoding="utf-8"))
EXAMPLES = [example for example in ALL if example["game"] == "shengji"]
DEALS = [example for example in EXAMPLES if "deal" in example]
MATCHES = [example for example in EXAMPLES if "match" in example]
SHENGJI = get_game("shengji")


def names(examples):
    return [example["name"] for example in examples]


def result_of(deal, score=score_deal):
    try:
        return score(deal)
    except DealError as error:
        return error.as_json()


def assert_as_expected(result, expected):
    if "error" in expected:
        assert "error" in result, result
        assert result["error"]["code"] == expected["error"]["code"]
        assert result["error"]["message"]
        return
    assert "error" not in result, result
    for key, value in expected.items():
        assert result[key] == value, key


def test_there_are_examples_of_every_kind():
    assert len(DEALS) >= 20 and len(MATCHES) >= 5
    assert any("error" in example["expected"] for example in DEALS)
    assert any("error" in example["expected"] for example in MATCHES)


@pytest.mark.parametrize("example", DEALS, ids=names(DEALS))
def test_a_deal_gives_the_worked_result(example):
    result = result_of(example["deal"])
    assert_as_expected(result, example["expected"])
    if "error" not in result:
        assert result["game"] == "shengji"
        levels = result["state"]["levels"]
        assert result["ranks"] == {side: RANKS[(levels[side] - 1) % 13] for side in ("NS", "EW")}
        assert result["swap"] == (
            result["state"]["declarer"] != (example["deal"].get("state") or example["deal"])["declarer"]
        )
        for seat, entries in result["breakdown"].items():
            assert sum(entry["value"] for entry in entries) == result["scores"][seat]


@pytest.mark.parametrize("example", DEALS, ids=names(DEALS))
def test_the_game_scores_a_deal_as_the_engine_does(example):
    assert result_of(example["deal"], SHENGJI.score_deal) == result_of(example["deal"])


@pytest.mark.parametrize("example", MATCHES, ids=names(MATCHES))
def test_a_match_gives_the_worked_result(example):
    result = shengji_match(example["match"], example["match_options"])
    assert_as_expected(result, example["expected"])
    assert SHENGJI.match(example["match"], example["match_options"]) == result


def test_the_examples_score_through_the_stream_beside_a_huapai_deal():
    huapai = next(example["deal"] for example in load_examples() if "error" not in example["expected"])
    deals = [example["deal"] for example in DEALS]
    lines = [orjson.dumps(deal) for deal in deals]
    lines.insert(len(lines) // 2, orjson.dumps(huapai))
    written = []
    status = score_stream(iter(lines), written.append)
    results = [orjson.loads(line) for line in written]
    assert status == 0 and len(results) == len(lines)
    assert results.pop(len(lines) // 2) == orjson.loads(orjson.dumps(huapai_score_deal(huapai)))
    for example, result in zip(DEALS, results, strict=True):
        assert_as_expected(result, example["expected"])
        assert result == orjson.loads(orjson.dumps(result_of(example["deal"])))
