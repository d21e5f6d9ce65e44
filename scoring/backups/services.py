"""Taking a backup, proving it by restoring it, keeping the right ones, and when to take one.

A backup is three files in HUAPAI_BACKUP_DIR (copied to HUAPAI_BACKUP_COPY_DIR and to the storage
HUAPAI_BACKUP_STORAGE names, when set): the
database (`files.dump`), `<file>.sha256` (as `sha256sum -c` reads it) and `<file>.json`, the
manifest (`manifest.database_contents`, read in the dump's own snapshot, with the time, reason,
size and checksum). Its `Backup` row says whether it was proven: restored into a scratch
database (a temporary SQLite file; a PostgreSQL database created and dropped), its row counts
and every event's standings, recomputed there, equal to the manifest's.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from datetime import UTC, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.files import File
from django.core.files.storage import storages
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from scoring.backups import files
from scoring.backups.manifest import database_contents, differences
from scoring.models import Backup, Event, Round, random_version_start

if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import datetime
    from typing import Any

    from django.core.files.storage.memory import InMemoryStorage

logger = logging.getLogger(__name__)

FORMAT = "huapai-backup/1"
# Backups taken for these reasons are kept by the rotation whatever their age.
MILESTONES = ("publish", "official", "close")
# `backups` and the console call the newest backup overdue this long after the interval: the
# time to take and check one.
GRACE = timedelta(minutes=1)
# PostgreSQL: the advisory lock under which a worker decides to take the next automatic backup.
LOCK_KEY = 0x4855_4250  # "HUBP"


class BackupRefused(RuntimeError):
    pass


def backup_dir() -> Path:
    """HUAPAI_BACKUP_DIR, made if missing (owner only). Refused under anything served over HTTP."""
    folder = Path(settings.HUAPAI_BACKUP_DIR).resolve()
    served = [settings.STATIC_ROOT, *settings.STATICFILES_DIRS, getattr(settings, "MEDIA_ROOT", "") or None]
    for root in filter(None, served):
        root = Path(root).resolve()
        if folder == root or root in folder.parents:
            raise BackupRefused(f"HUAPAI_BACKUP_DIR {folder} is under {root}, which is served over HTTP")
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def companions(path: Path) -> tuple[Path, Path]:
    """The backup file's checksum and manifest, beside it."""
    path = Path(path)
    return path.with_name(path.name + ".sha256"), path.with_name(path.name + ".json")


def read_manifest(path: Path) -> dict[str, Any]:
    return json.loads(companions(path)[1].read_text(encoding="utf-8"))


def verify_checksum(path: Path) -> str:
    """The file's sha256 against its `.sha256`; raises BackupRefused when they differ."""
    checksum_file = companions(path)[0]
    if not checksum_file.exists():
        raise BackupRefused(f"{checksum_file.name} is missing")
    expected = checksum_file.read_text().split()[0]
    found = sha256_of(path)
    if found != expected:
        raise BackupRefused(f"{Path(path).name}: sha256 {found} is not {expected}")
    return found


def take_backup(
    reason: str = "manual", *, check: bool = True, kept: bool | None = None, row: Backup | None = None
) -> Backup:
    """Take a backup now (outside any transaction), check it unless `check` is False, rotate.
    Returns its `Backup` row, whose status says how it went (a failure is logged, never raised)."""
    if kept is None:
        kept = reason in MILESTONES
    if row is None:
        row = Backup.objects.create(reason=reason, kept=kept)
    part = None
    try:
        folder = backup_dir()
        stamp = row.taken_at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        name = f"huapai-{stamp}-{row.pk}-{reason}{files.SUFFIXES[files.vendor()]}"
        path = folder / name
        part = folder / (name + ".part")
        try:
            contents = files.dump(part, database_contents)
        finally:
            if part.exists():
                part.chmod(0o600)  # entrants' codes, table tokens, password hashes: the owner's only
        part.rename(path)
        checksum = sha256_of(path)
        size = path.stat().st_size
        checksum_file, manifest_file = companions(path)
        checksum_file.write_text(f"{checksum}  {name}\n")
        manifest = {
            "format": FORMAT,
            "file": name,
            "sha256": checksum,
            "size": size,
            "taken_at": row.taken_at.isoformat(),
            "reason": reason,
            **contents,
        }
        manifest_file.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
        checksum_file.chmod(0o600)
        manifest_file.chmod(0o600)
        row.file, row.checksum, row.size = name, checksum, size
        row.save(update_fields=["file", "checksum", "size"])
        _copy(path)
    except Exception as problem:
        logger.exception("backup %s failed", row.pk)
        if part is not None:
            part.unlink(missing_ok=True)
        _failed(row, f"backup failed: {problem}")
        return row
    if check:
        check_backup(row)
    rotate()
    return row


def _copy(path: Path) -> None:
    """The three files into HUAPAI_BACKUP_COPY_DIR as well, when it is set, and into the Django
    storage HUAPAI_BACKUP_STORAGE names (an object store of `STORAGES`), when that is set. A copy
    that fails fails the backup: a second place that silently lacks it is no second place."""
    if settings.HUAPAI_BACKUP_COPY_DIR:
        target = Path(settings.HUAPAI_BACKUP_COPY_DIR)
        target.mkdir(parents=True, exist_ok=True, mode=0o700)
        for source in (path, *companions(path)):
            part = target / (source.name + ".part")
            shutil.copyfile(source, part)
            part.chmod(0o600)
            part.rename(target / source.name)
    store = _copy_storage()
    if store is not None:
        for source in (path, *companions(path)):
            name = STORED_PREFIX + source.name
            if store.exists(name):
                store.delete(name)  # a storage renames rather than overwrites
            with source.open("rb") as handle:
                saved = store.save(name, File(handle))
            if saved != name:
                raise OSError(f"the backup storage kept {source.name} as {saved}")


# The folder of a backup's files in the copy storage.
STORED_PREFIX = "huapai-backups/"


def _copy_storage() -> InMemoryStorage | None:
    """The Django storage backups are copied to (`HUAPAI_BACKUP_STORAGE`, an alias of
    `STORAGES`), or None."""
    alias = settings.HUAPAI_BACKUP_STORAGE
    return storages[alias] if alias else None


def _failed(row: Backup, message: str) -> None:
    row.status, row.message = Backup.Status.FAILED, message[:5000]
    row.save(update_fields=["status", "message"])
    logger.error("backup %s (%s): %s", row.pk, row.file or row.reason, message)


def check_backup(row: Backup) -> Backup:
    """Restore the backup into a scratch database, compare it with its manifest, record the
    result on `row` (ok or failed, with the differences in words). Returns the row."""
    try:
        problems = restored_differences(backup_dir() / row.file)
    except Exception as problem:
        logger.exception("backup %s: the check failed", row.pk)
        problems = [f"check failed: {problem}"]
    if problems:
        _failed(row, "; ".join(problems))
    else:
        row.status, row.message = Backup.Status.OK, ""
        row.save(update_fields=["status", "message"])
    return row


def restored_differences(path: Path) -> list[str] | None:
    """Restore `path` into a scratch database (dropped afterwards) and list how what it holds
    differs from its manifest: an empty list proves the backup."""
    path = Path(path)
    checksum = verify_checksum(path)
    manifest = read_manifest(path)
    if manifest.get("sha256") != checksum:
        return [f"{path.name}: the manifest names another file"]
    if manifest["vendor"] != files.vendor():
        return [f"a {manifest['vendor']} backup cannot be checked on {files.vendor()}"]
    sweep_scratch(path.parent)
    with checking(path.parent):
        if files.vendor() == "sqlite":
            # Beside the backups (the same disk, the owner's folder), not /tmp: a big event may not fit there.
            with tempfile.TemporaryDirectory(prefix=SQLITE_SCRATCH_PREFIX, dir=path.parent) as scratch_dir:
                scratch = Path(scratch_dir) / "check.sqlite3"
                files.restore_sqlite(path, scratch)
                with files.scratch_default(str(scratch)):
                    found = database_contents()
        else:
            scratch = f"{_scratch_prefix()}{uuid.uuid4().hex[:12]}"
            files.drop_postgres_database(scratch)
            files.create_postgres_database(scratch)
            try:
                files.restore_postgres(path, scratch)
                with files.scratch_default(scratch):
                    found = database_contents()
            finally:
                files.drop_postgres_database(scratch)
    return differences(manifest, found)


# --- what a check stopped midway leaves ---------------------------------------------------
# A worker stopped during a check (a restart, `systemctl stop`) leaves its scratch database (a
# whole copy of the event's) behind. Every check holds a shared lock while it runs; before it
# starts, it takes the lock exclusively if it can — then no check runs anywhere — and drops
# every scratch left. The lock dies with its holder: PostgreSQL's advisory lock with the session,
# SQLite's lock file (`flock`) with the process.
CHECK_LOCK_KEY = 0x4855_4243  # "HUBC"
SQLITE_SCRATCH_PREFIX = "check-"
CHECK_LOCK_FILE = ".checking.lock"


def _lock_file(folder: Path) -> Any:
    """The SQLite checks' lock file, the owner's only like everything beside the backups."""
    return os.fdopen(os.open(Path(folder) / CHECK_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600), "r+b")


def _scratch_prefix() -> str:
    return f"{connection.settings_dict['NAME'][:40]}_check_"


@contextmanager
def checking(folder: Path) -> Iterator[None]:
    """Held while a check runs (shared: checks run side by side)."""
    if files.vendor() == "sqlite":
        with _lock_file(folder) as handle:
            fcntl.flock(handle, fcntl.LOCK_SH)
            yield  # closing the file releases the lock
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock_shared(%s)", [CHECK_LOCK_KEY])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock_shared(%s)", [CHECK_LOCK_KEY])


def sweep_scratch(folder: Path) -> list[str]:
    """Drop the scratch databases (SQLite: folders) that checks stopped midway left, when no
    check runs anywhere; returns their names. A failure is logged, never raised: the check goes on."""
    try:
        if files.vendor() == "sqlite":
            return _sweep_sqlite(Path(folder))
        return _sweep_postgres()
    except Exception:
        logger.exception("could not drop what an earlier check left")
        return []


def _sweep_sqlite(folder: Path) -> list[str]:
    with _lock_file(folder) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return []  # a check is running
        left = sorted(p for p in folder.glob(SQLITE_SCRATCH_PREFIX + "*") if p.is_dir())
        for scratch in left:
            shutil.rmtree(scratch, ignore_errors=True)
            logger.warning("dropped %s, left by a check that stopped midway", scratch.name)
        return [scratch.name for scratch in left]


def _sweep_postgres() -> Any:
    pattern = re.compile(re.escape(_scratch_prefix()) + "[0-9a-f]{12}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [CHECK_LOCK_KEY])
        if not cursor.fetchone()[0]:
            return []  # a check is running
    try:
        left = [name for name in files.postgres_databases() if pattern.fullmatch(name)]
        for name in left:
            files.drop_postgres_database(name)
            logger.warning("dropped the database %s, left by a check that stopped midway", name)
        return left
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [CHECK_LOCK_KEY])


def after_restore() -> None:
    """In the restored database (this thread's `default`): every event's versions start afresh
    from new random values. The restored versions are those of the backup's moment, and the
    writes lost since had moved them on: the cache (Redis outlives the site's restart) holds
    standings and pages under those later versions, which the next writes would reach again
    with other results. Fresh bases make every key new (`scoring.cache.versions`)."""
    for event_id in Event.objects.values_list("pk", flat=True):
        Event.objects.filter(pk=event_id).update(
            results_version=random_version_start(), public_version=random_version_start()
        )


def rotate() -> None:
    """Keep the newest HUAPAI_BACKUP_KEEP backups, every milestone's (`kept`) and the newest
    proven one; delete the others' files (and their copies) and rows."""
    taken = list(Backup.objects.exclude(file="").order_by("-taken_at", "-id"))
    newest_ok = next((row.pk for row in taken if row.status == Backup.Status.OK), None)
    keep = {row.pk for row in taken[: settings.HUAPAI_BACKUP_KEEP]} | {row.pk for row in taken if row.kept}
    keep.add(newest_ok)
    folders = [backup_dir()]
    if settings.HUAPAI_BACKUP_COPY_DIR:
        folders.append(Path(settings.HUAPAI_BACKUP_COPY_DIR))
    store = _copy_storage()
    for row in taken:
        if row.pk in keep:
            continue
        for folder in folders:
            path = folder / row.file
            for doomed in (path, *companions(path)):
                doomed.unlink(missing_ok=True)
        if store is not None:
            for doomed in (Path(row.file), *companions(Path(row.file))):
                store.delete(STORED_PREFIX + doomed.name)
        row.delete()


# --- when -------------------------------------------------------------------------------


def interval() -> timedelta:
    return timedelta(minutes=settings.HUAPAI_BACKUP_MINUTES)


def round_in_play() -> bool:
    return Round.objects.unpublished().filter(tables__isnull=False).exists()


def latest_milestone() -> tuple[datetime | None, str | None]:
    """The time of the latest publication, officialisation or close, and its reason."""
    rounds = Round.objects.aggregate(publish=Max("published_at"), official=Max("official_at"))
    times = {**rounds, "close": Event.objects.aggregate(at=Max("finished_at"))["at"]}
    times = {reason: at for reason, at in times.items() if at is not None}
    if not times:
        return None, None
    reason = max(times, key=times.get)
    return times[reason], reason


def due(now: datetime | None = None) -> tuple[str | None, bool]:
    """(reason, kept) of the backup due now, or (None, False): one for a milestone not backed up
    since, or every HUAPAI_BACKUP_MINUTES while a round is in play."""
    now = now or timezone.now()
    milestone_at, milestone = latest_milestone()
    if milestone_at is not None:
        last_kept = Backup.objects.filter(kept=True).aggregate(at=Max("taken_at"))["at"]
        if last_kept is None or last_kept < milestone_at:
            return milestone, True
    last = Backup.objects.aggregate(at=Max("taken_at"))["at"]
    if round_in_play() and (last is None or now - last >= interval()):
        return "interval", False
    return None, False


def backup_if_due(now: datetime | None = None) -> Backup | None:
    """Take the backup due now, if any (the warmer's every pass). The decision and the row that
    claims it are one transaction, under PostgreSQL's advisory lock (SQLite: its write lock), so
    of several workers deciding at once one takes it and the others see its row."""
    if not settings.HUAPAI_BACKUP_AUTOMATIC:
        return None
    if due(now)[0] is None:  # most passes: read only, no lock (SQLite's would hold up the referees' writes)
        return None
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        reason, kept = due(now)
        if reason is None:
            return None
        row = Backup.objects.create(reason=reason, kept=kept)
    return take_backup(reason, kept=kept, row=row)


def after_milestone(reason: str) -> None:
    """Called when a publication, an officialisation or a close has committed. With the warmer
    in the background (gunicorn) it takes the backup within its next pass (`due` finds the
    milestone in the database, so a worker that dies meanwhile loses nothing); without it (tests,
    runserver) it is taken here and now."""
    if not settings.HUAPAI_BACKUP_AUTOMATIC or settings.HUAPAI_WARM_IN_BACKGROUND:
        return
    try:
        take_backup(reason, kept=True)
    except Exception:  # the publication has committed: its answer must not become an error
        logger.exception("backup after %s failed", reason)


def backup_state(now: Any = None) -> dict[str, Any]:
    """What the console and `manage.py backups` say: the newest backup, the last proven one and
    its age, whether a round is in play; `failed` (the newest backup's check failed), `overdue`
    (the newest taken is older than the interval and a minute), `alarm` (either, while a round
    is in play: the console's red line)."""
    now = now or timezone.now()
    newest = Backup.objects.order_by("-taken_at", "-id").first()
    taken = Backup.objects.exclude(file="").order_by("-taken_at", "-id").first()
    good = Backup.objects.filter(status=Backup.Status.OK).order_by("-taken_at", "-id").first()
    in_play = round_in_play()
    failed = newest is not None and newest.status == Backup.Status.FAILED
    overdue = taken is None or now - taken.taken_at > interval() + GRACE
    return {
        "newest": newest,
        "good": good,
        "age_minutes": None if good is None else int((now - good.taken_at).total_seconds() // 60),
        "in_play": in_play,
        "failed": failed,
        "overdue": overdue,
        "alarm": in_play and (failed or overdue),
    }
