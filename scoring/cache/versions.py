"""The results version of an event, which keys every cached result and public page.

The version is the event's random base (`Event.results_version`, or
`public_version` for what the public sees) plus the counters of
`ResultsCounter.SHARDS` shard rows. A write bumps the row of its table's shard
inside its own transaction (`scoring.cache.announce_results_changed`), so the sum
grows with every commit and a cached table is never stale. One row for the whole
event would be locked by every referee's transaction until it commits; on
PostgreSQL that queued all writers of an event behind each other.
"""

from django.db import connection

from scoring.models import Event, ResultsCounter


def version_bump(event, *, public=True, shard=0):
    """`(sql, params)` of the statement that moves the version (the referee's hot path embeds it)."""
    counter = connection.ops.quote_name(ResultsCounter._meta.db_table)
    # An upsert (SQLite ≥ 3.24, PostgreSQL ≥ 9.5): the shard's row appears on first use.
    return (
        f"INSERT INTO {counter} (event_id, shard, results, public) VALUES (%s, %s, 1, %s) "
        f"ON CONFLICT (event_id, shard) DO UPDATE SET results = {counter}.results + 1, "
        f"public = {counter}.public + excluded.public",
        [event.pk, shard % ResultsCounter.SHARDS, int(public)],
    )


def current_version(event, *, public=False):
    """The results version (or the public one): it grows with every committed write."""
    base, column = ("public_version", "public") if public else ("results_version", "results")
    counter = connection.ops.quote_name(ResultsCounter._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT e.{base} + COALESCE((SELECT SUM(c.{column}) FROM {counter} c WHERE c.event_id = e.id), 0)"
            f" FROM {connection.ops.quote_name(Event._meta.db_table)} e WHERE e.id = %s",
            [event.pk],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def public_versions():
    """{event id: public version} of every event, in one statement (the warmer's poll)."""
    counter = connection.ops.quote_name(ResultsCounter._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT e.id, e.public_version + COALESCE((SELECT SUM(c.public) FROM {counter} c"
            f" WHERE c.event_id = e.id), 0) FROM {connection.ops.quote_name(Event._meta.db_table)} e"
        )
        return dict(cursor.fetchall())
