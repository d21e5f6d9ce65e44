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
"""

import fcntl
import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

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
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 20))
        if not lock.acquire(timeout=timeout):
            raise OperationalError("database is locked (waited for another writer)")
        try:
            if self._writer_file is None:
                self._writer_file = open(path, "a")  # noqa: SIM115 — kept open with the connection
            # Blocks in the kernel (without the GIL) until the other process commits.
            fcntl.flock(self._writer_file, fcntl.LOCK_EX)
        except BaseException:
            lock.release()
            raise
        self._writer_lock = lock

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
