"""Scoring a 升级 deal (law §2.3): the bands S2–S5, each seat its side's level gain, the
breakdown adding up, the state after the deal, ranks round the lap."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.games.shengji import State, next_state, rank, score_deal
from tests.games.shengji.strategies import valid_deals

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PARTNERS = {"NS": ("N", "S"), "EW": ("E", "W")}
OTHER = {"NS": "EW", "EW": "NS"}


def oracle(declarer, levels, points):
    """The law's table, written out once more: (rule, declarer after, levels after)."""
    levels = dict(levels)
    if points < 50:
        levels[declarer] += 2
        return "S2", declarer, levels
    if points < 100:
        levels[declarer] += 1
        return "S3", declarer, levels
    if points < 120:
        return "S4", OTHER[declarer], levels
    levels[OTHER[declarer]] += 1
    return "S5", OTHER[declarer], levels


def before(deal):
    if deal.get("state"):
        return deal["state"]["declarer"], deal["state"]["levels"]
    start = deal.get("options", {}).get("start_level", 1)
    return deal["declarer"], {"NS": start, "EW": start}


@given(valid_deals)
def test_a_deal_follows_the_law_s_bands(deal):
    declarer, levels = before(deal)
    rule, after_declarer, after_levels = oracle(declarer, levels, deal["points"])
    result = score_deal(deal)
    assert result["state"] == {"declarer": after_declarer, "levels": after_levels}
    assert result["swap"] == (after_declarer != declarer)
    assert result["ranks"] == {side: RANK_NAMES[(after_levels[side] - 1) % 13] for side in after_levels}
    for side, seats in PARTNERS.items():
        for seat in seats:
            assert result["scores"][seat] == after_levels[side] - levels[side]
            assert [entry["rule"] for entry in result["breakdown"][seat]] == [rule]


@given(valid_deals)
def test_scores_are_integers_and_each_breakdown_adds_up_to_its_seat(deal):
    result = score_deal(deal)
    assert list(result["scores"]) == ["N", "E", "S", "W"] and list(result["breakdown"]) == ["N", "E", "S", "W"]
    for seat, score in result["scores"].items():
        assert type(score) is int and 0 <= score <= 2
        entries = result["breakdown"][seat]
        assert sum(entry["value"] for entry in entries) == score
        assert all(set(entry) == {"rule", "value", "note"} and type(entry["value"]) is int for entry in entries)
        assert all(entry["rule"] in {"S2", "S3", "S4", "S5"} and entry["note"] for entry in entries)
    assert set(result) == {"game", "scores", "breakdown", "state", "ranks", "swap"}


@given(valid_deals)
def test_partners_score_alike_and_only_one_side_gains_so_a_deal_is_not_zero_sum(deal):
    result = score_deal(deal)
    scores = result["scores"]
    assert scores["N"] == scores["S"] and scores["E"] == scores["W"]
    assert scores["N"] == 0 or scores["E"] == 0
    levels = before(deal)[1]
    after = result["state"]["levels"]
    assert sum(scores.values()) == 2 * (after["NS"] + after["EW"] - levels["NS"] - levels["EW"])


@given(valid_deals)
def test_partners_breakdowns_are_separate_lists(deal):
    result = score_deal(deal)
    result["breakdown"]["N"].append({"rule": "S2", "value": 1, "note": "x"})
    assert len(result["breakdown"]["S"]) == 1


def test_the_band_edges():
    start = State("NS", 5, 5)
    found = {points: next_state(start, points)[1:] for points in (0, 45, 50, 95, 100, 115, 120, 200)}
    assert found == {
        0: ("S2", False, "NS", 2),
        45: ("S2", False, "NS", 2),
        50: ("S3", False, "NS", 1),
        95: ("S3", False, "NS", 1),
        100: ("S4", True, "EW", 0),
        115: ("S4", True, "EW", 0),
        120: ("S5", True, "EW", 1),
        200: ("S5", True, "EW", 1),
    }


@given(st.integers(1, 10_000))
def test_a_level_s_rank_goes_round_the_lap(level):
    assert rank(level) == RANK_NAMES[(level - 1) % 13]
    assert rank(level + 13) == rank(level)


def test_the_seed_s_run_and_its_notes():
    """seed 002 模擬: 40 → NS 打3, 80 → 打4, 110 → EW 上台打A, NS 135 → back on 台上 at 5."""
    deal = {"declarer": "NS", "points": 40}
    seen = []
    for points in (40, 80, 110, 135):
        result = score_deal({**deal, "points": points})
        seen.append((result["state"]["declarer"], result["ranks"]))
        deal = {"state": result["state"]}
    assert seen == [
        ("NS", {"NS": "3", "EW": "A"}),
        ("NS", {"NS": "4", "EW": "A"}),
        ("EW", {"NS": "4", "EW": "A"}),
        ("NS", {"NS": "5", "EW": "A"}),
    ]
    notes = score_deal({"declarer": "NS", "points": 40})["breakdown"]
    assert "A→3" in notes["N"][0]["note"] and "不升级" in notes["E"][0]["note"]
