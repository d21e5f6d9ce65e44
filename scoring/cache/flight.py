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

_LOCK_PREFIX = "computing:"


def computed_once(key, *, fetch, compute, fallback=None):
    """The value for `key`, computed by one caller at a time.

    `fetch()` reads the stored value (None when missing); `compute()` computes it, stores it
    and returns it. A caller that finds another one computing waits for `fetch()` — or takes
    `fallback()` at once when it gives something (the previous version of a page) — and
    computes the value itself only if the other gave up or died.
    """
    lock = _LOCK_PREFIX + key
    owned = cache.add(lock, _token(), LOCK_SECONDS)
    if not owned:
        found = _wait(lock, fetch, fallback)
        if found is not _GAVE_UP:
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


def _wait(lock, fetch, fallback):
    def answer():
        found = fetch()
        if found is None and fallback is not None:
            found = fallback()
        if found is None and cache.get(lock) is None:
            # Released: stored just now (read once more), or the one computing failed.
            found = fetch()
            return _GAVE_UP if found is None else found
        return found

    found = wait_for(answer, WAIT_SECONDS)
    return _GAVE_UP if found is None else found


def _token():
    # Distinct values make a lock's holder visible when debugging the cache; `add` is what locks.
    return uuid.uuid4().hex
