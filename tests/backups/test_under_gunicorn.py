"""Backups take themselves under the shipped configuration (issue 41): gunicorn started as
deploy/systemd/huapai-web.service starts it (`gunicorn huapai.wsgi` in the checkout, so
gunicorn.conf.py's workers and their warmers, production settings), with a round in play, takes
one proven backup every HUAPAI_BACKUP_MINUTES, one per interval whatever the number of workers.

On PostgreSQL the site connects as a role of its own, made as docs/deploying.md says (LOGIN
CREATEDB, owning its database), not as the superuser the tests use: without CREATEDB every
backup was taken and every check failed ("permission denied to create database": the check
restores into a scratch database). It runs on the pass's database: SQLite, and PostgreSQL in
make test's PostgreSQL pass."""

import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import REPO

# Its server uses a database of its own, on the pass's vendor.
pytestmark = pytest.mark.database

PG = os.environ.get("HUAPAI_TEST_PG", "postgres://postgres@127.0.0.1:5432")
INTERVAL_SECONDS = 2

SETUP = r"""
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from scoring.archive.database import import_archive
from scoring.rounds.creation import round_pair
players = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(16)]
event = import_archive({"format": "huapai-event/1", "event": {"slug": "by-itself", "name": "自动备份", "kind": "pairs"},
    "players": players, "pairs": [{"id": f"A{i}", "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i in range(8)],
    "rounds": []})
round_pair(event, "swiss")
"""


def _rows(url):
    """The Backup rows, oldest first: (reason, status, file, message, taken_at), read directly
    (a Django process a poll cost a second of the machine's two cores)."""
    sql = "SELECT reason, status, file, message, taken_at FROM scoring_backup ORDER BY taken_at"
    if url.startswith("sqlite"):
        import sqlite3

        with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"), timeout=20)) as connection:
            rows = connection.execute(sql).fetchall()
        return [(*row[:4], datetime.fromisoformat(row[4])) for row in rows]
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as connection:
        return connection.execute(sql).fetchall()


def _psql(sql):
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(sql)


@pytest.fixture
def site_database():
    """A database URL of the pass's vendor; on PostgreSQL, reached as the site's own role."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        folder = Path(tempfile.mkdtemp(prefix="backups-gunicorn-"))
        yield f"sqlite:///{folder / 'site.sqlite3'}"
        shutil.rmtree(folder, ignore_errors=True)
        return
    name = role = f"huapai_by_itself_{os.getpid()}"
    _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _psql(f"DROP ROLE IF EXISTS {role}")
    # docs/deploying.md, "Backups": the site's role may create databases (the check's scratch one).
    _psql(f"CREATE ROLE {role} LOGIN CREATEDB PASSWORD 'by-itself-7'")
    _psql(f"CREATE DATABASE {name} OWNER {role}")
    try:
        yield f"postgres://{role}:by-itself-7@127.0.0.1:5432/{name}"
    finally:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
            # The site's database, and a check's scratch database when the server was stopped
            # during a check (its worker ends without dropping it).
            owned = connection.execute(
                "SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = %s)",
                [role],
            ).fetchall()
            for (database,) in owned:
                connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            connection.execute(f"DROP ROLE IF EXISTS {role}")


def test_the_shipped_gunicorn_takes_a_proven_backup_every_interval_by_itself(site_database, tmp_path):
    if site_database.startswith("postgres") and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is missing (apt-get install postgresql-client)")
    backups = tmp_path / "backups"
    env = dict(
        os.environ,
        DATABASE_URL=site_database,
        DEBUG="0",
        SECRET_KEY="by-itself-" + "k" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="huapai.settings",
        HUAPAI_BACKUP_DIR=str(backups),
        HUAPAI_BACKUP_MINUTES=str(INTERVAL_SECONDS / 60),
        BIND="127.0.0.1:0",
    )
    for setting in ("HUAPAI_WARM_IN_BACKGROUND", "HUAPAI_BACKUP_AUTOMATIC", "REDIS_URL", "WEB_WORKERS"):
        env.pop(setting, None)  # as shipped: the warmer in every worker, backups on, a worker per core
    subprocess.run([sys.executable, "-c", SETUP], cwd=REPO, env=env, check=True, timeout=120)
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi", "--log-level", "warning"],
        cwd=REPO,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        rows = []
        while time.monotonic() < deadline:
            time.sleep(1)
            rows = _rows(site_database)
            if sum(1 for row in rows if row[1] in ("ok", "failed")) >= 2:
                break
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
    done = [row for row in rows if row[1] in ("ok", "failed")]  # taken and checked
    assert len(done) >= 2, rows
    assert all(status == "ok" for _reason, status, *_ in done), done
    assert {reason for reason, *_ in done} == {"interval"}
    for _reason, _status, name, *_ in done:
        assert {path.name for path in backups.iterdir()} >= {name, f"{name}.sha256", f"{name}.json"}
    # One backup an interval, however many workers decide: never two within one.
    times = [row[4] for row in rows]
    gaps = [(later - earlier).total_seconds() for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= INTERVAL_SECONDS - 0.1, gaps
    listed = subprocess.run(
        [sys.executable, "manage.py", "backups"], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
