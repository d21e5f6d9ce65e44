"""Properties of scoring (law §1.4), against an oracle written from the law's text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.doudizhu import DOUDIZHU, score_deal
from tests.conftest import scaled_examples

from .strategies import SEATS, played_deals, tian_deals

deals = played_deals() | tian_deals()


def law_payments(deal):
    """B1–B7 straight from the law: t_f per farmer."""
    options = deal.get("options") or {}
    bid, landlord = deal["bid"], deal["landlord"]
    b = 3 if bid == "grab" else bid
    is_open = bid == "grab" or deal.get("open") is True
    wins = deal["first_out"] == landlord
    counts = {seat: (deal.get("feidan") or {}).get(seat) or 0 for seat in SEATS}
    if options.get("feidan_stack") == "once":
        counts = {seat: min(count, 1) for seat, count in counts.items()}
    payments = {}
    for farmer in SEATS:
        if farmer == landlord:
            continue
        factor = (3 if wins else 2) if is_open else 1  # B3: 明打 wins 3b and loses 2b
        t = factor * b if wins else -factor * b
        before = t
        t += b * (counts[landlord] - counts[farmer])
        if not options.get("feidan_reversal"):
            t = max(t, 0) if before > 0 else min(t, 0)
        payments[farmer] = t
    return payments


@settings(max_examples=scaled_examples(400))
@given(played_deals())
def test_a_played_deal_scores_as_the_law_says(deal):
    payments = law_payments(deal)
    expected = {seat: -payments[seat] if seat in payments else sum(payments.values()) for seat in SEATS}
    assert score_deal(deal)["scores"] == expected


@settings(max_examples=scaled_examples(300))
@given(deals)
def test_scores_are_ints_zero_sum_and_the_breakdown_adds_up(deal):
    result = score_deal(deal)
    assert list(result["scores"]) == list(SEATS) == list(result["breakdown"])
    assert all(type(score) is int for score in result["scores"].values())
    assert sum(result["scores"].values()) == 0  # B7 and T1: every deal is zero-sum
    for seat in SEATS:
        entries = result["breakdown"][seat]
        assert sum(entry["value"] for entry in entries) == result["scores"][seat]
        assert all(type(entry["value"]) is int and entry["value"] != 0 for entry in entries)
        assert all(entry["rule"] in {"B3", "B5", "B6", "T1"} and entry["note"] for entry in entries)
    assert set(result) == {"game", "scores", "breakdown", "result"}


@settings(max_examples=scaled_examples(400))
@given(played_deals(options=st.fixed_dictionaries({}, optional={"feidan_stack": st.sampled_from(["add", "once"])})))
def test_feidan_never_reverse_a_payment_without_feidan_reversal(deal):
    scores = score_deal(deal)["scores"]
    landlord = deal["landlord"]
    farmers = [seat for seat in SEATS if seat != landlord]
    if deal["first_out"] == landlord:
        assert scores[landlord] >= 0 and all(scores[farmer] <= 0 for farmer in farmers)
    else:
        assert scores[landlord] <= 0 and all(scores[farmer] >= 0 for farmer in farmers)


def test_feidan_reversal_does_reverse_a_payment():
    deal = {"landlord": "E", "bid": "grab", "first_out": "N", "feidan": {"E": 3}}
    assert score_deal(deal)["scores"]["E"] == 0
    reversed_ = score_deal({**deal, "options": {"feidan_reversal": True}})["scores"]
    assert reversed_["E"] > 0 and reversed_["N"] < 0


@given(played_deals(options=st.just({"feidan_stack": "once"})))
def test_once_counts_each_players_feidan_as_one_at_most(deal):
    deal["options"] = {"feidan_stack": "once"}
    clamped = {**deal, "options": {}, "feidan": {seat: min(n, 1) for seat, n in (deal.get("feidan") or {}).items()}}
    assert score_deal(deal)["scores"] == score_deal(clamped)["scores"]


@settings(max_examples=scaled_examples(300))
@given(tian_deals())
def test_a_tian_deal_pays_only_the_holders(deal):
    options = deal.get("options") or {}
    tianzha, tianzun = deal["tianzha"], deal.get("tianzun")
    zha, zun = options.get("tianzha_points", 30), options.get("tianzun_points", 6)
    holders = set(tianzha) | ({tianzun} if tianzun else set())
    payers = [seat for seat in SEATS if seat not in holders]
    result = score_deal(deal)
    assert result["result"] == "tian"
    for seat in SEATS:
        if seat in holders:
            paid = (zha if seat in tianzha else 0) + (zun if seat == tianzun else 0)
            assert result["scores"][seat] == paid * len(payers) >= 0
        else:
            assert result["scores"][seat] == -(zha * len(tianzha) + (zun if tianzun else 0)) <= 0


@pytest.mark.parametrize(
    ("deal", "scores"),
    [
        # D-B8: a seat dealt two 天炸 is still paid once by each payer (the input lists it once).
        ({"tianzha": ["N", "E", "S", "W"]}, {"N": 0, "E": 0, "S": 0, "W": 0}),
        ({"tianzha": ["N", "E", "S"], "tianzun": "W"}, {"N": 0, "E": 0, "S": 0, "W": 0}),
        ({"tianzun": "S", "options": {"tianzun_points": 0}}, {"N": 0, "E": 0, "S": 0, "W": 0}),
        ({"tianzun": "S"}, {"N": -6, "E": -6, "S": 18, "W": -6}),
    ],
)
def test_tian_corner_cases(deal, scores):
    assert score_deal(deal)["scores"] == scores


def test_feidan_count_in_base_points_not_multiplied_by_open_play():
    """D-B4: the 搶牌 example adds 3b for the landlord, not 9b."""
    plain = score_deal({"landlord": "W", "bid": 2, "open": True, "first_out": "W"})["scores"]
    bomb = score_deal({"landlord": "W", "bid": 2, "open": True, "first_out": "W", "feidan": {"W": 1}})["scores"]
    assert bomb["W"] - plain["W"] == 3 * 2 and bomb["N"] - plain["N"] == -2


def test_the_breakdown_names_the_rules_it_applies():
    result = DOUDIZHU.score_deal({"landlord": "E", "bid": "grab", "first_out": "N", "feidan": {"E": 3, "W": 1}})
    assert [entry["rule"] for entry in result["breakdown"]["N"]] == ["B3", "B5", "B6"]
    assert [entry["rule"] for entry in result["breakdown"]["W"]] == ["B3", "B5"]  # cut to 0 exactly
    assert [entry["rule"] for entry in result["breakdown"]["E"]] == ["B3", "B5", "B6", "B5", "B6", "B5"]
    assert "抢牌" in result["breakdown"]["N"][0]["note"] and "飞弹" in result["breakdown"]["N"][1]["note"]


def test_results_are_fresh_objects():
    deal = {"landlord": "E", "bid": 1, "first_out": "E"}
    first = score_deal(deal)
    first["scores"]["E"] = 1000
    first["breakdown"]["E"].append({"rule": "B3", "value": 1, "note": "x"})
    assert score_deal(deal)["scores"]["E"] == 3 and len(score_deal(deal)["breakdown"]["E"]) == 1
