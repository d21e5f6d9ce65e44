"""A SQLite-only install needs neither psycopg nor redis: every module of the site imports,
the checks pass and a page renders with both made unimportable."""

import subprocess
import sys

from tests.conftest import REPO

BLOCKED = """
import importlib.abc, sys

class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {"psycopg", "psycopg2", "redis"}:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None

sys.meta_path.insert(0, Missing())
"""

IMPORT_EVERYTHING = """
import os, pkgutil, importlib
os.environ.update(
    DJANGO_SETTINGS_MODULE="huapai.settings", DEBUG="1", DATABASE_URL="sqlite:///:memory:", ALLOWED_HOSTS="testserver"
)
os.environ.pop("REDIS_URL", None)
import django
django.setup()
import huapai.urls  # registers the URL converters the URL modules use
import scoring
for module in pkgutil.walk_packages(scoring.__path__, "scoring."):
    importlib.import_module(module.name)
from django.core.management import call_command
call_command("check")
call_command("migrate", verbosity=0)
from django.test import Client
assert Client().get("/").status_code == 200
print("ok")
"""


def test_the_site_runs_on_sqlite_without_psycopg_or_redis():
    completed = subprocess.run(
        [sys.executable, "-c", BLOCKED + IMPORT_EVERYTHING], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert completed.stdout.strip().endswith("ok")
