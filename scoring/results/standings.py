"""Standings of an event read from the database, cached per results version
(`scoring.cache.results`): the tables after each round, and one entrant's row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.cache.results import cached_parts, store_items, stored_items
from scoring.collector import without_collection
from scoring.engine.standings import compute_standings
from scoring.models import Round
from scoring.results.match_results import (
    entrant_codes,
    event_format,
    event_match_results,
    late_entries,
    unfinished_of,
)

if TYPE_CHECKING:
    from typing import Any

    from scoring.engine.standings import Row
    from scoring.models import Event


def event_standings(event: Event, *, published_only: bool = False, after_round: int | None = None) -> list[Row]:
    """Ranked standings rows for the event (see `scoring.engine.standings`), cached per results version."""
    return standings_by_round(event, published_only=published_only, rounds=[after_round])[after_round]


def standings_by_round(
    event: Event, *, published_only: bool = False, rounds: list[int | None] | None = None, finished_only: bool = False
) -> dict[int | None, list[Any]]:
    """{after_round: rows} for several cut-offs from one read of the results (None = all rounds).

    `finished_only` (the officials' files): a match of an unpublished round counts only once
    it is finished (`scoring.engine.standings.match_finished`); published rounds count as published.
    Cached under the event's results version (the public one for `published_only`): a
    10,000-player event's standings then cost a cache look-up instead of summing 360,000 deals,
    and a crowd on a cold cache waits for one computation.
    """
    rounds = [None] if rounds is None else list(rounds)
    return cached_parts(
        event,
        "standings",
        rounds,
        lambda missing: _compute(event, published_only, finished_only, missing),
        public=published_only,
        variant=f"{int(published_only)}{int(finished_only)}",
    )


@without_collection  # a row per entrant and the matches they rank by (scoring.collector)
def _compute(
    event: Event, published_only: bool, finished_only: bool, after_rounds: list[int | None]
) -> dict[int | None, list[Any]]:
    matches = event_match_results(event, published_only=published_only)
    fmt, codes, joined = event_format(event), entrant_codes(event), late_entries(event)
    if finished_only:
        unfinished = {id(match) for match in unfinished_of(event, fmt, matches)}
        matches = [match for match in matches if id(match) not in unfinished]
    return {r: compute_standings(fmt, matches, codes, after_round=r, joined=joined) for r in after_rounds}


def public_standing(event: Event, code: str) -> tuple[Row, int]:
    """One entrant's public standings row and the number of rows, without unpickling the whole
    table on every record page: the rows are stored one key each."""
    stored = stored_items(event, "standing-row", [code], public=True)
    if stored is not None:
        found, count = stored
        return found.get(code), count
    rows = event_standings(event, published_only=True) if Round.objects.published().filter(event=event).exists() else []
    store_items(event, "standing-row", {row.id: row for row in rows}, public=True)
    return next((row for row in rows if row.id == code), None), len(rows)


def standings_computed(event: Event) -> list[Row]:
    """The event's standings after every round, computed from the database now and never read
    from or stored in the cache: what a backup's check compares (`scoring.backups`), where the
    cache's keys (the event's version) are the same for the live and the restored database."""
    return _compute(event, False, False, [None])[None]
