"""A table link's state as sent, kept per table with the stamp it was built for
(`scoring.table_entry.state.state_stamp`).

The stamp changes with everything the state shows, so a kept body whose stamp is the table's
current one is never stale: after a change the first of a table's phones builds it and the
others (polling within the same few seconds) get it from here — shared between workers when
REDIS_URL is set. One entry per table and language, replaced when its stamp moves: a round's
states stay bounded (~1,000 entries for 1,000 tables, whatever the number of changes), so they
are kept for a playing day and can be built before the phones ask (`warm_round_states`, run by
the warmer while a round is played in players' entry)."""

from django.core.cache import cache
from django.utils.translation import get_language

KEPT_SECONDS = 12 * 3600


def _key(table_id):
    # Per language too: phones in two languages at one table would otherwise replace each
    # other's entry at every poll.
    return f"table-state:{table_id}:{get_language()}"


def table_state_body(table_id, stamp, build):
    """The bytes for the table's state at `stamp`, or `build()`'s (kept); None when `build`
    finds no table."""
    kept = cache.get(_key(table_id))
    if kept is not None and kept[0] == stamp:
        return kept[1]
    body = build()
    if body is not None:
        cache.set(_key(table_id), (stamp, body), KEPT_SECONDS)
    return body


def warm_round_states(tokens, stamp_of, build):
    """Build and keep the state of every table (by link token) whose kept state is missing or
    older than its stamp; returns how many were built. `stamp_of(token)` is `state_stamp`,
    `build(token, open_calls)` the body."""
    built = 0
    for token in tokens:
        stamped = stamp_of(token)
        if stamped is None:
            continue
        kept = cache.get(_key(stamped.table_id))
        if kept is not None and kept[0] == stamped.stamp:
            continue
        body = build(token, stamped.open_calls)
        if body is not None:
            cache.set(_key(stamped.table_id), (stamped.stamp, body), KEPT_SECONDS)
            built += 1
    return built
