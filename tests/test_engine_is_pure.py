"""The rules engine imports no Django and touches no database."""

import subprocess
import sys

from tests.conftest import REPO


def test_the_rules_engine_imports_without_django():
    code = (
        "import sys, scoring.rules, scoring.scorefile;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'sqlite3', 'psycopg'});"
        "print(','.join(bad))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert completed.stdout.strip() == ""
