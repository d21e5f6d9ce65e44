"""The law's worked examples for 蚌埠斗地主 (shared/rules/games/examples.json), read at test time:
expected values come from the file, scored directly and through `score_stream` as JSON Lines."""

import json

import orjson
import pytest

from scoring.engine.scorefile import score_stream
from scoring.games import GAMES
from scoring.games.doudizhu import DOUDIZHU, DealError
from scoring.games.huapai import score_deal as huapai_score_deal
from tests.conftest import SHARED, load_examples

EXAMPLES = [
    example
    for example in json.loads((SHARED / "rules" / "games" / "examples.json").read_text(encoding="utf-8"))
    if example["game"] == "bengbu-doudizhu"
]
VALID = [example for example in EXAMPLES if "scores" in example["expected"]]
INVALID = [example for example in EXAMPLES if "error" in example["expected"]]


def test_there_are_examples_of_every_kind():
    assert len(VALID) >= 20 and len(INVALID) >= 10
    assert all("deal" in example for example in EXAMPLES)  # no match examples for this game (yet)
    names = {example["name"] for example in EXAMPLES}
    assert {"DDZ14", "DDZ18", "DDZ19", "DDZ21", "DDZ22", "DDZ30", "DDZX6", "DDZX11"} <= names


@pytest.mark.parametrize("example", VALID, ids=[example["name"] for example in VALID])
def test_it_reproduces_the_worked_example(example):
    result = DOUDIZHU.score_deal(example["deal"])
    assert result["scores"] == example["expected"]["scores"]
    assert result["game"] == "bengbu-doudizhu"
    assert list(result["scores"]) == ["N", "E", "S", "W"]
    tian = "tianzha" in example["deal"] or "tianzun" in example["deal"]
    if tian:
        assert result["result"] == "tian"
    else:
        landlord_won = example["deal"]["first_out"] == example["deal"]["landlord"]
        assert result["result"] == ("landlord" if landlord_won else "farmers")


@pytest.mark.parametrize("example", VALID, ids=[example["name"] for example in VALID])
def test_its_breakdown_adds_up_to_each_seat_score(example):
    result = DOUDIZHU.score_deal(example["deal"])
    rules = {"B3", "B5", "B6", "T1"}
    for seat, entries in result["breakdown"].items():
        assert sum(entry["value"] for entry in entries) == result["scores"][seat]
        assert all(set(entry) == {"rule", "value", "note"} and entry["rule"] in rules for entry in entries)
        assert all(type(entry["value"]) is int and entry["note"] for entry in entries)


@pytest.mark.parametrize("example", INVALID, ids=[example["name"] for example in INVALID])
def test_it_refuses_the_invalid_example_with_the_laws_code(example):
    with pytest.raises(DealError) as refused:
        DOUDIZHU.score_deal(example["deal"])
    assert refused.value.code == example["expected"]["error"]["code"]
    assert refused.value.message


def _stream(lines):
    out = []
    status = score_stream(iter(lines), out.append)
    return status, [orjson.loads(line) for line in out]


def test_every_example_through_score_stream_beside_a_huapai_line():
    huapai = load_examples()[0]["deal"]
    deals = [huapai, *(example["deal"] for example in EXAMPLES), {**huapai, "game": "huapai"}]
    status, results = _stream([orjson.dumps(deal) + b"\n" for deal in deals])
    assert status == 0  # every line parsed as JSON
    assert len(results) == len(deals)
    assert results[0] == results[-1] == json.loads(json.dumps(huapai_score_deal(huapai)))
    for example, result in zip(EXAMPLES, results[1:-1], strict=True):
        expected = example["expected"]
        if "error" in expected:
            assert result["error"]["code"] == expected["error"]["code"], example["name"]
            assert result["error"]["message"]
        else:
            assert result["scores"] == expected["scores"], example["name"]
            assert result["game"] == "bengbu-doudizhu"


def test_a_single_invalid_line_exits_2_and_a_valid_one_0():
    assert _stream([orjson.dumps(INVALID[0]["deal"])])[0] == 2
    status, (result,) = _stream([orjson.dumps(VALID[0]["deal"])])
    assert status == 0 and result["scores"] == VALID[0]["expected"]["scores"]


def test_a_pretty_printed_deal_is_one_document():
    text = json.dumps(VALID[-1]["deal"], indent=2).encode()
    status, (result,) = _stream(text.splitlines(keepends=True))
    assert status == 0 and result["scores"] == VALID[-1]["expected"]["scores"]


def test_a_game_of_null_is_absent_and_so_a_huapai_deal():
    huapai = load_examples()[0]["deal"]
    _, (result,) = _stream([orjson.dumps({**huapai, "game": None})])
    assert result == json.loads(json.dumps(huapai_score_deal(huapai)))


def test_the_game_is_registered_under_the_laws_id():
    assert GAMES["bengbu-doudizhu"] is DOUDIZHU
