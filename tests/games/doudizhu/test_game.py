"""蚌埠斗地主 behind the `Game` protocol: members, rules and options as data, stored deals,
the entry fields, and the sample deals."""

import json
from collections import Counter

import pytest

from scoring.games import GAMES, get_game
from scoring.games.base import Game
from scoring.games.doudizhu import DOUDIZHU, OPTIONS, DealError, Rules, rules_for, score_deal
from scoring.games.doudizhu.samples import random_deals


def test_it_has_every_member_of_the_protocol():
    members = {name for name in Game.__annotations__} | {
        name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
    }
    assert members <= set(dir(DOUDIZHU))
    assert get_game("bengbu-doudizhu") is DOUDIZHU is GAMES[DOUDIZHU.id]
    assert DOUDIZHU.name == "蚌埠斗地主" and DOUDIZHU.seats == ("N", "E", "S", "W")
    assert DOUDIZHU.sides == {"N": ("N",), "E": ("E",), "S": ("S",), "W": ("W",)}
    assert DOUDIZHU.default_ruleset in DOUDIZHU.rulesets and DOUDIZHU.match_thresholds == ()


def test_options_are_data_with_the_laws_defaults():
    assert {name: option.default for name, option in OPTIONS.items()} == {
        "feidan_stack": "add",
        "feidan_reversal": False,
        "tianzha_points": 30,
        "tianzun_points": 6,
        "deals_per_match": 8,
        "standings": "total",
    }
    assert [(option.name, option.level) for option in DOUDIZHU.option_specs] == [
        ("feidan_stack", "deal"),
        ("feidan_reversal", "deal"),
        ("tianzha_points", "deal"),
        ("tianzun_points", "deal"),
        ("deals_per_match", "event"),
        ("standings", "event"),
    ]
    assert DOUDIZHU.options == tuple(OPTIONS)
    assert OPTIONS["tianzha_points"].as_json()["values"] == {"min": 0, "max": 1000}
    assert OPTIONS["feidan_reversal"].as_json()["values"] == [False, True]
    json.dumps([option.as_json() for option in OPTIONS.values()])


def test_rules_take_an_events_options_and_settings_and_store_as_a_plain_dict():
    rules = DOUDIZHU.rules("bengbu-doudizhu", {"feidan_stack": "once", "standings": "table_points"}, deals_per_match=12)
    assert (rules.feidan_stack, rules.standings, rules.deals_per_match) == ("once", "table_points", 12)
    assert rules_for("bengbu-doudizhu", json.loads(json.dumps(rules.options()))) == rules
    assert rules.event_options() == {"deals_per_match": 12, "standings": "table_points"}
    assert DOUDIZHU.rules() == Rules()


@pytest.mark.parametrize(
    ("ruleset", "options", "settings", "code"),
    [
        ("huapai", None, {}, "unknown_ruleset"),
        ("bengbu-doudizhu", {"deals_per_match": 0}, {}, "bad_option"),
        ("bengbu-doudizhu", {"standings": "points"}, {}, "bad_option"),
        ("bengbu-doudizhu", [], {}, "bad_option"),
        ("bengbu-doudizhu", None, {"deals_per_match": True}, "bad_option"),
        ("bengbu-doudizhu", None, {"colour": "red"}, "bad_option"),
    ],
)
def test_bad_rules_are_the_games_refusal(ruleset, options, settings, code):
    with pytest.raises(DealError) as refused:
        DOUDIZHU.rules(ruleset, options, **settings)
    assert refused.value.code == code


def test_read_deal_gives_the_valid_deal_or_the_first_refusal():
    deal, problems = DOUDIZHU.read_deal({"landlord": "S", "bid": "grab", "first_out": "S", "feidan": {"E": 0}})
    assert problems == [] and deal.open and deal.feidan == {}
    deal, problems = DOUDIZHU.read_deal({"landlord": "S", "bid": 5})
    assert deal is None and [problem.code for problem in problems] == ["bad_bid"]


def test_a_stored_deal_has_its_canonical_fields_and_scores():
    rules = DOUDIZHU.rules()
    stored = DOUDIZHU.score_stored(rules, {"landlord": "S", "bid": "grab", "first_out": "S", "feidan": {"W": 0}})
    assert stored["landlord"] == "S" and stored["open"] is True and stored["feidan"] == {}
    assert stored["scores"] == {"N": -9, "E": -9, "S": 27, "W": -9} and stored["result"] == "landlord"
    tian = DOUDIZHU.score_stored(rules, {"tianzun": "E", "board": 3})
    assert tian["tianzha"] == [] and tian["tianzun"] == "E" and "board" not in tian


def test_an_adjusted_score_replaces_the_computed_one():
    rules = DOUDIZHU.rules()
    adjusted = {"N": 5, "E": -5, "S": 0, "W": 0}
    stored = DOUDIZHU.score_stored(rules, {"landlord": "N", "bid": 1, "first_out": "N"}, adjusted)
    assert stored["scores"] == adjusted and stored["result"] == "adjusted" and stored["landlord"] == "N"
    assert all(sum(e["value"] for e in stored["breakdown"][seat]) == adjusted[seat] for seat in adjusted)
    assert DOUDIZHU.score_stored(rules, {"board": 1}, adjusted)["scores"] == adjusted  # never finished
    with pytest.raises(DealError) as refused:
        DOUDIZHU.score_stored(rules, {"landlord": "N", "bid": 9}, adjusted)
    assert refused.value.code == "bad_bid"
    for bad in ({"N": 1}, {"N": True, "E": 0, "S": 0, "W": 0}, {"N": 10**7, "E": 0, "S": 0, "W": 0}, [1, 2]):
        with pytest.raises(DealError) as refused:
            DOUDIZHU.score_stored(rules, {}, bad)
        assert refused.value.code == "bad_adjusted"


def test_the_entry_fields_are_plain_data_in_the_laws_order():
    fields = DOUDIZHU.entry_grid(DOUDIZHU.rules())
    assert [field["key"] for field in fields] == [
        "tianzha",
        "tianzun",
        "landlord",
        "bid",
        "open",
        "first_out",
        "feidan",
    ]
    assert all(field["label"] for field in fields)
    json.dumps(fields, ensure_ascii=False)
    fields[0]["key"] = "changed"
    fields[-1]["max"]["farmer"] = 99
    assert DOUDIZHU.entry_fields()[0]["key"] == "tianzha" and DOUDIZHU.entry_fields()[-1]["max"]["farmer"] == 3


def test_the_sample_deals_are_valid_and_exercise_every_rule():
    deals = list(random_deals(3000, seed=7))
    assert deals == list(random_deals(3000, seed=7))
    assert all(deal["game"] == "bengbu-doudizhu" for deal in deals)
    seen = Counter()
    for deal in deals:
        result = score_deal(deal)
        seen[result["result"]] += 1
        seen.update(entry["rule"] for entries in result["breakdown"].values() for entry in entries)
        seen[("bid", deal.get("bid"))] += 1
        seen[("open", deal.get("open", "absent"))] += 1
        for name, value in (deal.get("options") or {}).items():
            seen[(name, value if type(value) is not int else "int")] += 1
        if "tianzha" in deal and "tianzun" in deal and deal["tianzha"] and deal["tianzun"]:
            seen["both tian"] += 1
    for rule in ("B3", "B5", "B6", "T1", "landlord", "farmers", "tian", "both tian"):
        assert seen[rule] > 0, rule
    for bid in (1, 2, 3, "grab"):
        assert seen[("bid", bid)] > 0
    for value in (True, False, "absent"):
        assert seen[("open", value)] > 0
    for option in (("feidan_stack", "once"), ("feidan_reversal", True), ("tianzha_points", "int")):
        assert seen[option] > 0
