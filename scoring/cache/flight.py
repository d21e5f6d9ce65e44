"""Single flight: when many ask for the same missing value at once (a crowd on a page just
published, every entrant's page needing the standings), one computes it and the others wait
for its answer instead of computing it beside it.

The lock is a cache key taken with `cache.add`, so it holds across threads and, with a shared
cache (Redis), across worker processes; with the per-process memory cache each process
computes once. The one set of constants for every such site lives here.
"""

import uuid
from contextlib import contextmanager

from django.core.cache import cache

from scoring.cache.waiting import wait_for

# The lock is released when the computation ends; this only bounds a lock left by a process
# that died. A 10,000-player event's statistics take under a minute (docs/performance.md).
LOCK_SECONDS = 300
# Waiting ends as soon as the answer is stored or the lock is released without one, so this
# only bounds the wait for a process that died: a waiter then computes the value itself.
WAIT_SECONDS = 60.0
# A public file (a 600-pair round's travellers took half a minute) is not waited for: the asker is
# told at once to come back (503 with Retry-After). A 2 s wait held a thread for each asker, and a
# flood of them (nginx lets 16 through at once) took every thread of a host from the players and
# referees for seconds at a time (tests/deploy/test_two_hosts.py, the flood: p95 2.7 s).
FILE_WAIT_SECONDS = 0.0

_LOCK_PREFIX = "computing:"


def computed_once(key, *, fetch, compute, fallback=None, wait_seconds=None, busy=None):
    """The value for `key`, computed by one caller at a time.

    `fetch()` reads the stored value (None when missing); `compute()` computes it, stores it
    and returns it. A caller that finds another one computing waits for `fetch()` — or takes
    `fallback()` at once when it gives something (the previous version of a page) — and
    computes the value itself only if the other gave up or died. With `busy`, a caller still
    waiting after `wait_seconds` (default `WAIT_SECONDS`) while the other computes gets
    `busy()` instead (work too long to hold a thread for: a big event's files).
    """
    lock = _LOCK_PREFIX + key
    owned = cache.add(lock, _token(), LOCK_SECONDS)
    if not owned:
        found = _wait(lock, fetch, fallback, WAIT_SECONDS if wait_seconds is None else wait_seconds)
        if found is _STILL_COMPUTING and busy is not None:
            return busy()
        if found is not _GAVE_UP and found is not _STILL_COMPUTING:
            return found
        owned = cache.add(lock, _token(), LOCK_SECONDS)
    try:
        if owned:
            found = fetch()  # stored by another caller between our miss and our lock
            if found is not None:
                return found
        return compute()
    finally:
        if owned:
            cache.delete(lock)


@contextmanager
def alone(key):
    """`with alone(key) as mine:` — `mine` is False when another caller holds `key`'s lock;
    for work that is skipped rather than waited for (a warm-up another worker is doing)."""
    lock = _LOCK_PREFIX + key
    mine = cache.add(lock, _token(), LOCK_SECONDS)
    try:
        yield mine
    finally:
        if mine:
            cache.delete(lock)


_GAVE_UP = object()
_STILL_COMPUTING = object()


def _wait(lock, fetch, fallback, seconds):
    def answer():
        found = fetch()
        if found is None and fallback is not None:
            found = fallback()
        if found is None and cache.get(lock) is None:
            # Released: stored just now (read once more), or the one computing failed.
            found = fetch()
            return _GAVE_UP if found is None else found
        return found

    found = wait_for(answer, seconds)
    if found is None:
        return _STILL_COMPUTING if cache.get(lock) is not None else _GAVE_UP
    return found


def _token():
    # Distinct values make a lock's holder visible when debugging the cache; `add` is what locks.
    return uuid.uuid4().hex
