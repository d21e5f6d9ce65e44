"""Rules of README §2–§7 checked on hand-worked deals beyond the shared examples."""

import pytest

from scoring.games.huapai import RULESETS, parse_card, score_deal, split_games
from scoring.games.huapai.engine import normalise

BASE = {
    "N": ["HA", "HK"],
    "E": ["SQ"],
    "S": ["DJ"],
    "W": ["C10", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"],
}


@pytest.mark.parametrize(
    ("spelling", "card"),
    [
        ("SQ", "SQ"),
        ("sq", "SQ"),
        ("♠Q", "SQ"),
        ("♠q", "SQ"),
        ("HT", "H10"),
        ("h10", "H10"),
        ("♥10", "H10"),
        ("♣10", "C10"),
        ("ct", "C10"),
        (" dj ", "DJ"),
        ("♦J", "DJ"),
        ("CA", "CA"),
    ],
)
def test_it_reads_every_accepted_card_spelling(spelling, card):
    assert parse_card(spelling) == card


@pytest.mark.parametrize("spelling", ["H1", "X10", "HQQ", "", "Q", 10, None, "H11"])
def test_it_rejects_what_is_not_a_card(spelling):
    assert parse_card(spelling) is None


def test_zero_sum_normalisation_matches_the_readme_example():
    # README §6: each normalised score is rounded before the ×12: −293⅓ → −293 → −3516.
    raw = {"N": -120, "E": -280, "S": 0, "W": 160}
    assert normalise(raw, RULESETS["online"]) == {"N": -960, "E": -3516, "S": 960, "W": 3516}


def test_partnership_difference_matches_the_readme_example():
    rules = RULESETS["huapai"].with_options(normalisation="partnership", normalisation_scale=12)
    raw = {"N": -190, "E": 50, "S": -10, "W": 0}
    assert normalise(raw, rules) == {"N": -1500, "E": 1500, "S": -1500, "W": 1500}


def test_zero_sum_without_scaling_rounds_thirds_to_the_nearest():
    rules = RULESETS["huapai"].with_options(normalisation="zero_sum", normalisation_scale=1)
    # By hand: N = 10 − (−10 + 0 + 5)/3 = 11⅔ → 12; E = −10 − 15/3 = −15; S = 0 − 5/3 → −2; W = 5 − 0 = 5.
    raw = {"N": 10, "E": -10, "S": 0, "W": 5}
    assert normalise(raw, rules) == {"N": 12, "E": -15, "S": -2, "W": 5}


def test_halves_round_away_from_zero():
    rules = RULESETS["huapai"].with_options(normalisation="partnership", normalisation_scale=1)
    # NS 15, EW −10: (15 − (−10))/2 = 12.5 → 13 and −12.5 → −13 (not banker's 12).
    raw = {"N": 10, "E": -10, "S": 5, "W": 0}
    assert normalise(raw, rules) == {"N": 13, "E": -13, "S": 13, "W": -13}


def test_online_auto_exposes_the_fourth_card_and_counts_first_as_shown():
    deal = {
        "ruleset": "online",
        "captured": BASE,
        "holders": {"SQ": "E", "DJ": "N", "C10": "S"},
        "exposed": {"SQ": "first", "DJ": "shown", "C10": "shown"},
        "penalties": {"E": -30},
    }
    # Raw by hand: ♥A auto-exposed doubles hearts. N (−50−40)×2 = −180; E −200 (首明 = 明);
    # S +200; W hearts −110×2 = −220, ×4 变压器 明 = −880. Sum −1060.
    # Zero-sum (4r − T)/3, rounded, then ×12: N 340/3 → 113 → 1356; E 260/3 → 87 → 1044;
    # S 1860/3 = 620 → 7440; W −2460/3 = −820 → −9840. E's penalty added unscaled.
    assert score_deal(deal)["scores"] == {"N": 1356, "E": 1014, "S": 7440, "W": -9840}


def test_huapai_does_not_auto_expose_the_fourth_card():
    deal = {
        "captured": BASE,
        "holders": {"SQ": "N", "DJ": "N", "C10": "S"},
        "exposed": {"SQ": "shown", "DJ": "shown", "C10": "shown"},
    }
    # ♥A stays unexposed: N −90; E −200; S +200; W −110 × (2 × 2 明) = −440.
    assert score_deal(deal)["scores"] == {"N": -90, "E": -200, "S": 200, "W": -440}


def test_family_all_hearts_is_a_fixed_hundred():
    captured = {
        "N": [c for c in BASE["W"] if c.startswith("H")] + ["HA", "HK"],
        "E": ["SQ"],
        "S": ["DJ"],
        "W": ["C10"],
    }
    assert score_deal({"ruleset": "family", "captured": captured})["scores"] == {
        "N": 100,
        "E": -100,
        "S": 50,
        "W": 50,
    }


def test_self_capture_of_the_goat_doubles_it_in_huapai_only():
    captured = dict(BASE, S=["DJ"])
    deal = {"captured": captured, "holders": {"DJ": "S"}}
    assert score_deal(deal)["scores"]["S"] == 200
    assert score_deal(dict(deal, ruleset="pagat"))["scores"]["S"] == 100


def test_penalties_are_added_after_the_transformer_and_never_multiplied():
    deal = {"captured": BASE, "penalties": {"W": -50}}
    # W: hearts −110 ×2 变压器 = −220, then −50.
    assert score_deal(deal)["scores"]["W"] == -270


def test_unknown_ruleset_is_refused():
    with pytest.raises(Exception) as caught:
        score_deal({"ruleset": "poker", "captured": BASE})
    assert caught.value.code == "unknown_ruleset"


def test_games_end_at_the_threshold_and_restart_from_zero():
    games = split_games([(-400, 100), (-700, 0), (200, -300), (900, 50), (0, 10)], threshold=1000)
    assert [(g.ns, g.ew, g.finished, g.winner) for g in games] == [
        (-1100, 100, True, "EW"),
        (1100, -250, True, "NS"),
        (0, 10, False, "EW"),
    ]
    assert [g.deals for g in games] == [[0, 1], [2, 3], [4]]


def test_a_game_ending_on_equal_totals_is_drawn():
    (game,) = split_games([(800, 800)], threshold=800)
    assert game.finished and game.winner is None
