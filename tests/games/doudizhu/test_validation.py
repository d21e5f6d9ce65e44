"""Deal validation (law §0 G1–G3, §1.2 V1–V8): each defect alone gives exactly its own code,
and of two defects the one the law checks first wins."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games.doudizhu import DOUDIZHU, DealError, read_deal, score_deal, validate_deal
from tests.conftest import scaled_examples

from .strategies import SEATS, played_deals, tian_deals


def _farmer(landlord):
    return next(seat for seat in SEATS if seat != landlord)


def _set(key, value):
    def mutate(deal, landlord):
        deal[key] = value

    return mutate


def _drop(key):
    def mutate(deal, landlord):
        deal.pop(key, None)

    return mutate


def _feidan_of(role, count):
    def mutate(deal, landlord):
        deal["feidan"] = {landlord if role == "landlord" else _farmer(landlord): count}

    return mutate


def _grab_closed(deal, landlord):
    deal["bid"] = "grab"
    deal["open"] = False


# (name, rank in the law's order, keys it touches, mutation, code)
DEFECTS = [
    ("unknown game", 0, {"game"}, _set("game", "doudizhu"), "unknown_game"),
    ("options not an object", 1, {"options"}, _set("options", ["feidan_stack"]), "bad_option"),
    ("unknown option", 1, {"options"}, _set("options", {"feidan_double": True}), "bad_option"),
    ("event option in a deal", 1, {"options"}, _set("options", {"deals_per_match": 8}), "bad_option"),
    ("option value out of range", 1, {"options"}, _set("options", {"tianzha_points": 1001}), "bad_option"),
    ("option value of the wrong type", 1, {"options"}, _set("options", {"feidan_reversal": 1}), "bad_option"),
    ("option value unknown", 1, {"options"}, _set("options", {"feidan_stack": "double"}), "bad_option"),
    ("tianzha not a list", 2, {"tianzha"}, _set("tianzha", "N"), "bad_tian"),
    ("tianzha of a non-seat", 2, {"tianzha"}, _set("tianzha", ["N", "X"]), "unknown_seat"),
    ("tianzha of a lower-case seat", 2, {"tianzha"}, _set("tianzha", ["n"]), "unknown_seat"),
    ("tianzha with a seat twice", 2, {"tianzha"}, _set("tianzha", ["E", "S", "E"]), "duplicate_seat"),
    ("tianzun not a string", 3, {"tianzun"}, _set("tianzun", ["N"]), "bad_tian"),
    ("tianzun not a seat", 3, {"tianzun"}, _set("tianzun", "NE"), "unknown_seat"),
    ("天炸 beside play", 4, {"tianzha"}, _set("tianzha", ["W"]), "tian_with_play"),
    ("天尊 beside play", 4, {"tianzun"}, _set("tianzun", "S"), "tian_with_play"),
    ("no bid", 5, {"bid"}, _drop("bid"), "missing_key"),
    ("a bid of null", 5, {"bid"}, _set("bid", None), "missing_key"),
    ("all passed", 5, {"bid"}, _set("bid", "pass"), "passed_out"),
    ("bid 4", 5, {"bid"}, _set("bid", 4), "bad_bid"),
    ("bid 0", 5, {"bid"}, _set("bid", 0), "bad_bid"),
    ("bid true", 5, {"bid"}, _set("bid", True), "bad_bid"),
    ("bid 2.0", 5, {"bid"}, _set("bid", 2.0), "bad_bid"),
    ("bid '3'", 5, {"bid"}, _set("bid", "3"), "bad_bid"),
    ("no landlord", 6, {"landlord"}, _drop("landlord"), "missing_key"),
    ("landlord not a seat", 6, {"landlord"}, _set("landlord", "X"), "unknown_seat"),
    ("landlord a number", 6, {"landlord"}, _set("landlord", 1), "unknown_seat"),
    ("open not a boolean", 7, {"open"}, _set("open", "yes"), "bad_open"),
    ("open 1", 7, {"open"}, _set("open", 1), "bad_open"),
    ("grab played closed", 7, {"bid", "open"}, _grab_closed, "grab_is_open"),
    ("no first out", 8, {"first_out"}, _drop("first_out"), "missing_key"),
    ("first out not a seat", 8, {"first_out"}, _set("first_out", "w"), "unknown_seat"),
    ("feidan not an object", 9, {"feidan"}, _set("feidan", [1]), "bad_feidan"),
    ("feidan of a non-seat", 9, {"feidan"}, _set("feidan", {"X": 1}), "unknown_seat"),
    ("farmer with four 飛彈", 9, {"feidan"}, _feidan_of("farmer", 4), "bad_feidan"),
    ("landlord with six 飛彈", 9, {"feidan"}, _feidan_of("landlord", 6), "bad_feidan"),
    ("negative 飛彈", 9, {"feidan"}, _feidan_of("farmer", -1), "bad_feidan"),
    ("飛彈 true", 9, {"feidan"}, _feidan_of("farmer", True), "bad_feidan"),
    ("飛彈 1.0", 9, {"feidan"}, _feidan_of("landlord", 1.0), "bad_feidan"),
]
defects = st.sampled_from(DEFECTS)


def _refusal(deal):
    with pytest.raises(DealError) as refused:
        score_deal(deal)
    return refused.value


@settings(max_examples=scaled_examples(300))
@given(played_deals(), defects)
def test_each_defect_alone_gives_exactly_its_own_code(deal, defect):
    name, _rank, _keys, mutate, code = defect
    mutate(deal, deal["landlord"])
    error = _refusal(deal)
    assert error.code == code, name
    assert read_deal(deal) == (None, [error])
    assert error.message and error.as_json() == {"error": {"code": code, "message": error.message}}


@settings(max_examples=scaled_examples(500))
@given(played_deals(), defects, defects)
def test_of_two_defects_the_one_checked_first_wins(deal, first, second):
    if first[1] == second[1] or first[2] & second[2]:
        return  # the same check, or the same key: not two defects
    landlord = deal["landlord"]
    first[3](deal, landlord)
    second[3](deal, landlord)
    earlier = min(first, second, key=lambda defect: defect[1])
    assert _refusal(deal).code == earlier[4], (first[0], second[0])


@pytest.mark.parametrize("defect", DEFECTS, ids=[defect[0] for defect in DEFECTS])
def test_each_defect_on_a_plain_deal(defect):
    deal = {"game": "bengbu-doudizhu", "landlord": "N", "bid": 2, "open": True, "first_out": "E"}
    defect[3](deal, "N")
    assert _refusal(deal).code == defect[4]


@pytest.mark.parametrize("key", ["landlord", "bid", "open", "first_out", "feidan"])
@given(deal=tian_deals())
def test_a_tian_deal_carries_no_key_of_play(deal, key):
    assert score_deal(deal)["result"] == "tian"
    deal[key] = {"landlord": "N", "bid": 1, "open": False, "first_out": "N", "feidan": {}}[key]
    error = _refusal(deal)
    assert error.code == "tian_with_play" and key in error.message


@given(tian_deals(), st.sampled_from([d for d in DEFECTS if d[1] <= 1]))
def test_a_tian_deals_options_are_checked_first(deal, defect):
    defect[3](deal, "N")
    deal["landlord"] = "N"
    assert _refusal(deal).code == defect[4]


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ({"tianzha": [], "tianzun": None, "bid": 1, "landlord": "N", "first_out": "N"}, None),  # not a tian deal
        ({"tianzha": None, "bid": 1, "landlord": "N", "first_out": "N"}, None),
        ({"tianzha": [], "landlord": "N", "first_out": "N"}, "missing_key"),
        ({"tianzha": ["N"], "landlord": None, "bid": None, "open": None, "feidan": None}, None),  # null is absent
        ({"tianzha": ["N"], "feidan": {}}, "tian_with_play"),  # an empty object is not absent
        ({"tianzun": "N", "open": False}, "tian_with_play"),
        ({"tianzha": ["N", "N"], "tianzun": 5}, "duplicate_seat"),  # V1 before V2
        ({"tianzha": [None]}, "unknown_seat"),
        ({"tianzha": [["N"]]}, "unknown_seat"),
        ({"tianzha": {"N": 1}}, "bad_tian"),
        ({"tianzun": True}, "bad_tian"),
        ({"bid": "pass", "landlord": "X", "first_out": 5}, "passed_out"),  # V4 before V5, V7
        ({"bid": "PASS", "landlord": "N", "first_out": "N"}, "bad_bid"),
        ({"bid": "grab", "landlord": "N", "first_out": "N"}, None),  # open may be left out
        ({"bid": "grab", "landlord": "N", "open": None, "first_out": "N"}, None),
        ({"bid": 1, "landlord": "N", "open": None, "first_out": "N", "feidan": None}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "feidan": {"N": None, "E": 0}}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "feidan": {"N": 5, "E": 3, "S": 3, "W": 3}}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "feidan": {"E": 9, "X": 1}}, "bad_feidan"),  # entries in order
        ({"bid": 1, "landlord": "N", "first_out": "N", "feidan": {"X": 1, "E": 9}}, "unknown_seat"),
        ({"bid": 1, "landlord": "N", "first_out": "N", "feidan": {"e": 1}}, "unknown_seat"),
        ({"bid": 1, "landlord": "N", "first_out": "N", "options": None}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "options": {"feidan_stack": None}}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "options": {"feidan_stack": "once", "x": 1}}, "bad_option"),
        ({"bid": 1, "landlord": "N", "first_out": "N", "options": {"tianzun_points": 6.0}}, "bad_option"),
        ({"bid": 1, "landlord": "N", "first_out": "N", "board": 7, "note": [1, {}], "table": None}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "game": None}, None),
        ({"bid": 1, "landlord": "N", "first_out": "N", "game": "huapai"}, "unknown_game"),
        ({"bid": 1, "landlord": "N", "first_out": "N", "game": ["bengbu-doudizhu"]}, "unknown_game"),
    ],
)
def test_null_absent_keys_and_the_order_of_checks(deal, code):
    if code is None:
        assert set(score_deal(deal)["scores"]) == set(SEATS)
    else:
        assert _refusal(deal).code == code


@pytest.mark.parametrize("value", [[], "deal", 1, None, True, 2.5])
def test_a_deal_that_is_not_an_object_is_bad_json(value):
    assert _refusal(value).code == "bad_json"
    assert DOUDIZHU.read_deal(value)[1][0].code == "bad_json"


@pytest.mark.parametrize(
    ("deal", "named"),
    [
        ({"landlord": "Q", "bid": 1, "first_out": "N"}, "landlord"),
        ({"landlord": "N", "bid": 1}, "first_out"),
        ({"landlord": "N", "bid": 7, "first_out": "N"}, "7"),
        ({"landlord": "N", "bid": 1, "first_out": "N", "feidan": {"E": 4}}, "E"),
        ({"landlord": "N", "bid": 1, "first_out": "N", "open": "no"}, "'no'"),
        ({"tianzha": ["S", "S"]}, "S"),
        ({"landlord": "N", "bid": 1, "first_out": "N", "options": {"tianzha_points": -1}}, "tianzha_points"),
    ],
)
def test_the_message_names_the_key_seat_or_value_at_fault(deal, named):
    assert named in _refusal(deal).message


@given(played_deals(options=st.just({"feidan_stack": "once", "feidan_reversal": True})))
def test_event_rules_override_the_deals_options_which_are_still_checked(deal):
    rules = DOUDIZHU.rules("bengbu-doudizhu", {"feidan_stack": "add"})
    assert validate_deal(deal, rules).rules == rules
    deal["options"] = {"feidan_stack": "twice"}
    with pytest.raises(DealError) as refused:
        validate_deal(deal, rules)
    assert refused.value.code == "bad_option"


@pytest.mark.parametrize(
    "base",
    [
        {"game": "bengbu-doudizhu", "landlord": "N", "bid": 2, "open": True, "first_out": "E"},
        {"landlord": "W", "bid": "grab", "first_out": "W", "feidan": {"W": 5, "E": 3}},
    ],
)
def test_every_pair_of_defects_in_the_laws_order(base):
    """Every pair, not a sample: the law's order is checked for each two checks."""
    checked = 0
    for first in DEFECTS:
        for second in DEFECTS:
            if first[1] >= second[1] or first[2] & second[2]:
                continue
            deal = dict(base)
            first[3](deal, base["landlord"])
            second[3](deal, base["landlord"])
            assert _refusal(deal).code == first[4], (first[0], second[0])
            checked += 1
    assert checked > 500
