"""Django's SQLite backend with write transactions queued instead of retried.

Every transaction here starts with BEGIN IMMEDIATE (settings), so writers
already run one at a time. But a writer that finds the database locked waits
in SQLite's busy handler, which sleeps in steps of 1, 2, 5, 10 … 100 ms and
retries: under many referees at once the lock is often free long before the
sleeper wakes, and an unlucky writer loses the race again and again (seconds
at the 99th percentile). Here writers queue instead: a lock per process (so
threads wake the moment it is released) and then an exclusive `flock` on a file
beside the database (the same between worker processes). Both are released at
commit, rollback or close. Nothing in Django or the sqlite3 module does this.

Both waits are bounded by the database's `timeout` option (settings, 20 s), the
same bound SQLite's own busy handler has: a writer that still has no lock by
then gets `OperationalError("database is locked …")`, as from SQLite itself,
never an endless wait behind a stuck process.

Django internals. The hooks overridden below (`_start_transaction_under_autocommit`,
`_commit`, `_rollback`, `_close`) are private to Django's backends; `WRITTEN_FOR_DJANGO`
names the version they were checked against, and a test fails when Django moves
(tests/entry/test_sqlite_writer_canary.py).
"""

import fcntl
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base

WRITTEN_FOR_DJANGO = (5, 2)
DEFAULT_TIMEOUT = 20  # seconds; Python's sqlite3 default is 5, settings give 20

# `flock` has no timeout of its own: between processes the wait polls a non-blocking
# attempt. The first retries are quick (a referee's write holds the lock ~1 ms), later
# ones back off so a long wait does not spin; threads of one process never poll, they
# queue on the process lock above it and wake at once.
_POLL_FIRST, _POLL_MAX = 0.0005, 0.01

_process_locks = {}
_process_locks_guard = threading.Lock()


def _process_lock(path):
    with _process_locks_guard:
        return _process_locks.setdefault(path, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_file = None
    _writer_lock = None

    def _queue_for_writing(self):
        if self.is_in_memory_db():
            return
        path = f"{self.settings_dict['NAME']}.writers"
        lock = _process_lock(path)
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", DEFAULT_TIMEOUT))
        deadline = time.monotonic() + timeout
        if not lock.acquire(timeout=timeout):
            raise OperationalError(f"database is locked (waited {timeout:g} s for another writer in this process)")
        try:
            if self._writer_file is None:
                self._writer_file = open(path, "a")  # noqa: SIM115 — kept open with the connection
            self._flock_until(deadline, timeout)
        except BaseException:
            lock.release()
            raise
        self._writer_lock = lock

    def _flock_until(self, deadline, timeout):
        """The exclusive `flock`, or OperationalError once `deadline` passes."""
        pause = _POLL_FIRST
        while True:
            try:
                fcntl.flock(self._writer_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise OperationalError(
                        f"database is locked (waited {timeout:g} s for a writer in another process)"
                    ) from None
                time.sleep(min(pause, left))
                pause = min(pause * 2, _POLL_MAX)

    def _stop_writing(self):
        lock, self._writer_lock = self._writer_lock, None
        if lock is not None:
            fcntl.flock(self._writer_file, fcntl.LOCK_UN)
            lock.release()

    def _start_transaction_under_autocommit(self):
        self._queue_for_writing()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._stop_writing()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._stop_writing()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._stop_writing()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._stop_writing()
            if self._writer_file is not None:
                self._writer_file.close()
                self._writer_file = None
