"""Python's cyclic garbage collector held off while a large result is built.

Building a 10,000-player event's standings makes some 100,000 small objects that all live
until the end (a result per table and match, a row per entrant), and checking its archive
360,000 packed deals that wait for the write. CPython's collector runs a pass every 700 new
objects and now and then walks every object the process holds (Django's modules included, as
a worker does not freeze them): a quarter of the standings' time, and an eighth of the
archive check's, went to passes that found nothing to free. Those objects make no cycles, so
nothing is kept longer than the pause (the import's peak memory is the same); cycles made
meanwhile by other threads are collected once it ends.
"""

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside the block (pauses nest, across threads too); the collector is
    turned back on after the last one ends only if it was on before the first began."""
    global _pauses, _was_enabled
    with _lock:
        if not _pauses:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if not _pauses and _was_enabled:
                gc.enable()


def without_collection(function: Callable) -> Callable:
    """`function` run with the collector paused (`collector_paused`)."""

    @wraps(function)
    def paused(*args, **kwargs):
        with collector_paused():
            return function(*args, **kwargs)

    return paused
