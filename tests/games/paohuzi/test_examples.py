"""Every 跑胡子 worked example of shared/rules/games/examples.json, read at test time: the expected
scores and error codes come from the file, never from the engine."""

import json

import orjson
import pytest

from scoring.engine.scorefile import score_stream
from scoring.games import get_game
from scoring.games.paohuzi import DealError, read_deal, score_deal
from tests.conftest import SHARED, load_examples

EXAMPLES = [
    example
    for example in json.loads((SHARED / "rules" / "games" / "examples.json").read_text(encoding="utf-8"))
    if example["game"] == "paohuzi"
]
NAMES = [example["name"] for example in EXAMPLES]
SCORED = [example for example in EXAMPLES if "scores" in example["expected"]]
REFUSED = [example for example in EXAMPLES if "error" in example["expected"]]


def test_the_file_holds_the_examples_of_the_law():
    assert len(EXAMPLES) >= 27 and len(set(NAMES)) == len(NAMES)
    assert {"PHZ01", "PHZ02", "PHZ09", "PHZ11", "PHZ13", "PHZ14", "PHZ15", "PHZX1", "PHZX12"} <= set(NAMES)
    assert len(SCORED) >= 15 and len(REFUSED) >= 12


@pytest.mark.parametrize("example", SCORED, ids=[e["name"] for e in SCORED])
def test_it_reproduces_the_worked_example(example):
    result = get_game("paohuzi").score_deal(example["deal"])
    assert result["scores"] == example["expected"]["scores"]
    assert result["game"] == "paohuzi" and list(result["scores"]) == ["E", "S", "W"]
    assert result["result"] == ("huang" if example["deal"]["winner"] is None else "win")


@pytest.mark.parametrize("example", SCORED, ids=[e["name"] for e in SCORED])
def test_its_breakdown_adds_up_to_each_seat_score_with_rule_numbers_of_the_law(example):
    result = score_deal(example["deal"])
    assert set(result["breakdown"]) == set(result["scores"])
    for seat, entries in result["breakdown"].items():
        assert entries and sum(entry["value"] for entry in entries) == result["scores"][seat]
        for entry in entries:
            assert set(entry) == {"rule", "value", "note"} and entry["rule"] in {"P5", "P6"} and entry["note"]
    if "amount" in result:
        assert max(result["scores"].values()) in (2 * result["amount"],)


@pytest.mark.parametrize("example", REFUSED, ids=[e["name"] for e in REFUSED])
def test_it_refuses_the_invalid_example_with_the_law_s_code(example):
    with pytest.raises(DealError) as refused:
        score_deal(example["deal"])
    assert refused.value.code == example["expected"]["error"]["code"]
    assert refused.value.message
    deal, problems = read_deal(example["deal"])
    assert deal is None and [problem.code for problem in problems] == [example["expected"]["error"]["code"]]


def test_the_examples_as_json_lines_mixed_with_a_huapai_deal_through_score_stream():
    huapai = load_examples()[0]
    lines = [orjson.dumps(example["deal"]) for example in EXAMPLES]
    lines.insert(4, orjson.dumps(huapai["deal"]))
    lines.insert(9, b'{"game": "paohuzi", "winner": null, "wangba": {"E": 1, "W": 1}, "note": "x"}')
    out = []
    status = score_stream((line + b"\n" for line in lines), out.append)
    results = [orjson.loads(line) for line in out]
    assert status == 0 and len(results) == len(EXAMPLES) + 2
    assert results[4]["scores"] == huapai["expected"]["scores"]
    assert results[9]["scores"] == {"E": -5, "S": 10, "W": -5}
    ours = results[:4] + results[5:9] + results[10:]
    for example, result in zip(EXAMPLES, ours, strict=True):
        if "error" in example["expected"]:
            assert set(result) == {"error"} and result["error"]["code"] == example["expected"]["error"]["code"]
        else:
            assert result["game"] == "paohuzi" and result["scores"] == example["expected"]["scores"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"[1, 2]", "bad_json"),  # G1
        (b'"paohuzi"', "bad_json"),
        (b'{"game": "mahjong", "winner": null}', "unknown_game"),  # G2
        (b'{"game": 7}', "unknown_game"),
        (b'{"game": "PAOHUZI", "winner": null, "wangba": {"E": 2}}', "unknown_game"),
        (b'{"game": "paohuzi", "options": [], "wangba": {}}', "bad_option"),  # G3 before V2
        (b'{"game": "paohuzi", "options": {"min_huxi": 61}}', "bad_option"),
        (b'{"game": "paohuzi", "options": {"scale": 2}, "winner": null, "wangba": {"E": 2}}', "bad_option"),
        (b'{"game": "paohuzi", "options": {"di": true}, "winner": null, "wangba": {"E": 2}}', "bad_option"),
        (b'{"game": "paohuzi", "options": {"di": 1.0}, "winner": null, "wangba": {"E": 2}}', "bad_option"),
        (b'{"game": "paohuzi", "winner": null}', "missing_key"),
        (b"{not json", "bad_json"),
    ],
)
def test_the_common_checks_hold_end_to_end(line, code):
    out = []
    score_stream([line + b"\n", b'{"game": "paohuzi", "winner": null, "wangba": {"S": 2}}\n'], out.append)
    assert orjson.loads(out[0])["error"]["code"] == code
    assert orjson.loads(out[1])["scores"] == {"E": 10, "S": -20, "W": 10}


def test_a_null_game_is_a_huapai_deal():
    deal = load_examples()[0]
    out = []
    score_stream([orjson.dumps({**deal["deal"], "game": None})], out.append)
    assert orjson.loads(out[0])["scores"] == deal["expected"]["scores"]
