"""Invariants of the engine over random valid deals (hypothesis)."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.huapai import POINT_CARDS, RULESETS, SEATS, read_deal, rules_for, score_deal, score_valid_deal
from scoring.games.huapai.engine import sides_with_other_exposures
from scoring.games.huapai.player_stats import _without_exposures
from tests.conftest import scaled_examples
from tests.strategies import option_sets, valid_deals

NEXT_SEAT = dict(zip(SEATS, SEATS[1:] + SEATS[:1], strict=True))
ALL_HEARTS = {card for card in POINT_CARDS if card.startswith("H")}


def rotate(deal):
    rotated = copy.deepcopy(deal)
    rotated["captured"] = {NEXT_SEAT[seat]: cards for seat, cards in deal["captured"].items()}
    rotated["holders"] = {
        card: [NEXT_SEAT[seat] for seat in value] if isinstance(value, list) else NEXT_SEAT[value]
        for card, value in deal.get("holders", {}).items()
    }
    rotated["penalties"] = {NEXT_SEAT[seat]: points for seat, points in deal.get("penalties", {}).items()}
    return rotated


@given(valid_deals(ruleset=st.sampled_from(sorted(RULESETS))))
def test_every_valid_random_deal_scores_to_integers(deal):
    result = score_deal(deal)
    assert set(result["scores"]) == set(SEATS)
    assert all(isinstance(score, int) for score in result["scores"].values())
    assert result["sides"] == {
        "NS": result["scores"]["N"] + result["scores"]["S"],
        "EW": result["scores"]["E"] + result["scores"]["W"],
    }


@given(valid_deals(ruleset=st.sampled_from(sorted(RULESETS))))
def test_rotating_the_seats_rotates_the_scores(deal):
    scores = score_deal(deal)["scores"]
    rotated = score_deal(rotate(deal))["scores"]
    assert rotated == {NEXT_SEAT[seat]: score for seat, score in scores.items()}


@given(
    valid_deals(),
    st.lists(st.sampled_from(["SA", "SK", "S2", "CA", "C9", "DQ", "D10", "D2"]), max_size=6),
    st.sampled_from(SEATS),
)
def test_non_point_cards_change_nothing(deal, extra, seat):
    padded = copy.deepcopy(deal)
    padded["captured"][seat] = padded["captured"][seat] + extra
    assert score_deal(padded)["scores"] == score_deal(deal)["scores"]


@given(valid_deals(exposures=False, penalties=False))
def test_base_hearts_sum_to_minus_two_hundred(deal):
    deal["holders"] = {}
    result = score_deal(deal)
    if any(ALL_HEARTS <= set(cards) for cards in deal["captured"].values()):
        return  # 全红 flips the sign; the sum property is about ordinary deals
    hearts = sum(
        entry["points"] for entries in result["breakdown"].values() for entry in entries if entry["rule"] == "hearts"
    )
    assert hearts == -200


@given(valid_deals(penalties=False), st.dictionaries(st.sampled_from(SEATS), st.integers(-1000, -1)))
def test_penalties_add_exactly(deal, penalties):
    plain = score_deal(deal)["scores"]
    penalised = score_deal(dict(deal, penalties=penalties))["scores"]
    assert penalised == {seat: plain[seat] + penalties.get(seat, 0) for seat in SEATS}


def _entry_signs(result, seat):
    return {
        entry["rule"]: (entry["points"] > 0) - (entry["points"] < 0)
        for entry in result["breakdown"][seat]
        if entry["rule"] in {"hearts", "pig", "goat"}
    }


@settings(max_examples=scaled_examples(300))
@given(valid_deals(penalties=False))
def test_exposures_and_self_capture_never_change_a_sign_outside_all_hearts(deal):
    """Each part of a score keeps its sign; a seat whose cards all pull one way keeps its sign."""
    exposed = score_deal(deal)
    plain = score_deal(dict(deal, holders={}, exposed={}))
    for seat, cards in deal["captured"].items():
        if ALL_HEARTS <= set(cards):
            continue
        assert _entry_signs(exposed, seat) == _entry_signs(plain, seat)
        negative_cards = [card for card in cards if card in ALL_HEARTS - {"H2", "H3", "H4"} or card == "SQ"]
        if not ("DJ" in cards and negative_cards):
            before, after = plain["scores"][seat], exposed["scores"][seat]
            assert (before > 0, before < 0) == (after > 0, after < 0)
            assert abs(after) >= abs(before)


@given(st.integers(-(10**7), 10**7), st.sampled_from([2, 3]))
def test_normalisation_rounds_in_integers_exactly_as_with_fractions(numerator, denominator):
    """The engine divides in integers; exact fractions rounded half away from zero are the oracle."""
    from fractions import Fraction
    from math import floor

    from scoring.games.huapai.engine import _divide_rounding_half_away

    exact = Fraction(numerator, denominator)
    expected = floor(abs(exact) + Fraction(1, 2)) * (1 if exact >= 0 else -1)
    assert _divide_rounding_half_away(numerator, denominator) == expected


def _all_taken_by(deal, seat):
    """The deal with every point card taken by `seat` (a grand slam), holders and exposures kept."""
    cards = [card for taken in deal["captured"].values() for card in taken]
    return {**deal, "captured": {other: cards if other == seat else [] for other in SEATS}}


@settings(max_examples=scaled_examples(300))
@given(
    valid_deals(ruleset=st.sampled_from(sorted(RULESETS)), options=option_sets),
    st.sampled_from(SEATS),
    st.one_of(st.none(), st.sampled_from(SEATS)),
)
def test_scoring_again_without_a_seats_exposures_only_where_they_are_read_is_scoring_it_whole(deal, seat, grand_slam):
    """Players' statistics score each deal again without one seat's exposures, scoring only the
    seats whose score reads an exposure that changed (`sides_with_other_exposures`): the same
    sides as scoring the changed deal whole, grand slams and the fourth card exposed by itself
    included."""
    if grand_slam:
        deal = _all_taken_by(deal, grand_slam)
    rules = rules_for(deal["ruleset"], deal.get("options"))
    valid, problems = read_deal(deal, rules=rules)
    assert problems == []
    changed = _without_exposures(valid, seat)
    raw = score_valid_deal(valid, rules)["raw"]
    assert sides_with_other_exposures(valid, rules, raw, changed) == score_valid_deal(changed, rules)["sides"]


def test_a_grand_slam_doubled_per_exposure_is_scored_again_when_only_the_deals_exposures_change():
    """A fixed grand slam doubled for every exposed copy reads the deal's exposures themselves:
    with the fourth card exposed by itself, W's ♥A dropped leaves every card's factor as it was
    (♥A now shown by itself) and halves the grand slam all the same."""
    rules = RULESETS["online-2deck"].with_options(auto_expose_fourth=True)
    everything = [card for card in POINT_CARDS for _ in range(2)]
    deal = {
        "captured": {"N": everything, "E": [], "S": [], "W": []},
        "holders": {"SQ": ["E"], "DJ": ["E"], "C10": ["S"], "HA": ["W"]},
        "exposed": {"SQ": ["shown"], "DJ": ["shown"], "C10": ["shown"], "HA": ["shown"]},
    }
    valid, problems = read_deal(deal, rules=rules)
    assert problems == []
    changed = _without_exposures(valid, "W")
    whole = score_valid_deal(changed, rules)["sides"]
    assert whole != score_valid_deal(valid, rules)["sides"]
    assert sides_with_other_exposures(valid, rules, score_valid_deal(valid, rules)["raw"], changed) == whole
