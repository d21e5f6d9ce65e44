"""The worked examples of shared/rules/examples.json, read at test time."""

import pytest

from scoring.games.huapai import score_deal
from tests.conftest import load_examples

EXAMPLES = load_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["name"] for example in EXAMPLES])
def test_it_reproduces_the_worked_example(example):
    result = score_deal(example["deal"])
    assert result["scores"] == example["expected"]["scores"]
    assert result["sides"] == example["expected"]["sides"]
    assert result["raw"] == example["expected"]["raw"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["name"] for example in EXAMPLES])
def test_its_breakdown_adds_up_to_each_seat_score(example):
    result = score_deal(example["deal"])
    for seat, entries in result["breakdown"].items():
        assert sum(entry["points"] for entry in entries) == result["scores"][seat]
        assert all(entry["text"] for entry in entries)


def test_there_are_examples_to_check():
    assert len(EXAMPLES) >= 30
    names = {example["name"] for example in EXAMPLES}
    # The law's new cases: two decks, the online rounding, per-event options.
    assert {"D1", "D2", "Z1", "Z2", "O1", "O2"} <= names
    assert all("raw" in example["expected"] for example in EXAMPLES)
