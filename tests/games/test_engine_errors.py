"""Every deal error code, with a message that names the card or seat."""

import copy

import pytest

from scoring.games.huapai import DealError, read_deal, validate_deal

VALID = {
    "captured": {
        "N": ["HA", "HK", "H8", "H7", "SQ"],
        "E": ["HQ", "H9", "H4", "DJ"],
        "S": ["HJ", "H6", "H3", "C10"],
        "W": ["H10", "H5", "H2"],
    },
}


def changed(**changes):
    deal = copy.deepcopy(VALID)
    deal.update(changes)
    return deal


CASES = [
    ("missing_card", changed(captured={**VALID["captured"], "W": ["H10", "H5"]}), "♥2"),
    ("duplicate_card", changed(captured={**VALID["captured"], "W": ["H10", "H5", "H2", "SQ"]}), "♠Q"),
    ("unknown_card", changed(captured={**VALID["captured"], "W": ["H10", "H5", "H2", "Z9"]}), "Z9"),
    ("unknown_seat", changed(captured={**VALID["captured"], "X": []}), "X"),
    (
        "missing_seat",
        changed(
            captured={k: v for k, v in VALID["captured"].items() if k != "W"}
            | {"S": VALID["captured"]["S"] + VALID["captured"]["W"]}
        ),
        "W",
    ),
    ("exposure_without_holder", changed(exposed={"SQ": "shown"}), "♠Q"),
    (
        "two_first_exposures",
        changed(holders={"SQ": "E", "HA": "E"}, exposed={"SQ": "first", "HA": "first"}),
        "E",
    ),
    ("not_exposable", changed(holders={"HK": "N"}, exposed={"HK": "shown"}), "♥K"),
    ("unknown_ruleset", changed(ruleset="bridge"), "bridge"),
    ("bad_exposure", changed(holders={"SQ": "N"}, exposed={"SQ": "early"}), "♠Q"),
    ("bad_penalty", changed(penalties={"N": 50}), "N"),
    ("bad_penalty", changed(penalties={"S": "ten"}), "S"),
    ("unknown_seat", changed(holders={"SQ": "Q"}), "Q"),
    ("bad_deal", changed(captured=["SQ"]), "captured"),
    ("bad_deal", changed(holders=["N"]), "holders"),
]


@pytest.mark.parametrize(("code", "deal", "named"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_it_refuses_the_deal_with_a_stable_code_naming_the_culprit(code, deal, named):
    with pytest.raises(DealError) as caught:
        validate_deal(deal)
    assert caught.value.code == code
    assert named in caught.value.message
    assert caught.value.as_json() == {"error": {"code": code, "message": caught.value.message}}


def test_it_lists_every_problem_at_once_for_the_entry_page():
    deal = changed(captured={**VALID["captured"], "N": ["HA", "HK", "H8"], "W": ["H10", "H5", "H2", "HA"]})
    _, problems = read_deal(deal)
    assert {(p.code, p.message.split()[0]) for p in problems} == {
        ("duplicate_card", "♥A"),
        ("missing_card", "♥7"),
        ("missing_card", "♠Q"),
    }


def test_a_deal_that_is_not_an_object_is_refused():
    with pytest.raises(DealError) as caught:
        validate_deal(["SQ"])
    assert caught.value.code == "bad_deal"


def test_non_point_cards_are_accepted_and_ignored_even_twice():
    deal = changed(
        captured={
            **VALID["captured"],
            "N": [*VALID["captured"]["N"], "CA"],
            "E": [*VALID["captured"]["E"], "CA"],
        }
    )
    assert validate_deal(deal).captured == validate_deal(VALID).captured
