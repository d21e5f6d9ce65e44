"""The stamps that key what is kept and answer conditional GETs. Each changes whenever what it
stands for changes: a table link's state (`table_state_stamp`), a round's referees' grid
(`grid_stamp`) and the round's clock (`clock_stamp`). They are read on every poll, so each is
one statement."""

import hashlib
import hmac
import json
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from django.db import connection
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import get_language

from scoring.models import (
    BlindEntry,
    ClockEntry,
    Deal,
    DealHistory,
    Event,
    FlagCleared,
    RefereeCall,
    Round,
    Table,
    WrongCode,
    table_token_digest,
)


@cache
def _table_state_sql():
    """The stamp's statement, built once. Written out rather than through the ORM: compiling
    the same query with its three subqueries cost ~3.5 ms of a poll's ~4 ms (bench/table_load.py),
    and a hall of phones polls a thousand tables every five seconds."""
    quote = connection.ops.quote_name
    table, deal, call = (quote(m._meta.db_table) for m in (Table, Deal, RefereeCall))
    rnd, event, clock = quote(Round._meta.db_table), quote(Event._meta.db_table), quote(ClockEntry._meta.db_table)
    return (
        f"SELECT t.token, t.id, (SELECT COUNT(*) FROM {deal} d WHERE d.table_id = t.id),"
        f" (SELECT SUM(d.version) FROM {deal} d WHERE d.table_id = t.id),"
        f" (SELECT COUNT(*) FROM {call} c WHERE c.table_id = t.id AND c.answered_at IS NULL),"
        # The round as the link sees it (`scoring.table_entry.state.round_phase`): a round put in play by its first deal
        # does not move a thousand tables' stamps at once.
        f" t.ns_signed_off_at, t.ew_signed_off_at, t.side_signoffs,"
        # The chief arbiter's ruling on the match: the boards the phones count change with it.
        f" t.match_ruling,"
        f" CASE WHEN r.status = '{Round.Status.SCHEDULED.value}' THEN '{Round.Status.IN_PLAY.value}' ELSE r.status END,"
        f" e.entry,"
        # The round's clock: its newest entry, and the event's settings (the minutes it runs).
        f" (SELECT MAX(k.id) FROM {clock} k WHERE k.round_id = t.round_id), e.extra,"
        f" CASE WHEN t.locked_until > %s THEN 1 ELSE 0 END"
        f" FROM {table} t JOIN {rnd} r ON r.id = t.round_id JOIN {event} e ON e.id = r.event_id"
        f" WHERE t.token_digest = %s"
    )


class Stamped(NamedTuple):
    stamp: str
    locked: bool
    open_calls: int
    table_id: int


def table_state_stamp(token: str, read_row: Callable[[str, list], tuple | None]) -> Stamped | None:
    """`Stamped(stamp, locked, open calls, table id)` of the table a link reaches, or None: the
    stamp changes whenever the state would (its deals, open calls and sign-offs, the round's status, the event's entry
    mode and settings, the round's clock, the language). The clock's face does not change
    with the time (a running clock sends when it ends), so a 304 keeps it right. One
    statement, so an unchanged table's poll — most polls — is answered 304 without building
    the state. `read_row(sql, params)` runs the statement on the hot path's connection
    (`scoring.entry.hot_sql.first_row`, handed in by `scoring.table_entry.state.state_stamp`)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    row = read_row(_table_state_sql(), [now, table_token_digest(token)])
    # Found by digest, compared in constant time.
    if row is None or not hmac.compare_digest(row[0].encode(), token.encode()):
        return None
    row = row[1:]
    parts = (*row, get_language())  # the guard too: the page says in words why it waits
    return Stamped(hashlib.sha256(repr(parts).encode()).hexdigest()[:32], bool(row[-1]), row[3], row[0])


@cache
def _grid_sql():
    """The round's stamp in one statement, built once (through the ORM, compiling its five
    aggregates cost more than running them)."""
    quote = connection.ops.quote_name
    table, history, call, wrong, cleared, blind = (
        quote(m._meta.db_table) for m in (Table, DealHistory, RefereeCall, WrongCode, FlagCleared, BlindEntry)
    )
    tables = f"(SELECT t.id FROM {table} t WHERE t.round_id = %s)"
    return (
        # The newest history row of each table, one probe each (index history_table_newest):
        # over the round's rows at once, PostgreSQL hashed the whole history.
        f"SELECT (SELECT MAX((SELECT MAX(h.id) FROM {history} h WHERE h.table_id = n.id))"
        f" FROM {table} n WHERE n.round_id = %s),"
        f" (SELECT MAX(c.id) FROM {call} c WHERE c.table_id IN {tables}),"
        f" (SELECT COUNT(c.answered_at) FROM {call} c WHERE c.table_id IN {tables}),"
        f" (SELECT MAX(w.id) FROM {wrong} w WHERE w.table_id IN {tables}),"
        f" (SELECT COUNT(*) FROM {wrong} w WHERE w.table_id IN {tables}),"
        f" (SELECT MAX(f.id) FROM {cleared} f WHERE f.table_id IN {tables}),"
        f" (SELECT MAX(b.at) FROM {blind} b WHERE b.table_id IN {tables}),"
        f" COUNT(t.ns_signed_off_at), COUNT(t.ew_signed_off_at),"
        f" SUM(CASE WHEN t.locked_until > %s THEN 1 ELSE 0 END),"
        # Who sits where (a swap), as one number.
        f" SUM(t.id * (COALESCE(t.ns_entrant_id, 0) + 3 * COALESCE(t.ew_entrant_id, 0) + 5 * COALESCE(t.north_id, 0)"
        f" + 7 * COALESCE(t.east_id, 0) + 11 * COALESCE(t.south_id, 0) + 13 * COALESCE(t.west_id, 0)))"
        f" FROM {table} t WHERE t.round_id = %s"
    )


def grid_stamp(rnd: Round) -> str:
    """Changes whenever anything the grid shows changes (the page's ETag), but the time passing:
    the round's status, its newest history row, call, answered call, wrong code, cleared flag,
    blind entry, the sign-offs, the tables locked now, who sits where. One statement."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_grid_sql(), [rnd.id] * 7 + [now, rnd.id])
        row = cursor.fetchone()
    return "-".join(str(part) for part in (rnd.status, *row))


def stamp_digest(stamp: str) -> str:
    """A stamp as short as a page may hold it (in its ETag)."""
    return hashlib.blake2b(stamp.encode(), digest_size=8).hexdigest()


def clock_stamp(rnd: Round) -> str:
    """What changes whenever the round's clock does (for the grid's ETag): its newest entry,
    and what the minutes a round runs are worked out from (the event's settings, its match)."""
    last = ClockEntry.objects.filter(round=rnd).aggregate(last=Max("id"))["last"]
    event = rnd.event
    settings = json.dumps(event.extra, sort_keys=True, default=str)
    digest = hashlib.blake2b(f"{settings}-{event.match_mode}-{event.match_length}".encode(), digest_size=8)
    return f"{last}-{digest.hexdigest()}"
