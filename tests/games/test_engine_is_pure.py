"""The pure layer imports no Django and touches no database (docs/architecture.md).

The list is the boundary: a module named here takes and returns plain data, and
this test fails the moment one of them (or anything it imports) loads Django,
sqlite3 or psycopg.
"""

import subprocess
import sys

import pytest

from tests.conftest import REPO


def _modules_under(package):
    folder = REPO.joinpath(*package.split("."))
    return sorted(
        ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for path in folder.rglob("*.py")
    )


# Every game plug-in (scoring/games/) and the shared competition logic (scoring/engine/) is pure,
# whole; outside them, only the archive's reading and the entry services' errors.
PURE_MODULES = [
    *_modules_under("scoring.games"),
    *_modules_under("scoring.engine"),
    "scoring.archive.format",
    "scoring.entry.errors",
]


def test_the_list_covers_every_game_module():
    assert {
        "scoring.games.options",
        "scoring.games.common",
        "scoring.games.huapai.engine",
        "scoring.games.huapai.deal",
        "scoring.games.huapai.rulesets",
        "scoring.games.huapai.samples",
        "scoring.games.huapai.player_stats",
        "scoring.games.paohuzi.deal",
        "scoring.games.paohuzi.engine",
        "scoring.games.paohuzi.match",
        "scoring.games.paohuzi.game",
        "scoring.games.doudizhu.cards",
        "scoring.games.doudizhu.deal",
        "scoring.games.doudizhu.engine",
        "scoring.games.doudizhu.game",
        "scoring.games.doudizhu.match",
        "scoring.games.doudizhu.options",
        "scoring.games.doudizhu.samples",
        "scoring.games.doudizhu.stored",
        "scoring.games.shengji.cards",
        "scoring.games.shengji.deal",
        "scoring.games.shengji.engine",
        "scoring.games.shengji.options",
        "scoring.games.shengji.match",
        "scoring.games.shengji.game",
        "scoring.games.shengji.samples",
        "scoring.engine.standings",
    } <= set(PURE_MODULES)


@pytest.mark.parametrize("module", PURE_MODULES)
def test_a_pure_module_imports_without_django(module):
    code = (
        f"import sys, {module};"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'sqlite3', 'psycopg'});"
        "print(','.join(bad))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert completed.stdout.strip() == ""
