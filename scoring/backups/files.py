"""A database to a file and a file to a database, per vendor.

SQLite through the sqlite3 module's online backup API: a page-by-page copy made inside one read
transaction of the live database, so it is a consistent snapshot while referees keep writing
(a file copy of a live WAL database can tear: the main file without the WAL's last commits).
PostgreSQL through `pg_dump`'s custom format and `pg_restore` (Debian's postgresql-client).

Not django-dbbackup: it would be a new dependency (a hashed lock entry) for what the standard
library and the database's own client do here, and it cannot take the manifest inside the dump's
own snapshot, which is what makes the check exact: `dump` reads the manifest through the live
connection in the same snapshot the file is written from (SQLite: one read transaction on that
connection; PostgreSQL: a REPEATABLE READ transaction whose snapshot `pg_dump --snapshot` shares).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from django.db import connection, connections, transaction
from django.db.utils import load_backend

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from django.db.backends.base.base import BaseDatabaseWrapper

SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}


class BackupToolMissing(RuntimeError):
    pass


def vendor() -> str:
    return connection.vendor


def dump(target: Path, read_manifest: Callable[..., Any]) -> dict[str, Any]:
    """Write the live database to `target`; returns `read_manifest()` as read in the same snapshot."""
    if connection.in_atomic_block:
        raise RuntimeError("a backup is taken outside any transaction (it opens its own snapshot)")
    if connection.vendor == "sqlite":
        return _dump_sqlite(target, read_manifest)
    if connection.vendor == "postgresql":
        return _dump_postgres(target, read_manifest)
    raise RuntimeError(f"no backup for {connection.vendor}")


def _dump_sqlite(target: Path, read_manifest: Callable[..., Any]) -> dict[str, Any]:
    connection.ensure_connection()
    raw = connection.connection  # Django's, in autocommit: no BEGIN of the module's own
    raw.execute("BEGIN DEFERRED")
    try:
        raw.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the read snapshot starts here
        contents = read_manifest()
        copy = sqlite3.connect(target)
        try:
            raw.backup(copy)  # all pages in one step, within this connection's read transaction
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            copy.close()
    finally:
        raw.execute("ROLLBACK")
    return contents


def _client(name: str) -> Any:
    found = shutil.which(name)
    if found is None:
        raise BackupToolMissing(f"{name} is missing: apt-get install postgresql-client")
    return found


def _pg_arguments(settings_dict: Any, name: str | None = None) -> Any:
    arguments = []
    if settings_dict.get("HOST"):
        arguments += ["--host", str(settings_dict["HOST"])]
    if settings_dict.get("PORT"):
        arguments += ["--port", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        arguments += ["--username", settings_dict["USER"]]
    return [*arguments, "--dbname", name or settings_dict["NAME"]]


def _pg_environment(settings_dict: Any) -> Any:
    environment = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        environment["PGPASSWORD"] = settings_dict["PASSWORD"]
    return environment


def _run(command: Any, settings_dict: Any) -> None:
    completed = subprocess.run(command, capture_output=True, text=True, env=_pg_environment(settings_dict), check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"{Path(command[0]).name} failed: {completed.stderr.strip()[-2000:]}")


def _dump_postgres(target: Path, read_manifest: Callable[..., Any]) -> Any:
    pg_dump = _client("pg_dump")
    settings_dict = connection.settings_dict
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
        contents = read_manifest()
        _run(
            [
                pg_dump,
                "--format=custom",
                f"--snapshot={snapshot}",
                "--file",
                str(target),
                *_pg_arguments(settings_dict),
            ],
            settings_dict,
        )
    return contents


# --- restoring -------------------------------------------------------------------------


def restore_sqlite(source: Path, target: Path) -> None:
    """Copy the backup file `source` into the SQLite database at `target` (made if missing;
    replaced page by page if not) through the backup API."""
    original = sqlite3.connect(f"file:{Path(source).resolve()}?mode=ro", uri=True)
    try:
        destination = sqlite3.connect(target, timeout=20)
        try:
            original.backup(destination)
        finally:
            destination.close()
    finally:
        original.close()


def postgres_database_exists(name: str) -> bool:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def postgres_databases() -> Any:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database")
        return [name for (name,) in cursor.fetchall()]


def create_postgres_database(name: str) -> None:
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {connection.ops.quote_name(name)}")


def drop_postgres_database(name: str) -> None:
    if name == connection.settings_dict["NAME"]:
        raise RuntimeError("never the live database")
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)} WITH (FORCE)")


def restore_postgres(source: Any, name: str, *, clean: bool = False) -> None:
    """`pg_restore` the custom-format `source` into the database `name` (which exists); `clean`:
    drop each object first, in one transaction (the live database, `restore --force`)."""
    pg_restore = _client("pg_restore")
    settings_dict = connection.settings_dict
    options = ["--no-owner", "--no-privileges", "--exit-on-error"]
    if clean:
        options += ["--clean", "--if-exists", "--single-transaction"]
    _run([pg_restore, *options, *_pg_arguments(settings_dict, name), str(source)], settings_dict)


@contextmanager
def scratch_default(name: str) -> Iterator[BaseDatabaseWrapper]:
    """Within the block, this thread's `default` connection is the database `name` (a SQLite
    path or a PostgreSQL database) with the live one's settings otherwise: every read of the site
    (ORM and raw SQL alike) then reads it. Other threads keep the live database: Django keeps
    connections per thread."""
    live = connections["default"]
    settings_dict = {**live.settings_dict, "NAME": name}
    scratch = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, "default")
    connections["default"] = scratch
    try:
        yield scratch
    finally:
        scratch.close()
        connections["default"] = live
