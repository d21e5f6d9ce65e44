"""The game boundary (scoring.games.base): 华牌 is a `Game` found by id, the site asks it and
not the engine's modules for what depends on the law, and nothing outside scoring/games/
branches on a game's or a rule set's name."""

import ast
import json
import subprocess
import sys

import pytest

from scoring.games import DEFAULT_GAME, GAMES, game_of, get_game
from scoring.games.base import Game
from scoring.games.huapai import RULESETS, DealError, score_deal, split_games
from tests.conftest import REPO, load_examples

HUAPAI = get_game("huapai")


def test_huapai_is_the_default_game_and_found_by_its_id():
    assert DEFAULT_GAME == "huapai" and GAMES["huapai"] is HUAPAI
    assert all(game_id == game.id for game_id, game in GAMES.items())
    assert game_of(object()) is HUAPAI  # an event without a game plays 华牌
    with pytest.raises(KeyError):
        get_game("doudizhu")


PROTOCOL = {name for name in Game.__annotations__} | {
    name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
}


def test_huapai_has_every_member_of_the_protocol():
    assert PROTOCOL <= set(dir(HUAPAI))
    assert HUAPAI.seats == ("N", "E", "S", "W") and HUAPAI.sides == {"NS": ("N", "S"), "EW": ("E", "W")}
    assert set(HUAPAI.rulesets) == set(RULESETS) and HUAPAI.default_ruleset in HUAPAI.rulesets
    assert HUAPAI.match_thresholds == (1000, 800)


@pytest.mark.parametrize("example", load_examples(), ids=lambda e: e["name"])
def test_scoring_through_the_game_is_scoring_by_the_law(example):
    expected = example["expected"]
    if "error" in expected:
        with pytest.raises(DealError) as refused:
            HUAPAI.score_deal(example["deal"])
        assert refused.value.code == expected["error"]["code"]
    else:
        assert HUAPAI.score_deal(example["deal"])["scores"] == expected["scores"]


def test_options_read_through_the_game_are_the_rule_sets_fields():
    rules = HUAPAI.rules("huapai", {"self_capture": False, "scale": 2}, game_threshold=800)
    assert not rules.self_capture_doubles and rules.normalisation_scale == 2 and rules.game_threshold == 800
    assert set(HUAPAI.options) == {"first_exposure", "self_capture", "normalisation", "scale"}
    assert HUAPAI.rules("online-2deck").decks == 2


def test_the_entry_grid_has_a_row_per_point_card_copy():
    one, two = HUAPAI.entry_grid(HUAPAI.rules("huapai")), HUAPAI.entry_grid(HUAPAI.rules("online-2deck"))
    assert len(one) == 16 and len(two) == 32
    assert {row.card for row in one} == {row.card for row in two}
    assert [row.label for row in two[:2]] == ["♥A①", "♥A②"]


def test_a_match_is_split_into_units_by_the_game():
    deals = [(600, -600), (500, -500), (-200, 200)]
    units = HUAPAI.match_units(deals, 1000)
    assert [(unit.ns, unit.ew, unit.finished) for unit in units] == [(1100, -1100, True), (-200, 200, False)]
    assert [u.deals for u in units] == [u.deals for u in split_games(deals, 1000)]


def test_the_score_deal_command_scores_a_line_naming_its_game_and_refuses_an_unknown_one():
    deal = load_examples()[0]["deal"]
    lines = "\n".join(json.dumps(line) for line in ({**deal, "game": "huapai"}, {**deal, "game": "mahjong"}, deal))
    completed = subprocess.run(
        [sys.executable, "manage.py", "score_deal"], input=lines.encode(), capture_output=True, cwd=REPO, timeout=60
    )
    results = [json.loads(line) for line in completed.stdout.splitlines()]
    assert results[0] == results[2] == score_deal(deal)
    assert results[1]["error"]["code"] == "unknown_game"


def _name_comparisons(path, names):
    """(line, name) of every comparison with a game id or rule set name as a string constant."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                elements = operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
                found += [(node.lineno, e.value) for e in elements if isinstance(e, ast.Constant) and e.value in names]
        elif isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
            value = node.pattern.value
            if isinstance(value, ast.Constant) and value.value in names:
                found.append((node.pattern.lineno, value.value))
    return found


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_every_member_of_the_protocol(game_id):
    game = GAMES[game_id]
    assert PROTOCOL <= set(dir(game))
    assert set(game.seats) <= {"N", "E", "S", "W"} and game.default_ruleset in game.rulesets
    assert game.deal_keys is not None or callable(getattr(game, "apply_result", None))
    assert all(spec.name and spec.level in ("deal", "event") and hasattr(spec, "default") for spec in game.option_specs)


# Every game's id and every rule set's name: the core compares none of them.
NAMES = set(GAMES) | set(RULESETS) | {name for game in GAMES.values() for name in game.rulesets}


def test_nothing_outside_the_games_branches_on_a_game_or_rule_set_name():
    names = NAMES
    assert {"bengbu-doudizhu", "paohuzi"} <= names
    outside = [
        path
        for path in (REPO / "scoring").rglob("*.py")
        if "games" not in path.relative_to(REPO / "scoring").parts[:1] and "migrations" not in path.parts
    ]
    assert len(outside) > 50
    branching = {str(path.relative_to(REPO)): found for path in outside if (found := _name_comparisons(path, names))}
    assert branching == {}


def test_the_scan_finds_a_branch_on_a_rule_set_name(tmp_path):
    planted = tmp_path / "view.py"
    planted.write_text('if event.ruleset == "online-2deck":\n    decks = 2\n', encoding="utf-8")
    assert _name_comparisons(planted, set(RULESETS)) == [(1, "online-2deck")]


def test_nothing_outside_the_games_reads_an_events_rules_but_through_its_game():
    """One way to an event's rules (`scoring.games.stored.event_rules`, the event's game): no
    module outside scoring/games/ takes an event's rules or scores its stored deals from 华牌."""
    outside = [
        path
        for path in (REPO / "scoring").rglob("*.py")
        if "games" not in path.relative_to(REPO / "scoring").parts[:1] and "migrations" not in path.parts
    ]
    importing = {}
    for path in outside:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "scoring.games.huapai.stored":
                names = [a.name for a in node.names if a.name in {"event_rules", "score_stored", "apply_result"}]
                if names:
                    importing[str(path.relative_to(REPO))] = names
    assert importing == {}
