"""make test's PostgreSQL pass (`--database-tests-only`) keeps every test that can reach the
database and leaves out only those that cannot (tests/conftest.py, reaches_the_database)."""

import subprocess
import sys

from tests.conftest import REPO

# One module of each kind: (path, kept in the PostgreSQL pass)
MODULES = {
    "tests/games/test_engine_is_pure.py": False,  # the pure engine: no database
    "tests/web/test_client_address.py": False,  # the client address behind proxies: no database
    "tests/table_entry/test_table_api.py": True,  # pytestmark django_db
    "tests/web/test_public_pages.py": True,  # the `browser` test through live_server
    "tests/web/test_no_server_errors.py": True,  # a module fixture on django_db_setup
    "tests/deploy/test_two_hosts.py": True,  # its own servers on the pass's database: `database`
}


def collected(*options):
    """The modules of MODULES pytest collects tests from with `options` (pyproject's `-q` and
    this `-q`: a line "path: count" a module)."""
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", *options, *MODULES],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return {line.split(": ")[0] for line in completed.stdout.splitlines() if line.startswith("tests/")}


def test_the_postgresql_pass_keeps_every_module_that_reaches_the_database_and_only_those():
    assert collected() == set(MODULES)
    assert collected("--database-tests-only") == {path for path, kept in MODULES.items() if kept}
