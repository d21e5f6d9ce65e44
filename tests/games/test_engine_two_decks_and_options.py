"""Two decks (README §8), per-event options (§5a) and the online rounding (§6), beyond the shared examples."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.huapai import POINT_CARDS, RULESETS, SEATS, DealError, read_deal, rules_for, score_deal
from tests.conftest import scaled_examples
from tests.properties.test_engine_properties import NEXT_SEAT, rotate
from tests.strategies import option_sets, valid_deals

HEARTS = [card for card in POINT_CARDS if card.startswith("H")]


def two_deck(captured, **rest):
    return {"ruleset": "online-2deck", "captured": captured, **rest}


def everything_twice_to(seat):
    return {s: [card for card in POINT_CARDS for _ in range(2)] if s == seat else [] for s in SEATS}


def test_a_card_three_times_is_a_duplicate_naming_the_card():
    captured = everything_twice_to("N")
    captured["E"] = ["SQ"]
    _, problems = read_deal(two_deck(captured))
    assert [p.code for p in problems] == ["duplicate_card"]
    assert "♠Q" in problems[0].message and "记了 3 次" in problems[0].message


def test_a_card_once_is_missing_naming_the_card():
    captured = everything_twice_to("N")
    captured["N"].remove("DJ")
    _, problems = read_deal(two_deck(captured))
    assert [p.code for p in problems] == ["missing_card"]
    assert "♦J" in problems[0].message


def test_one_deck_rules_refuse_a_second_copy():
    captured = {"N": (*POINT_CARDS, "SQ"), "E": [], "S": [], "W": []}
    _, problems = read_deal({"captured": {seat: list(cards) for seat, cards in captured.items()}})
    assert [p.code for p in problems] == ["duplicate_card"]


def test_three_exposed_copies_are_refused():
    deal = two_deck(everything_twice_to("N"), holders={"SQ": ["E", "S", "W"]}, exposed={"SQ": ["shown"] * 3})
    _, problems = read_deal(deal)
    assert {p.code for p in problems} == {"bad_deal"}


def test_each_exposed_copy_needs_its_holder():
    deal = two_deck(everything_twice_to("N"), holders={"SQ": ["E"]}, exposed={"SQ": ["shown", "shown"]})
    _, problems = read_deal(deal)
    assert [p.code for p in problems] == ["exposure_without_holder"]


def test_a_bare_exposure_means_one_copy():
    listed = two_deck(everything_twice_to("N"), holders={"SQ": ["E"]}, exposed={"SQ": ["shown"]})
    bare = two_deck(everything_twice_to("N"), holders={"SQ": "E"}, exposed={"SQ": "shown"})
    assert score_deal(listed)["raw"] == score_deal(bare)["raw"]


def test_grand_slam_doubles_for_every_exposed_copy():
    # README §8 rule 5: 1600, doubled once per exposed copy: three copies → 12800.
    deal = two_deck(
        everything_twice_to("W"),
        holders={"SQ": ["N", "E"], "HA": ["S"]},
        exposed={"SQ": ["shown", "shown"], "HA": ["shown"]},
    )
    assert score_deal(deal)["raw"] == {"N": 0, "E": 0, "S": 0, "W": 12800}


def test_transformer_multiplier_follows_taken_and_exposed_copies():
    # §8 rule 4: M = 2^(t + min(x, t)); seat N takes ♠Q (−100) and t copies of ♣10.
    def raw_for(taken, exposed_copies):
        captured = {seat: [] for seat in SEATS}
        rest = [card for card in POINT_CARDS for _ in range(2)]
        rest.remove("SQ")
        for _ in range(taken):
            rest.remove("C10")
        captured["N"] = ["SQ"] + ["C10"] * taken
        captured["E"] = [card for card in rest if card != "SQ"]
        captured["S"] = ["SQ"]
        deal = two_deck(captured)
        if exposed_copies:
            deal["holders"] = {"C10": ["W"] * exposed_copies}
            deal["exposed"] = {"C10": ["shown"] * exposed_copies}
        return score_deal(deal)["raw"]["N"]

    assert raw_for(1, 0) == -200  # ×2
    assert raw_for(1, 1) == -400  # ×4
    assert raw_for(1, 2) == -400  # ×4: only one taken, so one exposure counts
    assert raw_for(2, 0) == -400  # ×4
    assert raw_for(2, 1) == -800  # ×8
    assert raw_for(2, 2) == -1600  # ×16


def test_online_rounds_before_scaling_and_penalties_stay_unscaled():
    # Raw (10, −10, 0, 5): N (40 − 5)/3 = 11⅔ → 12 → ×12 = 144; E (−40 − 5)/3 = −15 → −180;
    # S −5/3 → −2 → −24; W 15/3 = 5 → 60; then N's −7 penalty.
    rules = rules_for("huapai", {"normalisation": "zero_sum", "scale": 12})
    from scoring.games.huapai.engine import normalise

    assert normalise({"N": 10, "E": -10, "S": 0, "W": 5}, rules) == {"N": 144, "E": -180, "S": -24, "W": 60}


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"first_exposure": 1}, "bad_option"),
        ({"self_capture": "yes"}, "bad_option"),
        ({"normalisation": "zero-sum"}, "bad_option"),
        ({"scale": 0}, "bad_option"),
        ({"scale": 101}, "bad_option"),
        ({"scale": 2.0}, "bad_option"),
        ({"scale": True}, "bad_option"),
        ({"colour": "red"}, "unknown_option"),
        (["scale"], "bad_option"),
    ],
)
def test_bad_options_are_refused_with_a_code(options, code):
    deal = {"captured": {seat: [] for seat in SEATS}, "options": options}
    deal["captured"]["N"] = list(POINT_CARDS)
    _, problems = read_deal(deal)
    assert [p.code for p in problems] == [code]


def test_options_override_the_rule_set_as_data():
    huapai = rules_for("huapai", {"first_exposure": False, "self_capture": False, "scale": 3})
    assert (huapai.first_exposure_recognised, huapai.self_capture_doubles, huapai.normalisation_scale) == (
        False,
        False,
        3,
    )
    assert rules_for("online").options() == {
        "first_exposure": False,
        "self_capture": False,
        "normalisation": "zero_sum",
        "scale": 12,
    }
    with pytest.raises(DealError):
        rules_for("huapai", {"scale": -1})


@given(valid_deals(ruleset="online-2deck", options=option_sets))
def test_two_decks_rotating_the_seats_rotates_the_scores(deal):
    scores = score_deal(deal)
    rotated = score_deal(rotate(deal))
    assert rotated["scores"] == {NEXT_SEAT[seat]: score for seat, score in scores["scores"].items()}
    assert rotated["raw"] == {NEXT_SEAT[seat]: score for seat, score in scores["raw"].items()}


@given(
    valid_deals(ruleset="online-2deck"),
    st.lists(st.sampled_from(["SA", "SK", "S2", "CA", "C9", "DQ", "D10", "D2"]), max_size=6),
    st.sampled_from(SEATS),
)
def test_two_decks_non_point_cards_change_nothing(deal, extra, seat):
    padded = copy.deepcopy(deal)
    padded["captured"][seat] = padded["captured"][seat] + extra
    assert score_deal(padded)["scores"] == score_deal(deal)["scores"]


@given(
    valid_deals(ruleset=st.sampled_from(sorted(RULESETS)), penalties=False, options=option_sets),
    st.dictionaries(st.sampled_from(SEATS), st.integers(-100_000, -1)),
)
def test_penalties_add_exactly_after_every_option(deal, penalties):
    plain = score_deal(deal)
    penalised = score_deal(dict(deal, penalties=penalties))
    assert penalised["raw"] == plain["raw"]
    assert penalised["scores"] == {seat: plain["scores"][seat] + penalties.get(seat, 0) for seat in SEATS}


@settings(max_examples=scaled_examples(300))
@given(valid_deals(ruleset=st.sampled_from(sorted(RULESETS)), options=option_sets))
def test_every_rule_set_and_option_combination_scores_integers_that_the_breakdown_explains(deal):
    result = score_deal(deal)
    rules = rules_for(deal["ruleset"], deal["options"])
    for seat in SEATS:
        assert type(result["scores"][seat]) is int
        assert sum(entry["points"] for entry in result["breakdown"][seat]) == result["scores"][seat]
        # Every score fits a 32-bit column with room for sums (docs/security.md).
        assert abs(result["scores"][seat]) < 2**31 // 16
    if rules.normalisation == "zero_sum" and rules.normalisation_scale == 1:
        # Rounding each of four thirds moves the sum by at most 2.
        assert abs(sum(result["scores"].values()) - sum(deal.get("penalties", {}).values())) <= 2
    if rules.normalisation == "none":
        assert {s: result["scores"][s] - deal.get("penalties", {}).get(s, 0) for s in SEATS} == result["raw"]


@settings(max_examples=scaled_examples(200))
@given(valid_deals(ruleset="online-2deck", penalties=False), st.sampled_from(SEATS))
def test_two_decks_one_more_exposed_transformer_never_shrinks_a_score(deal, exposer):
    """The ♣10 multiplier is monotone in its exposed copies (README §8 rule 4)."""
    exposed = deal["exposed"].get("C10", [])
    if len(exposed) == 2:
        return
    more = copy.deepcopy(deal)
    holders = list(deal["holders"].get("C10", []))
    holders.insert(len(exposed), exposer)
    more["holders"]["C10"] = holders[:2]
    more["exposed"]["C10"] = [*exposed, "shown"]
    before, after = score_deal(deal)["raw"], score_deal(more)["raw"]
    for seat in SEATS:
        if "C10" in deal["captured"][seat] and len(deal["captured"][seat]) < 32:
            assert abs(after[seat]) >= abs(before[seat])
            assert (after[seat] > 0) == (before[seat] > 0) or before[seat] == 0


def test_first_exposure_option_off_counts_first_as_shown():
    deal = {
        "captured": {"N": ["SQ"], "E": HEARTS, "S": ["DJ"], "W": ["C10"]},
        "holders": {"SQ": "E"},
        "exposed": {"SQ": "first"},
    }
    assert score_deal(deal)["raw"]["N"] == -400
    assert score_deal(dict(deal, options={"first_exposure": False}))["raw"]["N"] == -200
