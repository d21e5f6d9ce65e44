"""Taking a backup, its files and manifest, its check by restoring it, the rotation."""

import contextlib
import fcntl
import json

import pytest
from django.test import override_settings

from scoring.archive.database import import_archive
from scoring.backups import services
from scoring.models import Backup
from tests.archives import pairs_archive

pytestmark = pytest.mark.django_db(transaction=True)


def a_round_in_play():
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=2)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


@pytest.fixture
def backup_dir(tmp_path):
    with override_settings(HUAPAI_BACKUP_DIR=tmp_path / "backups", HUAPAI_BACKUP_COPY_DIR=tmp_path / "copy"):
        yield tmp_path / "backups"


def test_a_backup_has_its_checksum_and_manifest_and_is_proven(backup_dir):
    event = a_round_in_play()
    row = services.take_backup("manual")
    assert row.status == Backup.Status.OK, row.message
    path = backup_dir / row.file
    assert services.sha256_of(path) == row.checksum
    manifest = json.loads((backup_dir / (row.file + ".json")).read_text())
    assert manifest["sha256"] == row.checksum and manifest["size"] == path.stat().st_size
    assert manifest["row_counts"]["scoring_event"] == 1
    assert [e["slug"] for e in manifest["events"]] == [event.slug]
    assert manifest["events"][0]["rounds"] == [{"number": 1, "status": "in_play"}]
    assert (backup_dir.parent / "copy" / row.file).read_bytes() == path.read_bytes()
    # Entrants' codes, table tokens and password hashes: readable by the site's user alone.
    assert {oct(p.stat().st_mode & 0o777) for p in backup_dir.iterdir()} == {"0o600"}
    assert oct(backup_dir.stat().st_mode & 0o777) == "0o700"


def test_a_backup_that_cannot_be_written_is_failed_and_leaves_no_part(backup_dir, monkeypatch):
    from scoring.backups import files

    def broken(target, read_manifest):
        target.write_bytes(b"half")
        raise OSError("disk full")

    monkeypatch.setattr(files, "dump", broken)
    row = services.take_backup("manual")
    assert (row.status, row.message) == (Backup.Status.FAILED, "backup failed: disk full")
    assert list(backup_dir.iterdir()) == []


def test_a_write_while_the_backup_is_taken_is_in_neither_the_file_nor_its_manifest(backup_dir, monkeypatch):
    """The manifest and the file are one snapshot: a write committed by another connection
    between the manifest's reading and the file's writing is in neither (SQLite: one read
    transaction; PostgreSQL: pg_dump --snapshot), so the check still matches."""
    import threading

    from django.db import connection

    from scoring.backups import manifest

    a_round_in_play()
    read = manifest.database_contents

    def read_then_another_writes():
        contents = read()

        def write():
            try:
                Backup.objects.create(reason="meanwhile")
            finally:
                connection.close()

        writer = threading.Thread(target=write)
        writer.start()
        writer.join()
        return contents

    monkeypatch.setattr(services, "database_contents", read_then_another_writes)
    row = services.take_backup("manual")
    assert Backup.objects.filter(reason="meanwhile").exists()
    assert row.status == Backup.Status.OK, row.message


@contextlib.contextmanager
def another_check_running(backup_dir):
    """Another worker's check holding its shared lock (its own connection, or its own file)."""
    from django.db import connection

    if connection.vendor == "sqlite":
        with open(backup_dir / services.CHECK_LOCK_FILE, "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_SH)
            yield
        return
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock_shared(%s)", [services.CHECK_LOCK_KEY])
        yield


def test_what_a_check_stopped_midway_left_is_dropped_by_the_next_but_never_while_one_runs(backup_dir):
    """A worker stopped during a check (a restart) left a whole scratch copy of the database,
    and every restart mid-check another: the next check drops them, when no check runs."""
    from django.db import connection

    from scoring.backups import files

    a_round_in_play()
    assert services.take_backup("manual").status == Backup.Status.OK
    if connection.vendor == "sqlite":
        left = backup_dir / "check-stopped"
        left.mkdir()
        (left / "check.sqlite3").write_bytes(b"a scratch copy")

        def still_there():
            return left.exists()
    else:
        left = f"{connection.settings_dict['NAME'][:40]}_check_0123456789ab"
        files.create_postgres_database(left)

        def still_there():
            return left in files.postgres_databases()

    try:
        with another_check_running(backup_dir):
            assert services.take_backup("manual").status == Backup.Status.OK
            assert still_there()  # it may be the running check's own
        assert services.take_backup("manual").status == Backup.Status.OK
        assert not still_there()
    finally:
        if connection.vendor != "sqlite":
            files.drop_postgres_database(left)


IN_MEMORY = {"BACKEND": "django.core.files.storage.InMemoryStorage"}


def test_each_backup_is_copied_to_the_object_store_and_rotated_there_too(backup_dir, settings):
    """A second place through Django's storage settings (an object store in production, here
    Django's in-memory storage): the three files, byte for byte, and gone when rotated out."""
    from django.core.files.storage import storages

    settings.STORAGES = {**settings.STORAGES, "backups": IN_MEMORY}
    settings.HUAPAI_BACKUP_STORAGE = "backups"
    a_round_in_play()
    with override_settings(HUAPAI_BACKUP_KEEP=1):
        first = services.take_backup("manual", check=False)
        store = storages["backups"]
        for name in (first.file, first.file + ".sha256", first.file + ".json"):
            with store.open(services.STORED_PREFIX + name) as copy:
                assert copy.read() == (backup_dir / name).read_bytes(), name
        second = services.take_backup("manual")
    assert second.status == Backup.Status.OK, second.message
    assert not store.exists(services.STORED_PREFIX + first.file)
    assert store.exists(services.STORED_PREFIX + second.file)


def test_a_backup_the_object_store_refuses_is_failed_not_quietly_kept_in_one_place(backup_dir, settings, monkeypatch):
    from django.core.files.storage import InMemoryStorage

    settings.STORAGES = {**settings.STORAGES, "backups": IN_MEMORY}
    settings.HUAPAI_BACKUP_STORAGE = "backups"
    a_round_in_play()

    def unreachable(self, name, content, max_length=None):
        raise OSError("the object store does not answer")

    monkeypatch.setattr(InMemoryStorage, "save", unreachable)
    row = services.take_backup("manual", check=False)
    assert row.status == Backup.Status.FAILED and "does not answer" in row.message
