"""The SQL of the referee's hot path (entering a deal), each statement built once.

Contract. Callers get and give ordinary model objects, exactly as the ORM would
read and write them: a look-up returns instances built by `Model.from_db` after
the ORM's own converters (a test compares every field with the ORM's), an
insert prepares values with the fields' own `pre_save`/`get_db_prep_save` and
sets the primary key. Nothing here decides anything: permissions, versions and
scores are the callers' (`scoring.entry.services`, `scoring.web.api.views`). On PostgreSQL
the statements are bound on the server and prepared once per connection, with
every integer sent as int8 and range-checked by the server into its column.

The load it serves. A deal PUT needs the token's user, the event, the user's
roles, the table with its round and the deal already there, then inserts the
deal and its history row. Through the ORM that was seven statements, each
spending ~0.3 ms compiling SQL that never changes; with 50 referees sending
back to back on 2 cores that compiling was most of a PUT (p95 534 ms SQLite,
456 ms PostgreSQL). Here a new deal is the look-up (one statement), the penalties
referees ruled on the board's calls before it existed (one ORM query,
`scoring.entry.versioned.pending_penalties`), and then one transaction
(`scoring.entry.services.deal_save`): the round's status re-read
(`round_status_for_write`, FOR SHARE on PostgreSQL) and `create_with_history` —
on PostgreSQL one statement, on SQLite three (deal, version bump, history). Still
worth it: against the plain ORM doing the same reads and writes, 198/s and 5.0 ms
of server CPU per PUT versus 85/s and 12.4 ms (SQLite, 4,000 PUTs; the command and
numbers in docs/performance.md, "Is hot_sql still worth it").

Django internals. The few private or undocumented Django APIs this module
relies on are all in the section "Django internals" below, and
`WRITTEN_FOR_DJANGO` names the version they were checked against: a test fails
loudly when Django's version moves, so that someone re-reads that section
(tests/entry/test_hot_sql.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connection, connections, transaction

from scoring.cache import announce_results_changed
from scoring.cache.versions import version_bump
from scoring.models import ApiToken, Deal, DealHistory, Event, EventRole, Round, Table

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from django.contrib.auth.models import User
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models.expressions import Col

# --- Django internals: everything below that Django does not document as public -------

WRITTEN_FOR_DJANGO = (5, 2)


def _concrete_fields(model: type[Any]) -> Sequence:
    return model._meta.concrete_fields


def _field_converters(model_field: Any, alias: str) -> tuple[Col, list[Any]]:
    """The converters the ORM applies to a column read through `alias` (Query internals)."""
    column = model_field.get_col(alias)
    return column, connection.ops.get_db_converters(column) + column.get_db_converters(connection)


def _save_values(instance: Deal | DealHistory, fields: list[Any], db: BaseDatabaseWrapper) -> list[Any]:
    """The values `Model.save()` would send for a new row (`pre_save` with add=True)."""
    return [f.get_db_prep_save(f.pre_save(instance, True), db) for f in fields]


def _mark_saved(instance: Deal | DealHistory, db: BaseDatabaseWrapper) -> None:
    instance._state.adding = False
    instance._state.db = db.alias


def _raw_cursor(db: BaseDatabaseWrapper) -> Any:
    """A psycopg cursor on Django's own connection, inside Django's error wrapping."""
    import psycopg  # here only: a SQLite-only install has no psycopg

    db.ensure_connection()
    db.validate_thread_sharing()
    return db.wrap_database_errors, psycopg.Cursor(db.connection)


def _skip_health_check(db: BaseDatabaseWrapper) -> None:
    """Tell Django this request's connection was checked (CONN_HEALTH_CHECKS)."""
    db.health_check_done = True


# --- the hot path ----------------------------------------------------------------------


class RowReader:
    """Reads one model's columns out of a wider row, as `Model.from_db` would get them."""

    def __init__(self, model: type[Any], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields = _concrete_fields(model)
        self.names = [model_field.attname for model_field in self.fields]

    def columns(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(model_field.column)}" for model_field in self.fields)

    @property
    def width(self) -> int:
        return len(self.fields)

    @cache  # noqa: B019 — one reader per model for the life of the process
    def converters(self) -> list[tuple[Any, Any]]:
        return [_field_converters(model_field, self.alias) for model_field in self.fields]

    def read(self, db: BaseDatabaseWrapper, row: tuple[Any, ...], start: int = 0) -> Any:
        """The instance in `row[start:start + width]`, or None when its key is NULL (an outer join missed)."""
        values = list(row[start : start + self.width])
        if values[self.names.index(self.model._meta.pk.attname)] is None:
            return None
        for index, (column, converters) in enumerate(self.converters()):
            for convert in converters:
                values[index] = convert(values[index], column, db)
        return self.model.from_db(db.alias, self.names, values)


def _table(model: type[Any]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@cache
def _readers() -> dict[str, RowReader]:
    return {
        "user": RowReader(get_user_model(), "u"),
        "event": RowReader(Event, "e"),
        "round": RowReader(Round, "r"),
        "table": RowReader(Table, "t"),
        "deal": RowReader(Deal, "d"),
    }


def _fetchone(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """Run one statement and fetch one row. On PostgreSQL the server binds the
    parameters and the statement is prepared once per connection: the look-up's
    five joins took longer to plan (0.37 ms) than to run (0.1 ms). Only these
    statements are prepared; Django's own queries keep client-side binding, under
    which the bulk inserts of an archive import run ~25 % faster."""
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()
    errors, raw_cursor = _raw_cursor(db)
    with errors, raw_cursor as cursor:
        # Every integer goes to the server as a plain int8. Django's field preparation wraps
        # integers in psycopg's Int4/Int2 for their column, and psycopg's binary dumper packs
        # those into 32 or 16 bits without a range check, so a forged score of 2^31 would be
        # stored as −2^31. As int8 the server converts each value into its column
        # and refuses one that does not fit.
        from psycopg.types.numeric import Int8BinaryDumper

        cursor.adapters.register_dumper(int, Int8BinaryDumper)
        params = [
            int(value) if isinstance(value, int) and type(value) not in (int, bool) else value for value in params
        ]
        cursor.execute(sql, params, prepare=True)
        return cursor.fetchone()


def _first_statement(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """Run a request's first statement and fetch one row.

    Django's health check (CONN_HEALTH_CHECKS) spends a `SELECT 1` round trip
    before each request's first query to find a kept-alive connection that the
    database has closed (a restart). Here the statement itself is the check: if
    the connection turns out dead, it is reopened and the statement run again,
    so a referee never sees an error for it, at no cost while all is well.
    """
    if db.in_atomic_block:
        return _fetchone(db, sql, params)
    _skip_health_check(db)
    try:
        return _fetchone(db, sql, params)
    except (OperationalError, InterfaceError):
        if db.is_usable():
            raise  # a real error, not a dead connection
        db.close()
    return _fetchone(db, sql, params)


def first_row(sql: str, params: list[str]) -> tuple[Any, ...] | None:
    """A hot read's one row, for other modules' hot paths (a table link's poll,
    `scoring.table_entry.state.state_stamp`): prepared once per connection on PostgreSQL, and
    the request's health-check round trip skipped as for the referee's look-up."""
    return _first_statement(connections[DEFAULT_DB_ALIAS], sql, params)


@dataclass
class BoardLookup:
    """What a request about one board needs; None where the row does not exist."""

    user: object
    event: Event | None = None
    table: Table | None = None  # with `round`, whose `event` is the event
    roles: set = field(default_factory=set)  # `EventRole.Role` values of the user in the event
    deal: Deal | None = None  # already entered for the board


@cache
def _board_sql(by_token: bool) -> str:
    readers = _readers()
    role = _table(EventRole)
    user = _table(get_user_model())
    source = f"{_table(ApiToken)} k JOIN {user} u ON u.id = k.user_id" if by_token else f"{user} u"
    return (
        f"SELECT {', '.join(readers[name].columns() for name in ('user', 'event', 'round', 'table', 'deal'))}, "
        f"EXISTS (SELECT 1 FROM {role} o WHERE o.event_id = e.id AND o.user_id = u.id AND o.role = %s), "
        f"EXISTS (SELECT 1 FROM {role} f WHERE f.event_id = e.id AND f.user_id = u.id AND f.role = %s) "
        f"FROM {source} "
        f"LEFT JOIN {_table(Event)} e ON e.slug = %s "
        f"LEFT JOIN {_table(Round)} r ON r.event_id = e.id AND r.number = %s "
        f"LEFT JOIN {_table(Table)} t ON t.round_id = r.id AND t.number = %s "
        f"LEFT JOIN {_table(Deal)} d ON d.table_id = t.id AND d.board = %s "
        + ("WHERE k.key = %s" if by_token else "WHERE u.id = %s")
    )


def board_lookup(
    *, slug: str, round_number: int, table_number: int, board: int, token: str | None = None, user: User | None = None
) -> BoardLookup | None:
    """Everything about one board in one statement, for the user behind `token` (None if
    the token is unknown) or for `user`."""
    by_token = user is None
    params = [EventRole.Role.ORGANISER, EventRole.Role.REFEREE, slug, round_number, table_number, board]
    db = connections[DEFAULT_DB_ALIAS]
    row = _first_statement(db, _board_sql(by_token), [*params, token if by_token else user.pk])
    if row is None:
        return None if by_token else BoardLookup(user)
    readers, start, found = _readers(), 0, {}
    for name in ("user", "event", "round", "table", "deal"):
        found[name] = readers[name].read(db, row, start)
        start += readers[name].width
    lookup = BoardLookup(found["user"] if by_token else user, found["event"])
    if found["table"] is not None:
        found["round"].event = found["event"]
        found["table"].round = found["round"]
        lookup.table = found["table"]
    if found["deal"] is not None:
        found["deal"].table = lookup.table
        lookup.deal = found["deal"]
    is_organiser, is_referee = row[-2:]
    lookup.roles = {
        r for r, held in ((EventRole.Role.ORGANISER, is_organiser), (EventRole.Role.REFEREE, is_referee)) if held
    }
    return lookup


@cache
def _deal_sql() -> str:
    return f"SELECT {_readers()['deal'].columns()} FROM {_table(Deal)} d WHERE d.table_id = %s AND d.board = %s"


def deal_at(table: Table, board: int) -> Deal | None:
    """The deal stored for `board` at `table`, or None."""
    db = connections[DEFAULT_DB_ALIAS]
    row = _fetchone(db, _deal_sql(), [table.pk, board])
    if row is None:
        return None
    deal = _readers()["deal"].read(db, row)
    deal.table = table
    return deal


@cache
def _insert_plan(model: type[Deal | DealHistory]) -> tuple[list[Any], str]:
    fields = [f for f in _concrete_fields(model) if not f.primary_key]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {_table(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(model._meta.pk.column)}"
    )
    return fields, sql


def insert(instance: Deal | DealHistory) -> Deal | DealHistory:
    """INSERT a new instance as `instance.save()` would (no signals: the app sends none), setting its pk."""
    fields, sql = _insert_plan(type(instance))
    db = connections[DEFAULT_DB_ALIAS]
    instance.pk = _fetchone(db, sql, _save_values(instance, fields, db))[0]
    _mark_saved(instance, db)
    return instance


@cache
def _create_with_history_sql() -> str:
    """PostgreSQL: the deal, its history row and the version bump as one statement."""
    deal_fields, _ = _insert_plan(Deal)
    history_fields, _ = _insert_plan(DealHistory)
    quote = connection.ops.quote_name
    bump_sql, _ = version_bump(Event())
    deal_pk = quote(Deal._meta.pk.column)
    history_values = ", ".join(f"(SELECT {deal_pk} FROM d)" if f.attname == "deal_id" else "%s" for f in history_fields)
    return (
        f"WITH d AS (INSERT INTO {_table(Deal)} ({', '.join(quote(f.column) for f in deal_fields)}) "
        f"VALUES ({', '.join(['%s'] * len(deal_fields))}) RETURNING {deal_pk}), "
        f"v AS ({bump_sql}) "
        f"INSERT INTO {_table(DealHistory)} ({', '.join(quote(f.column) for f in history_fields)}) "
        f"VALUES ({history_values}) RETURNING deal_id, {quote(DealHistory._meta.pk.column)}"
    )


def create_with_history(deal: Deal, history: DealHistory, *, public: bool, shard: int) -> None:
    """Insert a new deal and its history row and bump the event's results version,
    atomically; raises IntegrityError if the board already has a deal.

    On PostgreSQL this is one statement (a WITH … INSERT), which joins the caller's
    transaction (`deal_save` opens one to re-read the round's status first); SQLite
    has no INSERT inside WITH, so there it is three statements in a savepoint.
    """
    event = history.event
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with transaction.atomic():
            insert(deal)
            history.deal = deal
            announce_results_changed(event, public=public, shard=shard)
            insert(history)
        return
    deal_fields, _ = _insert_plan(Deal)
    history_fields, _ = _insert_plan(DealHistory)
    _, bump_params = version_bump(event, public=public, shard=shard)
    params = _save_values(deal, deal_fields, db)
    params += bump_params
    params += _save_values(history, [f for f in history_fields if f.attname != "deal_id"], db)
    # Outside a transaction the statement commits by itself; inside one it joins it.
    deal.pk, history.pk = _fetchone(db, _create_with_history_sql(), params)
    announce_results_changed(event, public=public, shard=shard, bumped=True)
    for instance in (deal, history):
        _mark_saved(instance, db)
    history.deal = deal


def round_status_for_write(round_id: int) -> str:
    """The round's status, read inside the caller's write transaction so that it cannot
    change before the transaction ends.

    PostgreSQL: `FOR SHARE`, so referees' writes to one round do not wait for each
    other, while publication (`SELECT … FOR UPDATE` of the round) waits for them
    and they for it. SQLite: the transaction already holds the one write lock.
    """
    db = connections[DEFAULT_DB_ALIAS]
    lock = " FOR SHARE" if db.vendor == "postgresql" else ""
    quote = connection.ops.quote_name
    sql = f"SELECT {quote('status')} FROM {_table(Round)} WHERE {quote(Round._meta.pk.column)} = %s{lock}"
    row = _fetchone(db, sql, [round_id])
    return None if row is None else row[0]
