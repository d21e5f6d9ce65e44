"""The game boundary (scoring.games.base): 华牌 is a `Game` found by id, the site asks it and
not the engine's modules for what depends on the law, and nothing outside scoring/games/
branches on a game's or a rule set's name."""

import ast
import json
import re
import subprocess
import sys

import pytest

from scoring.engine.standings import Format
from scoring.games import DEFAULT_GAME, GAMES, game_of, get_game
from scoring.games.base import Game, GameBase
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


def test_the_standings_group_a_match_by_the_events_game():
    """The pure standings ask the game their `Format` names (an event's default game when left
    out) for a table's units: 华牌's 局; 升级's match is won by levels, in no units."""
    deals = [(600, -600), (500, -500), (-200, 200)]
    units = Format(mode="games", threshold=1000).units(deals)
    assert [(unit.ns, unit.ew, unit.finished) for unit in units] == [(1100, -1100, True), (-200, 200, False)]
    assert Format(mode="games", threshold=1000, game="shengji").units(deals) == []


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
    assert game.deal_keys and all(isinstance(key, str) for key in game.deal_keys)  # kept whole in game_data
    assert all(spec.name and spec.level in ("deal", "event") and hasattr(spec, "default") for spec in game.option_specs)


# Every game's id and every rule set's name: the core compares none of them.
NAMES = set(GAMES) | set(RULESETS) | {name for game in GAMES.values() for name in game.rulesets}


def test_nothing_outside_the_games_branches_on_a_game_or_rule_set_name():
    names = NAMES
    assert {"bengbu-doudizhu", "paohuzi"} <= names
    outside = _outside_the_games()
    assert len(outside) > 50
    branching = {str(path.relative_to(REPO)): found for path in outside if (found := _name_comparisons(path, names))}
    assert branching == {}


def test_the_scan_finds_a_branch_on_a_rule_set_name(tmp_path):
    planted = tmp_path / "view.py"
    planted.write_text('if event.ruleset == "online-2deck":\n    decks = 2\n', encoding="utf-8")
    assert _name_comparisons(planted, set(RULESETS)) == [(1, "online-2deck")]


def _game_probes(path):
    """(line, member) of every `getattr`/`hasattr` on a game or its rules: a name holding "game"
    or "rules", `game_of(…)`, `get_game(…)`, `event_rules(…)` or an attribute `.game`. The
    optional members are `GameBase`'s, asked directly; what a rule set says beyond the protocol
    is asked of its game (`GameBase.card_copies`, `normalises`, `ruleset_label`)."""

    def is_a_game(node):
        if isinstance(node, ast.Name):
            return "game" in node.id or "rules" in node.id
        if isinstance(node, ast.Attribute):
            return node.attr == "game"
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("game_of", "get_game", "event_rules")
        )

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and is_a_game(node.args[0])
        ):
            member = node.args[1]
            found.append((node.lineno, member.value if isinstance(member, ast.Constant) else "?"))
    return found


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_states_its_optional_members_through_the_base_class(game_id):
    assert isinstance(GAMES[game_id], GameBase)


def test_nothing_outside_the_games_probes_a_game_with_getattr():
    outside = _outside_the_games()
    probing = {str(path.relative_to(REPO)): found for path in outside if (found := _game_probes(path))}
    assert probing == {}


def test_the_scan_finds_a_game_probed(tmp_path):
    planted = tmp_path / "sheet.py"
    planted.write_text(
        'x = getattr(game_of(event), "sheet_note", "")\ny = hasattr(game, "entry_help")\n'
        'z = getattr(event_rules(event), "decks", 1)\nw = getattr(rules, "normalises", False)\n',
        encoding="utf-8",
    )
    assert _game_probes(planted) == [(1, "sheet_note"), (2, "entry_help"), (3, "decks"), (4, "normalises")]


# The games' own packages (scoring/games/<game>/): what they define is the game's, asked of it.
GAME_PACKAGES = {path.parent.name for path in (REPO / "scoring" / "games").glob("*/__init__.py")}


def _outside_the_games():
    """Every module of scoring/ outside scoring/games/ (migrations are history: left as written)."""
    return [
        path
        for path in (REPO / "scoring").rglob("*.py")
        if "games" not in path.relative_to(REPO / "scoring").parts[:1] and "migrations" not in path.parts
    ]


def _game_imports(path, package=None):
    """(line, module, name) of every name a module imports from a game's own package
    (`scoring.games.<game>` and its modules), relative imports resolved from its `package`
    (its folder under the repository: ["scoring", "results"]); `import` of such a module gives
    the name "*"."""
    package = package or list(path.relative_to(REPO).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            parts = module.split(".")
            if parts[:2] == ["scoring", "games"] and len(parts) > 2 and parts[2] in GAME_PACKAGES:
                found += [(node.lineno, module, alias.name) for alias in node.names]
            elif parts == ["scoring", "games"]:  # `from scoring.games import huapai`
                found += [(node.lineno, f"{module}.{a.name}", "*") for a in node.names if a.name in GAME_PACKAGES]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == ["scoring", "games"] and len(parts) > 2 and parts[2] in GAME_PACKAGES:
                    found.append((node.lineno, alias.name, "*"))
    return found


# What a module outside scoring/games/ may still import from a game's own package, and why:
# {(module importing, module imported): names}. Anything else that depends on a game's law is
# asked of the event's game (`scoring.games.game_of(event)`: its `match_units`, `entry_grid`,
# `rules`…) or of `scoring.games.stored`. An entry no longer used must go (the test after next).
ALLOWED_GAME_IMPORTS = {
    # 华牌's card grid widget: its rows' cards and labels (rows from `Game.entry_grid`).
    ("scoring/entry/grid.py", "scoring.games.huapai"): {"EXPOSABLE", "POINT_CARDS", "card_label"},
    # The penalty field's bound is 华牌's law (the only game with penalty points).
    ("scoring/web/forms.py", "scoring.games.huapai"): {"PENALTY_MIN"},
    # The preview's holder questions and the blind entries' differences read 华牌's cards.
    ("scoring/entry/selectors.py", "scoring.games.huapai"): {"EXPOSABLE", "POINT_CARDS", "card_label"},
    # The score sheet's columns of a grid game are 华牌's point cards.
    ("scoring/exports/scoresheets.py", "scoring.games.huapai"): {"EXPOSABLE", "POINT_CARDS", "card_label"},
    # The results workbook writes a grid deal's cards, holders and exposures in 华牌's words.
    ("scoring/exports/xlsx.py", "scoring.games.huapai"): {"card_label"},
    ("scoring/exports/xlsx.py", "scoring.games.huapai.deal_text"): {"exposed_text", "holders_text"},
    # A player's record names the cards he exposed, in 华牌's words.
    ("scoring/results/records.py", "scoring.games.huapai"): {"card_label"},
    ("scoring/results/records.py", "scoring.games.huapai.deal_text"): {"exposure_word"},
    # The traveller draws a grid deal's cards per seat, in 华牌's words.
    ("scoring/results/travellers.py", "scoring.games.huapai"): {"card_label"},
    ("scoring/results/travellers.py", "scoring.games.huapai.deal_text"): {"cards_text", "exposure_word", "per_copy"},
    # The publication checklist compares the holders two sides gave, by 华牌's cards.
    ("scoring/rounds/publication.py", "scoring.games.huapai"): {"card_label"},
    # A claim's fall of the remaining point cards (华牌's §7 claims).
    ("scoring/rulings/calls.py", "scoring.games.huapai"): {"POINT_CARDS", "card_label", "parse_card"},
    # The table link shows the verifying side a grid deal in 华牌's words.
    ("scoring/table_entry/state.py", "scoring.games.huapai.deal_text"): {"cards_text", "exposed_text", "holders_text"},
    # The referees' confirm page shows a grid deal in 华牌's words.
    ("scoring/web/referee/board_views.py", "scoring.games.huapai.deal_text"): {
        "cards_text",
        "exposed_text",
        "holders_text",
    },
    # 华牌's statistics are counted from its card deal (other games count theirs: `Game.seat_statistics`).
    ("scoring/results/statistics.py", "scoring.games.huapai.player_stats"): {
        "PlayerStats",
        "deal_statistics",
        "from_stored",
    },
    # Two of 华牌's statistics raise the referees' plausibility flags.
    ("scoring/table_entry/flags.py", "scoring.games.huapai.player_stats"): {"STORED_FIELDS"},
    # 华牌's options have fields of their own on the event form (`Game.generic_options` False).
    ("scoring/web/organiser/event_form.py", "scoring.games.huapai.rulesets"): {
        "NORMALISATIONS",
        "SCALE_MAX",
        "SCALE_MIN",
    },
}


def _imported_game_names():
    """{(module importing, module imported): names} over every module outside scoring/games/."""
    found = {}
    for path in _outside_the_games():
        for _line, module, name in _game_imports(path):
            found.setdefault((str(path.relative_to(REPO)), module), set()).add(name)
    return found


def test_nothing_outside_the_games_imports_a_games_own_names_but_those_allowed():
    """A game's own names (华牌's `split_games`, its rule sets…) are asked of the event's game:
    a name imported from a game's package that `ALLOWED_GAME_IMPORTS` does not list is a leak."""
    found = _imported_game_names()
    assert len(found) > 10  # the scan sees the imports that stay
    unlisted = {key: names - ALLOWED_GAME_IMPORTS.get(key, set()) for key, names in found.items()}
    assert {key: names for key, names in unlisted.items() if names} == {}


def test_the_allowed_game_imports_are_all_still_made():
    """An import no longer made leaves the allow-list, so that it cannot come back unseen."""
    found = _imported_game_names()
    stale = {key: names - found.get(key, set()) for key, names in ALLOWED_GAME_IMPORTS.items()}
    assert {key: names for key, names in stale.items() if names} == {}


def test_the_scan_finds_a_games_own_name_imported(tmp_path):
    planted = tmp_path / "view.py"
    planted.write_text(
        "from scoring.games.huapai import split_games\n"
        "from scoring.games import game_of, huapai\n"
        "import scoring.games.paohuzi.match\n"
        "from scoring.games.stored import event_rules\n"
        "from ..games.shengji.game import SHENGJI\n"
        "from ..games import GAMES\n",
        encoding="utf-8",
    )
    assert _game_imports(planted, package=["scoring", "results"]) == [
        (1, "scoring.games.huapai", "split_games"),
        (2, "scoring.games.huapai", "*"),
        (3, "scoring.games.paohuzi.match", "*"),
        (5, "scoring.games.shengji.game", "SHENGJI"),
    ]


def test_nothing_outside_the_games_reads_an_events_rules_but_through_its_game():
    """One way to an event's rules (`scoring.games.stored.event_rules`, the event's game): no
    module outside scoring/games/ takes an event's rules or scores its stored deals from 华牌."""
    outside = _outside_the_games()
    importing = {}
    for path in outside:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "scoring.games.huapai.stored":
                names = [a.name for a in node.names if a.name in {"event_rules", "score_stored", "apply_result"}]
                if names:
                    importing[str(path.relative_to(REPO))] = names
    assert importing == {}


# Branches by proxy. Every game's deal is stored alike (`Deal.game_data`), so "does this game
# keep its deal on the card columns?" (`deal_keys is None`, "is this 华牌?" asked another way) is
# asked nowhere. The one question left is how a deal is drawn: on the game's own grid (华牌's
# point cards by seat) or in its fields' words, `entry.game_fields.on_its_grid`. Each place that
# asks it is listed with why; a new one fails.
GRID_QUESTIONS = {
    # Travellers (the page and the PDF), the results workbook and the referees' confirm page:
    # the cards of each seat in columns, or the deal in its fields' words.
    "scoring/results/travellers.py": 1,
    "scoring/exports/pdf.py": 1,
    "scoring/exports/xlsx.py": 1,
    # The score sheet: the point cards' columns, or a column per field.
    "scoring/exports/scoresheets.py": 1,
    "scoring/web/referee/board_views.py": 1,
    # The preview's questions about holders (who held ♠Q…), which only a card grid asks.
    "scoring/entry/selectors.py": 1,
    # A board as the table link shows it to the verifying side: its cards, or its fields' words.
    "scoring/table_entry/state.py": 1,
}


def _proxy_branches(path):
    """Comparisons of a game's `deal_keys` with None (line numbers)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Attribute)
            and node.left.attr == "deal_keys"
            and any(isinstance(c, ast.Constant) and c.value is None for c in node.comparators)
        ):
            found.append(node.lineno)
    return found


def _grid_questions(path):
    """Calls of `on_its_grid` (line numbers)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "on_its_grid"
    ]


def test_no_branch_asks_how_a_game_stores_its_deal():
    found = {str(path.relative_to(REPO)): lines for path in _outside_the_games() if (lines := _proxy_branches(path))}
    assert found == {}


def test_how_a_deal_is_drawn_is_asked_only_where_listed():
    found = {
        str(path.relative_to(REPO)): len(lines)
        for path in _outside_the_games()
        if (lines := _grid_questions(path)) and not str(path).endswith("entry/game_fields.py")
    }
    assert found == GRID_QUESTIONS


def test_the_scan_finds_a_grid_question(tmp_path):
    planted = tmp_path / "paper.py"
    planted.write_text("if on_its_grid(game, rules):\n    grid = True\n", encoding="utf-8")
    assert _grid_questions(planted) == [1]


def test_the_scan_finds_a_branch_by_proxy(tmp_path):
    planted = tmp_path / "page.py"
    planted.write_text("if game.deal_keys is None:\n    grid = True\n", encoding="utf-8")
    assert _proxy_branches(planted) == [1]


# The scripts draw whatever seats and sides the page and the state give them (the game's).
SIDES_IN_SCRIPTS = re.compile(
    r"""["'](NS|EW)["']|\[\s*["']N["']\s*,\s*["']E["']\s*,\s*["']S["']\s*,\s*["']W["']\s*\]"""
)


def _sides_named(text):
    return [match.group(0) for match in SIDES_IN_SCRIPTS.finditer(text)]


def test_no_script_names_a_tables_sides_or_seats():
    named = {
        str(path.relative_to(REPO)): found
        for path in sorted((REPO / "static" / "js").glob("*.js"))
        if (found := _sides_named(path.read_text(encoding="utf-8")))
    }
    assert named == {}


def test_the_script_scan_finds_sides_and_seats_named():
    assert _sides_named('var s = ["N", "E", "S", "W"]; x === "NS" ? "EW" : y') == [
        '["N", "E", "S", "W"]',
        '"NS"',
        '"EW"',
    ]
