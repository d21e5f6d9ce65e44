"""What a backup says it holds: row counts per table, the events with their rounds and public
versions, and a hash of each event's standings — read through whatever connection is the
thread's `default` at the time (the live database when a backup is taken, the scratch one
when it is checked: `scoring.backups.files.scratch_default`)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import TYPE_CHECKING

from django.db import connection

from scoring.cache.versions import public_versions
from scoring.models import Event, Round

if TYPE_CHECKING:
    from typing import Any


def row_counts() -> dict[str, int]:
    """{table: rows} of every table of the database (Django's and the site's alike)."""
    quote = connection.ops.quote_name
    counts = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT COUNT(*) FROM {quote(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def standings_hash(event: Event) -> str:
    """sha256 of the event's standings after every round, computed from the database (never the
    cache: the restored database has the live one's versions, so the cache's keys)."""
    from scoring.results.standings import standings_computed

    rows = [dataclasses.asdict(row) for row in standings_computed(event)]
    text = json.dumps(rows, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def events_summary() -> list[dict[str, Any]]:
    """The events, their rounds (number, status) and public version, and their standings' hash."""
    versions = public_versions()
    rounds = {}
    for event_id, number, status in Round.objects.order_by("event_id", "number").values_list(
        "event_id", "number", "status"
    ):
        rounds.setdefault(event_id, []).append({"number": number, "status": status})
    return [
        {
            "id": event.pk,
            "slug": event.slug,
            "public_version": None if versions.get(event.pk) is None else int(versions[event.pk]),
            "rounds": rounds.get(event.pk, []),
            "standings_sha256": standings_hash(event),
        }
        for event in Event.objects.order_by("pk")
    ]


def database_contents() -> dict[str, Any]:
    """The part of the manifest read from the database: what a restore must give back."""
    return {"vendor": connection.vendor, "row_counts": row_counts(), "events": events_summary()}


def differences(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """In words (for the log and `Backup.message`), where `found` (read from the restored
    database) differs from `expected` (the manifest); empty when it does not."""
    problems = []
    counts, restored = expected["row_counts"], found["row_counts"]
    for table in sorted(set(counts) | set(restored)):
        if counts.get(table) != restored.get(table):
            problems.append(f"{table}: {counts.get(table)} rows expected, {restored.get(table)} restored")
    events = {event["id"]: event for event in found["events"]}
    for event in expected["events"]:
        other = events.get(event["id"])
        if other is None:
            problems.append(f"event {event['slug']}: missing")
        elif other["standings_sha256"] != event["standings_sha256"]:
            problems.append(f"event {event['slug']}: standings differ")
        elif other["rounds"] != event["rounds"] or other["public_version"] != event["public_version"]:
            problems.append(f"event {event['slug']}: rounds or version differ")
    return problems
