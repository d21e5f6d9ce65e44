"""Properties of the 跑胡子 engine over random valid deals (hypothesis) and the busy samples."""

import copy

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.games.paohuzi import random_deals, read_deal, score_deal, validate_deal
from tests.conftest import scaled_examples
from tests.games.paohuzi.strategies import SEATS, huang_deals, law_scores, valid_deals, win_deals


def check_result(result):
    scores = result["scores"]
    assert list(scores) == list(SEATS) and all(type(score) is int for score in scores.values())
    assert sum(scores.values()) == 0  # P7
    for seat in SEATS:
        entries = result["breakdown"][seat]
        assert sum(entry["value"] for entry in entries) == scores[seat]
        assert all(type(entry["value"]) is int and entry["rule"] in {"P5", "P6"} for entry in entries)


@settings(max_examples=scaled_examples(500))
@given(valid_deals)
def test_a_valid_deal_scores_what_the_law_says_in_integers_summing_to_zero(deal):
    result = score_deal(deal)
    check_result(result)
    assert result["scores"] == law_scores(deal)


def test_the_busy_samples_are_valid_and_exercise_every_rule():
    seen = set()
    for deal in random_deals(3000, seed=5):
        result = score_deal(deal)
        check_result(result)
        assert result["scores"] == law_scores(deal)
        seen.add(result["result"])
        seen.add(("source", deal.get("source")))
        seen.add(("wang", deal.get("wang", "none")))
        seen.update(("option", name) for name in deal.get("options", {}))
        red = deal.get("red")
        seen.add(("colour", None if red is None else 0 if red == 0 else 1 if red == 1 else 10 if red >= 10 else 2))
        seen.add(("xing", bool(deal.get("xing"))))
        seen.add(("holders", sum(1 for n in deal["wangba"].values() if n)))
    assert {"win", "huang", ("source", "self"), ("source", "draw"), ("source", "discard")} <= seen
    assert {("wang", "wangdiao"), ("wang", "wangdiaowang"), ("wang", "wangchuang"), ("xing", True)} <= seen
    assert {("colour", 0), ("colour", 1), ("colour", 2), ("colour", 10), ("holders", 1), ("holders", 2)} <= seen
    assert {("option", name) for name in ("min_huxi", "tun_step", "di", "discard_pays", "huang_per_wangba")} <= seen


def test_the_samples_are_the_same_for_the_same_seed():
    assert list(random_deals(50, seed=3)) == list(random_deals(50, seed=3)) != list(random_deals(50, seed=4))


@given(huang_deals())
def test_at_a_huang_each_wangba_pays_each_seat_without_one(deal):
    result = score_deal(deal)
    stake = (deal.get("options") or {}).get("huang_per_wangba", 5)
    held = {seat: deal["wangba"].get(seat) or 0 for seat in SEATS}
    empty = [seat for seat in SEATS if not held[seat]]
    assert result["result"] == "huang" and "amount" not in result
    for seat in SEATS:
        expected = len(empty) * -stake * held[seat] if held[seat] else stake * sum(held.values())
        assert result["scores"][seat] == expected


@given(win_deals())
def test_a_win_is_paid_by_the_two_others_or_by_the_discarder_alone(deal):
    result = score_deal(deal)
    x = result["amount"]
    scores = result["scores"]
    assert scores[deal["winner"]] == 2 * x and x >= 1
    alone = deal["source"] == "discard" and (deal.get("options") or {}).get("discard_pays") == "discarder"
    losers = sorted(scores[seat] for seat in SEATS if seat != deal["winner"])
    assert losers == ([-2 * x, 0] if alone else [-x, -x])
    if alone:
        assert scores[deal["from"]] == -2 * x


# P3 combined 番 entries of the law (§3.4 "Checks against the seed"): colour × kind.
COLOURS = {"红胡": 12, "点钩": 1, "黑胡": 0, "none": 5}
KINDS = {"王钓": ("self", "wangdiao", 1), "王闯": ("self", "wangchuang", 2), "王钓王": ("self", "wangdiaowang", 2)}
KINDS |= {"自摸": ("self", "none", 0), "plain": ("draw", "none", 0)}
LAW_FAN = {
    ("红胡", "王钓"): 8,
    ("红胡", "王闯"): 16,
    ("黑胡", "王钓"): 16,
    ("黑胡", "王闯"): 32,
    ("点钩", "王钓"): 12,
    ("点钩", "王闯"): 24,
    ("红胡", "自摸"): 4,
    ("红胡", "plain"): 2,
    ("点钩", "plain"): 3,
    ("黑胡", "plain"): 4,
    ("none", "王钓王"): 8,
    ("none", "plain"): 1,
    ("黑胡", "自摸"): 8,
}


@pytest.mark.parametrize(("colour", "kind"), list(LAW_FAN), ids=["".join(key) for key in LAW_FAN])
def test_fan_categories_multiply_and_a_wang_win_replaces_self_draw(colour, kind):
    source, wang, held = KINDS[kind]
    deal = {"winner": "E", "huxi": 15, "red": COLOURS[colour], "source": source, "wang": wang, "wangba": {"E": held}}
    assert score_deal(deal)["amount"] == LAW_FAN[colour, kind]  # 1 囤 × F


@given(st.integers(0, 26), st.sampled_from(list(KINDS)), st.integers(15, 200), st.integers(0, 4))
def test_fan_is_the_product_of_colour_and_kind_at_any_red_count(red, kind, huxi, xing):
    source, wang, held = KINDS[kind]
    deal = {
        "winner": "S",
        "huxi": huxi,
        "red": red,
        "source": source,
        "wang": wang,
        "wangba": {"S": held},
        "xing": xing,
    }
    colour = 2 if red >= 10 else 3 if red == 1 else 4 if red == 0 else 1
    kind_fan = {"王钓": 4, "王闯": 8, "王钓王": 8, "自摸": 2, "plain": 1}[kind]
    zi = 1 + (huxi - 15) // 3 + xing
    assert score_deal(deal)["amount"] == zi * colour * kind_fan


# Each defect: (the check of the law it breaks, the key it touches, the change, the code).
# A change is applied to a valid win; `needs` says which wins it applies to.
DEFECTS = [
    ("G3", "options", {"bonus": 1}, "bad_option"),
    ("G3", "options", {"di": 11}, "bad_option"),
    ("G3", "options", [], "bad_option"),
    ("V1", "dealer", "N", "unknown_seat"),
    ("V1", "dealer", 1, "unknown_seat"),
    ("V2", "wangba", None, "missing_key"),
    ("V2", "wangba", [], "bad_wangba"),
    ("V2", "wangba", {"N": 0}, "unknown_seat"),
    ("V2", "wangba", {"E": 3}, "bad_wangba"),
    ("V2", "wangba", {"E": True}, "bad_wangba"),
    ("V2", "wangba", {"E": 1, "S": 1, "W": 1}, "bad_wangba"),
    ("V3", "winner", "DELETE", "missing_key"),
    ("V3", "winner", "e", "unknown_seat"),
    ("V3", "winner", ["E"], "unknown_seat"),
    ("V5", "huxi", None, "missing_key"),
    ("V5", "huxi", 201, "bad_huxi"),
    ("V5", "huxi", 20.0, "bad_huxi"),
    ("V5", "huxi", True, "bad_huxi"),
    ("V5", "huxi", 0, "huxi_below_minimum"),
    ("V6", "red", None, "missing_key"),
    ("V6", "red", 27, "bad_red"),
    ("V6", "red", -1, "bad_red"),
    ("V6", "red", False, "bad_red"),
    ("V7", "source", None, "missing_key"),
    ("V7", "source", "zimo", "bad_source"),
    ("V7", "source", ["self"], "bad_source"),
    ("V8", "from", "WINNER", "bad_from"),
    ("V8", "from", "N", "unknown_seat/bad_from"),
    ("V9", "source", "draw", "wangba_self_draw_only"),
    ("V10", "wang", "wangzha", "bad_wang"),
    ("V10", "wang", 0, "bad_wang"),
    ("V11", "xing", 7, "bad_xing"),
    ("V11", "xing", -1, "bad_xing"),
    ("V11", "xing", 2**70, "bad_xing"),
]
ORDER = ["G3", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11"]


def applies(defect, deal):
    """V9's change (a draw instead of 自摸) breaks only a win whose winner holds a 王霸."""
    return defect[0] != "V9" or (deal["wangba"].get(deal["winner"]) or 0) > 0


def apply(defect, deal):
    _, key, value, _ = defect
    if value is None or value == "DELETE":
        deal.pop(key, None)
    elif value == "WINNER":
        deal[key] = deal["winner"]
    else:
        deal[key] = value


def expected_code(defect, deal):
    code = defect[3]
    if code == "unknown_seat/bad_from":  # V8: with 自摸 "from" must be absent, else a seat
        return "bad_from" if deal["source"] == "self" else "unknown_seat"
    return code


@given(win_deals(), st.sampled_from(DEFECTS))
def test_each_defect_alone_gives_exactly_its_own_code(deal, defect):
    assume(applies(defect, deal))
    original = copy.deepcopy(deal)
    code = expected_code(defect, deal)
    apply(defect, deal)
    result, problems = read_deal(deal)
    assert result is None and [problem.code for problem in problems] == [code]
    assert repr(deal) != repr(original)  # the defect changed the deal (True == 1, so compare as written)


@settings(max_examples=scaled_examples(400))
@given(win_deals(), st.sampled_from(DEFECTS), st.sampled_from(DEFECTS))
def test_two_defects_give_the_code_of_the_check_the_law_runs_first(deal, first, second):
    assume(first[1] != second[1] and ORDER.index(first[0]) < ORDER.index(second[0]))
    assume(applies(first, deal) and applies(second, deal))
    apply(second, deal)
    code = expected_code(first, deal)
    apply(first, deal)
    with pytest.raises(Exception) as refused:
        validate_deal(deal)
    assert refused.value.code == code


WIN_KEYS = ["huxi", "red", "source", "from", "wang", "xing"]


@given(huang_deals(), st.sampled_from(WIN_KEYS), st.sampled_from([0, "E", "x"]))
def test_a_huang_with_a_key_of_a_win_is_unexpected_key(deal, key, value):
    deal[key] = value
    _, problems = read_deal(deal)
    assert [problem.code for problem in problems] == ["unexpected_key"]


@given(huang_deals(), st.sampled_from(WIN_KEYS))
def test_a_null_win_key_in_a_huang_counts_as_absent(deal, key):
    deal[key] = None
    assert score_deal(deal)["result"] == "huang"


@given(huang_deals(), st.sampled_from([{}, {"E": 1}, {"S": 1, "W": 0}]))
def test_a_huang_needs_both_wangba_in_hands_and_checks_keys_before_that(deal, wangba):
    deal["wangba"] = wangba
    _, problems = read_deal(deal)
    assert [problem.code for problem in problems] == ["bad_wangba"]
    deal["xing"] = 1
    _, problems = read_deal(deal)
    assert [problem.code for problem in problems] == ["unexpected_key"]
