"""The director's live grid of a round: each table in one word — not started, n of m boards,
awaiting verification, disputed, referee called, signed off — with its boards' states, its
flags, the time of its last action and whether it is behind the room. Plain data.

A 1,000-table round is 16,000 boards and twice as many history rows: computing every table's
row takes a few hundred milliseconds, too much for a page that updates every few seconds. So
each table has a fingerprint (`table_fingerprints`: one statement for the whole round) that
moves whenever anything its row shows moves, and a row is computed again only when its
fingerprint has (`round_grid`, the rows kept by `scoring.cache.grid`). The room's counts and
its median pace come from the rows.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.cache.grid import grid_key, kept_grid, kept_grids, kept_rows
from scoring.cache.stamps import grid_stamp, stamp_digest
from scoring.engine.vocabulary import MatchMode
from scoring.games import game_of
from scoring.games.stored import boards_played_out, carries_state, event_rules
from scoring.models import BlindEntry, Deal, DealHistory, Event, FlagCleared, RefereeCall, Table
from scoring.table_entry.flags import round_flags

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Round

# A table is late when it has confirmed this many boards fewer than the median table of the room.
LATE_BEHIND_MEDIAN = 2

STATES = {
    "referee_called": _("呼叫裁判"),
    "disputed": _("有争议"),
    "awaiting_verification": _("等核对"),
    "in_progress": _("进行中"),
    "not_started": _("未开始"),
    "signed_off": _("已签字"),
    "complete": _("已全部确认"),
}
FINISHED = ("signed_off", "complete")


@cache
def _fingerprint_sql(teams: bool) -> str:
    """One row per table of a round. Written out: correlated look-ups on indexed columns, which
    both databases answer in one pass over the round's tables (~5 ms for 1,000 on SQLite)."""
    quote = connection.ops.quote_name
    table, history, call, cleared, blind = (
        quote(m._meta.db_table) for m in (Table, DealHistory, RefereeCall, FlagCleared, BlindEntry)
    )
    # Every write of a deal leaves a history row; in a team match the other table's deals
    # decide this one's "holders differ" flags, so there the match's newest row counts.
    newest = (
        f"(SELECT MAX(h.id) FROM {history} h JOIN {table} m ON m.id = h.table_id WHERE m.match_id = t.match_id)"
        if teams
        else f"(SELECT MAX(h.id) FROM {history} h WHERE h.table_id = t.id)"
    )
    return (
        f"SELECT t.id, {newest},"
        # The open calls as one number: moves when one is made or answered.
        f" (SELECT SUM(c.id) FROM {call} c WHERE c.table_id = t.id AND c.answered_at IS NULL),"
        f" (SELECT COUNT(*) FROM {cleared} f WHERE f.table_id = t.id),"
        # Referees' blind entries leave no history until they agree.
        f" (SELECT MAX(b.at) FROM {blind} b WHERE b.table_id = t.id),"
        f" t.ns_signed_off_at, t.ew_signed_off_at, CASE WHEN t.locked_until > %s THEN 1 ELSE 0 END,"
        f" t.number, t.ns_entrant_id, t.ew_entrant_id, t.north_id, t.east_id, t.south_id, t.west_id"
        f" FROM {table} t WHERE t.round_id = %s"
    )


def table_fingerprints(rnd: Round) -> dict[int, tuple[Any, ...]]:
    """{table id: fingerprint} of every table of the round: moves whenever the table's row would
    (its deals and their history — blind entries and rulings included —, open calls, sign-offs,
    lock, cleared flags, who sits there; the time passing moves only the minutes since its last
    action, computed per request, and its lateness, computed from the room's rows)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(rnd.event.kind == Event.Kind.TEAMS), [now, rnd.id])
        return {row[0]: row[1:] for row in cursor.fetchall()}


def table_rows(rnd: Round, table_ids: list[int] | None = None) -> dict[int, dict[str, Any]]:
    """{table id: row} of these tables (None: every table of the round), in a fixed number of
    queries whatever their number. A row is plain data in no language: its state's key, its
    boards' states, 局 totals where they decide the match, flags' kinds."""
    event = rnd.event
    boards_mode = event.match_mode == MatchMode.BOARDS
    length = event.match_length if boards_mode else None
    scope = Q(table__round=rnd) if table_ids is None else Q(table_id__in=table_ids)
    tables = Table.objects.filter(round=rnd)
    if table_ids is not None:
        tables = tables.filter(id__in=table_ids)
    # A match that ends by itself (升级's target) needs its boards up to the one that ended it.
    game = game_of(event)
    threaded = boards_mode and carries_state(game)
    rules = event_rules(event) if threaded else None
    deals, stats, game_deals = {}, [], {}
    # The deal itself only where the match is read from it: a deal's JSON is the largest column.
    kept = ("game_data",) if threaded else ()
    for table_id, board, status, ns, ew, seat_stats, *game_data in (
        Deal.objects.filter(scope)
        .order_by("sequence")
        .values_list("table_id", "board", "status", "ns_score", "ew_score", "seat_stats", *kept)
    ):
        deals.setdefault(table_id, []).append((board, status, ns, ew))
        stats.append((table_id, board, seat_stats))
        if game_data:
            game_deals.setdefault(table_id, []).append(dict(game_data[0]))
    conflicts = _blind_conflicts(scope)
    # One pass over the tables' history: the time of each one's last action, and the table
    # link's rows for the flags.
    last_action, link_history = {}, []
    for table_id, board, action, at, device, channel in (
        DealHistory.objects.filter(scope)
        .order_by("at", "id")
        .values_list("table_id", "board", "action", "at", "device", "channel")
    ):
        last_action[table_id] = at
        if channel == DealHistory.TABLE_LINK:
            link_history.append((table_id, board, action, at, device))
    calls = {}
    for table_id, kind, at in (
        RefereeCall.objects.filter(scope, answered_at=None).order_by("at").values_list("table_id", "kind", "at")
    ):
        calls.setdefault(table_id, []).append(kind)
        last_action[table_id] = max(last_action.get(table_id, at), at)
    flags = {}
    found = round_flags(rnd, table_ids, stats=stats, link_history=link_history)
    for (table_id, board), kinds in sorted(found.items()):
        flags.setdefault(table_id, []).append({"board": board, "kinds": kinds})
    now = timezone.now()
    rows = {}
    for table_id, number, ns_signed, ew_signed, locked_until, ruling, *codes in tables.values_list(
        "id", "number", "ns_signed_off_at", "ew_signed_off_at", "locked_until", "match_ruling",
        "ns_entrant__code", "ew_entrant__code", "north__code", "east__code", "south__code", "west__code",
    ):  # fmt: skip
        played = deals.get(table_id, [])
        # 局 totals are shown only where they decide a match (games mode): the game groups the deals.
        units = [] if boards_mode else game.match_units([(ns, ew) for _b, _s, ns, ew in played], event.game_threshold)
        states = {board: status for board, status, _ns, _ew in played}
        for board in conflicts.get(table_id, ()):
            states.setdefault(board, "conflict")
        # A match the chief arbiter ruled on needs the deals it had: the rest are not expected.
        needed = boards_played_out(game, rules, game_deals.get(table_id, []), length, ruling) if threaded else length
        numbers = range(1, needed + 1) if boards_mode else range(1, max(states, default=0) + 2)
        cells = tuple(states.get(b, "missing") for b in numbers)  # boards 1, 2, … in order
        per_status = Counter(status for _board, status, _ns, _ew in played)
        signed = {"NS": ns_signed is not None, "EW": ew_signed is not None}
        rows[table_id] = {
            "id": table_id,
            "number": number,
            "state": _state(per_status, len(played), signed, calls.get(table_id, []), needed),
            "confirmed": per_status[Deal.Status.CONFIRMED],
            "boards": needed,
            "cells": cells,
            "todo": sum(state != Deal.Status.CONFIRMED for state in cells),
            "games": units,
            "flags": flags.get(table_id, []),
            "last_at": last_action.get(table_id),
            "locked": locked_until is not None and locked_until > now,
            "signed": signed,
            "codes": " / ".join(codes[:2]) if codes[0] or codes[1] else " ".join(c or "" for c in codes[2:]),
        }
    return rows


def _state(per_status: Counter, entered: int, signed: dict[str, bool], open_calls: list[str], length: int) -> str:
    if any(kind != RefereeCall.Kind.DISPUTE for kind in open_calls):
        return "referee_called"
    if per_status[Deal.Status.DISPUTED]:
        return "disputed"
    if signed["NS"] and signed["EW"]:
        return "signed_off"
    if per_status[Deal.Status.DRAFT]:
        return "awaiting_verification"
    if entered == 0:
        return "not_started"
    if length and per_status[Deal.Status.CONFIRMED] >= length:
        return "complete"
    return "in_progress"


def _blind_conflicts(scope: Any) -> dict[Any, Any]:
    """{table id: {board}} where two referees' blind entries differ and no deal stands yet."""
    payloads = {}
    for table_id, board, payload in BlindEntry.objects.filter(scope).values_list("table_id", "board", "payload"):
        payloads.setdefault((table_id, board), []).append(payload)
    found = {}
    for (table_id, board), entries in payloads.items():
        if len(entries) > 1 and any(e != entries[0] for e in entries):
            found.setdefault(table_id, set()).add(board)
    return found


@dataclass
class Grid:
    """Every table's row in table order with `late` and the `version` the page holds of it (its
    fingerprint and lateness: the page asks for the row again when it moves); the counts per
    state (and `late`, `flagged`); the boards of the round not confirmed yet. The time since
    each table's last action is the reader's to compute from `last_at`."""

    stamp: str
    rows: list
    counts: Counter
    todo: int
    by_id: dict = field(default_factory=dict)
    versions: dict = field(default_factory=dict)  # {table number: version}


def round_grid(rnd: Round, stamp: str | None = None) -> Grid:
    """The round's grid now: kept per stamp (`grid_stamp`), and computed again only for the
    tables whose fingerprint moved since this process last computed them (`scoring.cache.grid`)."""
    stamp = grid_stamp(rnd) if stamp is None else stamp
    return kept_grid(grid_key(rnd), stamp, lambda: _assembled(rnd, stamp))


def earlier_grid(rnd: Round, grid: Grid, digest: str | None = None) -> Grid | None:
    """A grid of the round this process kept before `grid`, to send only the rows that moved
    since: the one whose stamp has `digest` (the page's), else the newest earlier one (whose
    moved rows include the page's when the page's is older), else None."""
    earlier = [kept for stamp, kept in kept_grids(grid_key(rnd)) if kept is not grid]
    held = [kept for kept in earlier if digest is not None and stamp_digest(kept.stamp) == digest]
    return (held or earlier or [None])[0]


def moved_rows(grid: Grid, earlier: Grid) -> list[dict[str, Any]]:
    """The rows of `grid` whose version differs from `earlier`'s (a table new to it included)."""
    return [row for row in grid.rows if earlier.versions.get(row["number"]) != row["version"]]


def _assembled(rnd: Round, stamp: str) -> Grid:
    fingerprints = table_fingerprints(rnd)

    def build(table_ids: list[int] | None) -> dict[int, dict[str, Any]]:
        rows = table_rows(rnd, table_ids)
        for table_id, row in rows.items():
            row["fingerprint"] = hashlib.blake2b(repr(fingerprints[table_id]).encode(), digest_size=6).hexdigest()
        return rows

    kept = kept_rows(grid_key(rnd), fingerprints, build)
    confirmed = sorted(row["confirmed"] for row in kept.values())
    median = confirmed[len(confirmed) // 2] if confirmed else 0
    rows, states, todo, late_count, flagged = [], [], 0, 0, 0
    behind = median - LATE_BEHIND_MEDIAN  # late: this many confirmed or fewer, and not finished
    for row in sorted(kept.values(), key=itemgetter("number")):
        late = row["confirmed"] <= behind and row["state"] not in FINISHED
        rows.append({**row, "late": late, "version": row["fingerprint"] + "L" if late else row["fingerprint"]})
        states.append(row["state"])
        late_count += late
        flagged += bool(row["flags"])
        todo += row["todo"]
    counts = Counter(states)
    counts.update(late=late_count, flagged=flagged)
    return Grid(
        stamp=stamp,
        rows=rows,
        counts=counts,
        todo=todo,
        by_id={row["id"]: row for row in rows},
        versions={row["number"]: row["version"] for row in rows},
    )


def open_calls(rnd: Round) -> list[RefereeCall]:
    """The referees' queue: unanswered calls and disputes of the round, oldest first."""
    return list(
        RefereeCall.objects.filter(table__round=rnd, answered_at=None)
        .select_related("table", "entrant")
        .order_by("at", "id")
    )
