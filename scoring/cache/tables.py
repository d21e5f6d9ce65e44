"""A table link's state as sent, kept per stamp (`scoring.table_entry.state.state_stamp`).

The stamp changes with everything the state shows, so a kept body is never stale: after a
change the first of a table's phones builds it and the others (polling within the same few
seconds) get it from here — shared between workers when REDIS_URL is set."""

from django.core.cache import cache

KEPT_SECONDS = 120


def table_state_body(stamp, build):
    """The bytes for `stamp`, or `build()`'s (kept); None when `build` finds no table."""
    key = f"table-state:{stamp}"
    body = cache.get(key)
    if body is None:
        body = build()
        if body is not None:
            cache.set(key, body, KEPT_SECONDS)
    return body
