"""The match at a table (§3.1, §0), the options as data (§3.3) and 跑胡子 behind the `Game` protocol."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.games import GAMES, get_game
from scoring.games.base import Game
from scoring.games.paohuzi import (
    DEAL_OPTIONS,
    EVENT_OPTIONS,
    DealError,
    leaders,
    next_dealer,
    play_match,
    random_deals,
    rules_for,
    score_deal,
    split_matches,
    table_points,
)
from tests.games.paohuzi.strategies import SEATS, huang_deals, valid_deals, win_deals

PAOHUZI = get_game("paohuzi")
WIN = {"winner": "S", "huxi": 21, "red": 5, "source": "draw", "from": "W", "xing": 3, "wangba": {}}  # S +12
HUANG = {"winner": None, "wangba": {"E": 2}}  # E −20, S +10, W +10


def test_paohuzi_is_a_game_found_by_its_id_with_every_member_of_the_protocol():
    assert GAMES["paohuzi"] is PAOHUZI and PAOHUZI.id == "paohuzi" and PAOHUZI.name == "跑胡子"
    members = {name for name in Game.__annotations__} | {
        name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
    }
    assert members <= set(dir(PAOHUZI))
    assert PAOHUZI.seats == ("E", "S", "W") and PAOHUZI.sides == {"E": ("E",), "S": ("S",), "W": ("W",)}
    assert PAOHUZI.rulesets == ("paohuzi",) and PAOHUZI.default_ruleset == "paohuzi"
    assert [(option.name, option.level) for option in PAOHUZI.option_specs] == [
        ("min_huxi", "deal"),
        ("tun_step", "deal"),
        ("di", "deal"),
        ("discard_pays", "deal"),
        ("huang_per_wangba", "deal"),
        ("deals_per_match", "event"),
        ("standings", "event"),
    ]
    assert PAOHUZI.options == tuple(option.name for option in PAOHUZI.option_specs)


def test_options_are_data_with_the_law_s_defaults_and_bounds():
    table = {option.name: option.as_json() for option in DEAL_OPTIONS + EVENT_OPTIONS}
    assert table["min_huxi"] == {
        "name": "min_huxi",
        "level": "deal",
        "label": table["min_huxi"]["label"],
        "default": 15,
        "values": {"min": 1, "max": 60},
        "nullable": False,
    }
    assert table["tun_step"]["values"] == {"min": 1, "max": 10} and table["tun_step"]["default"] == 3
    assert table["di"]["values"] == {"min": 0, "max": 10} and table["di"]["default"] == 0
    assert table["discard_pays"]["values"] == ["all", "discarder"] and table["discard_pays"]["default"] == "all"
    assert table["huang_per_wangba"]["values"] == {"min": 0, "max": 100} and table["huang_per_wangba"]["default"] == 5
    assert table["deals_per_match"]["default"] == 9 and table["deals_per_match"]["level"] == "event"
    assert table["standings"] == {
        **table["standings"],
        "level": "event",
        "values": ["total", "table_points"],
        "default": "total",
    }
    json.dumps(table, ensure_ascii=False)


def test_the_rules_of_an_event_are_frozen_plain_data():
    rules = PAOHUZI.rules(
        "paohuzi", {"di": 1, "discard_pays": "discarder"}, deals_per_match=6, standings="table_points"
    )
    assert rules.as_json() == {
        "ruleset": "paohuzi",
        "options": {"min_huxi": 15, "tun_step": 3, "di": 1, "discard_pays": "discarder", "huang_per_wangba": 5},
        "event": {"deals_per_match": 6, "standings": "table_points"},
    }
    assert rules == rules_for({"di": 1, "discard_pays": "discarder"}, deals_per_match=6, standings="table_points")
    with pytest.raises(AttributeError):
        rules.deal.di = 2
    for options, settings in (
        ({"di": 11}, {}),
        ({}, {"deals_per_match": 0}),
        ({}, {"standings": "elo"}),
        ({}, {"x": 1}),
    ):
        with pytest.raises(DealError) as refused:
            PAOHUZI.rules("paohuzi", options, **settings)
        assert refused.value.code == "bad_option"
    with pytest.raises(KeyError):
        PAOHUZI.rules("huapai")


def test_an_event_s_options_are_the_base_a_deal_s_own_options_change():
    rules = PAOHUZI.rules("paohuzi", {"di": 1})
    assert score_deal(WIN, rules)["scores"]["S"] == 14  # 7 子
    assert score_deal({**WIN, "options": {"di": 2}}, rules)["scores"]["S"] == 16
    assert score_deal({**WIN, "options": {"min_huxi": 18}}, rules)["scores"]["S"] == 2 * (2 + 3 + 1)
    with pytest.raises(DealError) as refused:
        score_deal({**WIN, "huxi": 17}, PAOHUZI.rules("paohuzi", {"min_huxi": 18}))
    assert refused.value.code == "huxi_below_minimum"


@pytest.mark.parametrize(("huxi", "tun"), [(15, 1), (17, 1), (18, 2), (20, 2), (21, 3), (23, 3), (24, 4), (200, 62)])
def test_huxi_become_tun_as_the_law_says(huxi, tun):
    assert score_deal({**WIN, "huxi": huxi, "xing": 0})["amount"] == tun


def test_the_winner_deals_next_and_after_a_huang_the_dealer_s_xiajia():
    assert [next_dealer("E", winner) for winner in ("E", "S", "W")] == ["E", "S", "W"]
    assert [next_dealer(dealer, None) for dealer in ("E", "S", "W")] == ["S", "W", "E"]
    assert next_dealer(None, None) is None and next_dealer(None, "W") == "W"


@given(st.lists(st.one_of(win_deals(), huang_deals()), min_size=1, max_size=9), st.sampled_from(SEATS))
def test_a_match_threads_the_dealer_and_adds_the_deals(deals, first):
    for deal in deals:
        deal.pop("dealer", None)
    match = PAOHUZI.play_match(deals, first_dealer=first)
    assert match["dealers"][0] == first and match["deals_played"] == len(deals)
    for index in range(1, len(deals)):
        before = match["dealers"][index - 1]
        winner = deals[index - 1]["winner"]
        assert match["dealers"][index] == (winner if winner else {"E": "S", "S": "W", "W": "E"}[before])
    assert match["totals"] == {seat: sum(score_deal(d)["scores"][seat] for d in deals) for seat in SEATS}
    assert sum(match["totals"].values()) == 0
    assert match["finished"] == (len(deals) == 9)


def test_a_match_is_nine_deals_by_default_and_a_tenth_is_refused():
    deals = [WIN] * 4 + [HUANG] * 5
    match = play_match(deals, first_dealer="E")
    assert match["finished"] and match["totals"] == {"E": -124, "S": 98, "W": 26}
    assert match["dealers"] == ["E", "S", "S", "S", "S", "W", "E", "S", "W"] and match["next_dealer"] == "E"
    assert match["table_points"] == {"E": 0, "S": 4, "W": 2} and match["leaders"] == ("S",)
    with pytest.raises(DealError) as refused:
        play_match([*deals, WIN])
    assert refused.value.code == "match_over"
    short = play_match(deals[:3], rules_for(deals_per_match=3))
    assert short["finished"] and short["deals_played"] == 3


def test_a_match_names_the_invalid_deal_and_keeps_its_code():
    with pytest.raises(DealError) as refused:
        play_match([WIN, HUANG, {**WIN, "huxi": 3}])
    assert refused.value.code == "huxi_below_minimum" and refused.value.deal == 3
    assert refused.value.message.startswith("第 3 把：")


def test_a_recorded_dealer_is_the_dealer_and_the_rule_goes_on_from_it():
    match = play_match([{**HUANG, "dealer": "W"}, HUANG, {**WIN, "dealer": "W"}, HUANG])
    assert match["dealers"] == ["W", "E", "W", "S"]


@pytest.mark.parametrize(
    ("totals", "points"),
    [
        ({"E": 10, "S": 0, "W": -10}, {"E": 4, "S": 2, "W": 0}),
        ({"E": 5, "S": 5, "W": -10}, {"E": 3, "S": 3, "W": 0}),
        ({"E": 0, "S": 0, "W": 0}, {"E": 2, "S": 2, "W": 2}),
        ({"E": -4, "S": 2, "W": 2}, {"E": 0, "S": 3, "W": 3}),
    ],
)
def test_table_points_are_2_for_each_lower_opponent_and_1_for_each_equal_one(totals, points):
    assert table_points(totals) == PAOHUZI.table_points(totals) == points
    assert sum(points.values()) == 6
    assert leaders(totals) == tuple(seat for seat in SEATS if totals[seat] == max(totals.values()))


def test_a_table_s_deals_split_into_matches_of_deals_per_match():
    scores = [score_deal(deal)["scores"] for deal in random_deals(20, seed=1)]
    matches = PAOHUZI.match_units(scores, 9)
    assert [match.deals for match in matches] == [list(range(9)), list(range(9, 18)), [18, 19]]
    assert [match.finished for match in matches] == [True, True, False]
    assert matches[0].totals == {seat: sum(s[seat] for s in scores[:9]) for seat in SEATS}
    tuples = split_matches([tuple(s.values()) for s in scores], 9)
    assert [m.totals for m in tuples] == [m.totals for m in matches]
    standing = matches[0].standing("table_points")
    assert {seat: value[0] for seat, value in standing.items()} == matches[0].table_points
    assert matches[0].standing() == {seat: (matches[0].totals[seat],) for seat in SEATS}


def test_the_entry_fields_describe_the_deal_json():
    fields = PAOHUZI.entry_grid(PAOHUZI.rules("paohuzi", {"min_huxi": 18}))
    assert [field.key for field in fields] == [
        "winner",
        "wangba",
        "huxi",
        "red",
        "source",
        "from",
        "wang",
        "xing",
        "dealer",
    ]
    by_key = {field.key: field for field in fields}
    assert (by_key["huxi"].minimum, by_key["huxi"].maximum) == (18, 200)
    assert by_key["xing"].maximum == 6 and by_key["red"].maximum == 26
    assert by_key["wang"].choices == ("none", "wangdiao", "wangdiaowang", "wangchuang")


@given(valid_deals)
def test_a_stored_deal_is_its_canonical_form_and_its_result(deal):
    rules = PAOHUZI.rules("paohuzi")
    stored = PAOHUZI.score_stored(rules, deal)
    assert stored["scores"] == score_deal(deal)["scores"] == stored["raw"] == stored["sides"]
    canonical = {
        key: stored[key]
        for key in ("winner", "wangba", "dealer", "huxi", "red", "source", "from", "wang", "xing", "options")
        if key in stored
    }
    assert score_deal(canonical)["scores"] == stored["scores"]  # the canonical form scores the same
    assert set(canonical["wangba"]) == set(SEATS)


def test_an_adjusted_score_replaces_the_computed_one():
    rules = PAOHUZI.rules("paohuzi")
    stored = PAOHUZI.score_stored(rules, WIN, {"E": 5, "S": 0, "W": -5})
    assert stored["scores"] == {"E": 5, "S": 0, "W": -5} and stored["winner"] == "S"
    assert all(sum(e["value"] for e in stored["breakdown"][seat]) == stored["scores"][seat] for seat in SEATS)
    assert PAOHUZI.score_stored(rules, {}, {"E": 1, "S": 1, "W": -2})["scores"]["W"] == -2  # an unfinished deal
    for adjusted in ({"E": 1, "S": 1}, {"E": 1, "S": 1, "W": True}, {"E": 1, "S": 1, "W": 10**7}, [1, 2, 3]):
        with pytest.raises(DealError) as refused:
            PAOHUZI.score_stored(rules, WIN, adjusted)
        assert refused.value.code == "bad_adjusted"
    with pytest.raises(DealError) as refused:
        PAOHUZI.score_stored(rules, {**WIN, "huxi": 1}, {"E": 1, "S": 1, "W": -2})
    assert refused.value.code == "huxi_below_minimum"
