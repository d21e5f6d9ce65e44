"""The pure layer imports no Django and touches no database (docs/architecture.md).

The list is the boundary: a module named here takes and returns plain data, and
this test fails the moment one of them (or anything it imports) loads Django,
sqlite3 or psycopg.
"""

import pkgutil
import subprocess
import sys

import pytest

from tests.conftest import REPO

PURE_MODULES = [
    "scoring.rules",
    *(f"scoring.rules.{module.name}" for module in pkgutil.iter_modules([str(REPO / "scoring" / "rules")])),
    "scoring.scorefile",
    "scoring.standings",
    "scoring.pairing",
    "scoring.brackets",
    "scoring.errors",
    "scoring.archive_format",
    "scoring.deals",
    "scoring.deal_text",
    "scoring.names",
    "scoring.player_stats",
    "scoring.vocabulary",
]


def test_the_list_covers_every_rules_module():
    assert {"scoring.rules.engine", "scoring.rules.deal", "scoring.rules.rulesets", "scoring.rules.samples"} <= set(
        PURE_MODULES
    )


@pytest.mark.parametrize("module", PURE_MODULES)
def test_a_pure_module_imports_without_django(module):
    code = (
        f"import sys, {module};"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'sqlite3', 'psycopg'});"
        "print(','.join(bad))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert completed.stdout.strip() == ""
