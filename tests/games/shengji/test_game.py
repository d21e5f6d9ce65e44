"""升级 behind the `Game` protocol: registered by id, every member there, options as data,
stored deals, the entry fields and the sample deals."""

import pytest

from scoring.games import GAMES, get_game
from scoring.games.base import Game
from scoring.games.shengji import DEAL_OPTIONS, EVENT_OPTIONS, SHENGJI, DealError, random_deals, score_deal


def test_the_game_is_registered_by_its_id():
    assert get_game("shengji") is SHENGJI and GAMES["shengji"] is SHENGJI
    assert SHENGJI.name == "升级"


def test_it_has_every_member_of_the_protocol():
    members = {name for name in Game.__annotations__} | {
        name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
    }
    assert members <= set(dir(SHENGJI))
    assert SHENGJI.seats == ("N", "E", "S", "W") and SHENGJI.sides == {"NS": ("N", "S"), "EW": ("E", "W")}
    assert SHENGJI.default_ruleset in SHENGJI.rulesets
    assert SHENGJI.match_thresholds == () and SHENGJI.match_units([(1, 0)], 0) == []


def test_options_are_data_with_their_defaults():
    assert {name: option.default for name, option in EVENT_OPTIONS.items()} == {
        "start_level": 1,
        "target": 13,
        "deals": None,
    }
    assert list(DEAL_OPTIONS) == ["start_level"] and SHENGJI.options == ("start_level", "target", "deals")
    assert [(option.name, option.level) for option in SHENGJI.option_specs] == [
        ("start_level", "deal"),
        ("target", "event"),
        ("deals", "event"),
    ]
    start = DEAL_OPTIONS["start_level"]
    assert [value for value in (0, 1, 13, 14, True, None, 2.0) if start.allows(value)] == [1, 13]
    assert EVENT_OPTIONS["target"].allows(None) and not EVENT_OPTIONS["target"].allows(1001)
    assert EVENT_OPTIONS["deals"].allows(10**9) and not EVENT_OPTIONS["deals"].allows(0)


def test_read_deal_gives_the_deal_or_its_one_refusal():
    rules = SHENGJI.rules()
    deal, problems = SHENGJI.read_deal({"declarer": "NS", "points": 40}, rules)
    assert problems == [] and deal.points == 40 and deal.first
    deal, problems = SHENGJI.read_deal({"declarer": "NS", "points": 41, "state": 3}, rules)
    assert deal is None and [problem.code for problem in problems] == ["bad_state"]


def test_an_event_s_start_level_applies_to_a_first_deal_instead_of_the_deal_s_own():
    deal = {"declarer": "NS", "points": 40, "options": {"start_level": 5}}
    assert score_deal(deal)["state"]["levels"] == {"NS": 7, "EW": 5}
    assert SHENGJI.score_deal(deal, SHENGJI.rules(options={"start_level": 2}))["state"]["levels"] == {"NS": 4, "EW": 2}
    with pytest.raises(DealError) as refused:
        SHENGJI.score_deal({**deal, "options": {"start_level": 0}}, SHENGJI.rules())
    assert refused.value.code == "bad_option"


def test_a_stored_deal_is_its_result_with_its_canonical_form():
    rules = SHENGJI.rules()
    later = {"state": {"declarer": "EW", "levels": {"NS": 2, "EW": 6}}, "declarer": "EW", "points": 45, "board": 3}
    stored = SHENGJI.score_stored(rules, later)
    assert stored["deal"] == {"state": later["state"], "points": 45}
    # The canonical deal at the top (the state before it, as the site keeps it), the state after under "after".
    alone = score_deal(later)
    assert {key: stored[key] for key in ("state", "points")} == stored["deal"]
    assert stored["after"] == alone["state"]
    assert {key: value for key, value in stored.items() if key not in ("deal", "after", "points")} == {
        **alone,
        "state": later["state"],
    }
    # A first deal starts at the event's start level, its own option checked but not applied.
    first = SHENGJI.score_stored(rules, {"declarer": "NS", "points": 40, "options": {"start_level": 3}})
    assert first["deal"] == {"declarer": "NS", "points": 40}
    assert "state" not in first and first["after"]["levels"] == {"NS": 3, "EW": 1}
    from_two = SHENGJI.score_stored(SHENGJI.rules(options={"start_level": 2}), {"declarer": "NS", "points": 40})
    assert from_two["deal"] == {"declarer": "NS", "points": 40, "options": {"start_level": 2}}
    assert score_deal(from_two["deal"])["state"] == from_two["after"]
    assert score_deal(from_two["deal"])["scores"] == from_two["scores"]
    with pytest.raises(DealError) as refused:
        SHENGJI.score_stored(rules, later, {"N": 1, "E": 1, "S": 1, "W": 1})
    assert refused.value.code == "bad_adjusted"


def test_the_entry_fields_are_plain_descriptions():
    fields = {field.key: field for field in SHENGJI.entry_grid(SHENGJI.rules())}
    assert set(fields) == {"declarer", "points"}
    assert fields["declarer"].choices == ("NS", "EW") and fields["declarer"].first_deal_only
    assert (fields["points"].minimum, fields["points"].maximum, fields["points"].step) == (0, 200, 5)


def test_the_sample_deals_are_valid_busy_and_the_same_for_a_seed():
    deals = list(random_deals(2000, seed=7))
    assert deals == list(random_deals(2000, seed=7)) and deals != list(random_deals(2000, seed=8))
    results = [score_deal(deal) for deal in deals]
    assert all(deal["game"] == "shengji" for deal in deals)
    rules = {entry["rule"] for result in results for entry in result["breakdown"]["N"]}
    assert rules == {"S2", "S3", "S4", "S5"}
    assert any("options" in deal for deal in deals) and any("state" not in deal for deal in deals)
    assert any("state" in deal and "declarer" in deal for deal in deals)
    assert any(max(result["state"]["levels"].values()) > 13 for result in results)
    # Each deal that carries a state carries the one the deal before left.
    for previous, deal in zip(results, deals[1:], strict=False):
        if "state" in deal:
            assert deal["state"] == previous["state"]


def test_shengji_names_a_deal_fu_never_ju():
    """Issue 43 item 2: 升级 has no 局 — a board is a 副 on every page — yet its first-deal refusals
    and its option "每场局数" said 局. Every word it marks for a page says 副 (牌局 "a deal", 平局
    "a draw" and 终局 "at the end" are other words)."""
    import re
    from pathlib import Path

    import scoring.games.shengji as package

    marked = []
    for source in Path(package.__file__).parent.glob("*.py"):
        marked += re.findall(r'_\(\s*"([^"]*)"', source.read_text(encoding="utf-8"))
    assert marked
    wrong = [words for words in marked if "局" in re.sub("牌局|平局|终局", "", words)]
    assert wrong == []


def test_a_side_past_k_reads_past_k_not_back_at_a_low_rank():
    """Issue 43 item 5: past K a side's level read "EW 打2（15）" and its note "K→2", as if the pair
    had gone back to 2. Levels keep counting past K (D-S4) and the rank starts again at A: the
    pages say the level is past K, and so does the note of the deal that took it there."""
    # Worked by hand from §2.3: from Q (12), NS on 台上, 0 points to 台下 is S2: NS up two, 12→14,
    # past K, playing A of the second lap; EW stays at Q. No target: the match goes on (M3).
    rules = SHENGJI.rules(options={"start_level": 12, "target": None, "deals": 5})
    result = SHENGJI.table_match([{"declarer": "NS", "points": 0}], rules)
    assert result["state"]["levels"] == {"NS": 14, "EW": 12}
    assert str(SHENGJI.match_summary(result)) == "NS 打A（14，过K） · EW 打Q（12） · 1 副，未打完"
    first = {"game": "shengji", "declarer": "NS", "points": 0}
    note = score_deal({**first, "options": {"start_level": 12}})["breakdown"]["N"][0]["note"]
    assert note == "台下得0分，不足50：台上连升两级，Q→A，过K"
    assert "过K" not in score_deal(first)["breakdown"]["N"][0]["note"]  # A→3: nothing passed
    assert "过K" not in score_deal({**first, "options": {"start_level": 11}})["breakdown"]["N"][0]["note"]  # J→K


def test_past_k_in_english():
    from django.utils import translation

    from scoring.messages import message_text, term_text

    rules = SHENGJI.rules(options={"start_level": 12, "target": None, "deals": 5})
    result = SHENGJI.table_match([{"declarer": "NS", "points": 0}], rules)
    note = score_deal({"game": "shengji", "declarer": "NS", "points": 0, "options": {"start_level": 12}})
    with translation.override("en"):
        assert "A (14, past K)" in message_text(SHENGJI.match_summary(result))
        assert term_text(note["breakdown"]["N"][0]["note"], SHENGJI).endswith("Q→A, past K")
