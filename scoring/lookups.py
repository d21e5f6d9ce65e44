"""The look-ups every referee write makes, each as one SQL statement built once.

A deal PUT needs the token's user, the event, the user's roles in it, the
table with its round and the deal already there. Through the ORM that is five
queries, and each spends ~0.3 ms compiling SQL that never changes: under 50
referees at once that compiling was most of a PUT's time. Here the statements
are written once from the models' metadata, and rows become model instances
through the converters the ORM itself would apply, so callers get ordinary
`Event`, `Round`, `Table`, `Deal` and `User` objects. Django has no cache of
compiled queries; this is the small part of one that the hot path needs.
"""

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from scoring.models import ApiToken, Deal, Event, EventRole, Round, Table


class RowReader:
    """Reads one model's columns out of a wider row, as `Model.from_db` would get them."""

    def __init__(self, model, alias):
        self.model = model
        self.alias = alias
        self.fields = model._meta.concrete_fields
        self.names = [field.attname for field in self.fields]

    def columns(self):
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    @property
    def width(self):
        return len(self.fields)

    @cache  # noqa: B019 — one reader per model for the life of the process
    def converters(self):
        found = []
        for field in self.fields:
            column = field.get_col(self.alias)
            found.append((column, connection.ops.get_db_converters(column) + column.get_db_converters(connection)))
        return found

    def read(self, row, start=0):
        """The instance in `row[start:start + width]`, or None when its key is NULL (an outer join missed)."""
        values = list(row[start : start + self.width])
        if values[self.names.index(self.model._meta.pk.attname)] is None:
            return None
        for index, (column, converters) in enumerate(self.converters()):
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


def _table(model):
    return connection.ops.quote_name(model._meta.db_table)


@cache
def _readers():
    return {
        "user": RowReader(get_user_model(), "u"),
        "event": RowReader(Event, "e"),
        "round": RowReader(Round, "r"),
        "table": RowReader(Table, "t"),
        "deal": RowReader(Deal, "d"),
    }


@cache
def _token_sql():
    user = _readers()["user"]
    return (
        f"SELECT {user.columns()} FROM {_table(ApiToken)} k "
        f"JOIN {_table(get_user_model())} u ON u.id = k.user_id WHERE k.key = %s"
    )


def user_for_token(key):
    """The user an API token belongs to, or None."""
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(), [key])
        row = cursor.fetchone()
    return None if row is None else _readers()["user"].read(row)


@cache
def _board_sql():
    readers = _readers()
    role = _table(EventRole)
    return (
        f"SELECT {readers['event'].columns()}, {readers['round'].columns()}, {readers['table'].columns()}, "
        f"EXISTS (SELECT 1 FROM {role} o WHERE o.event_id = e.id AND o.user_id = %s AND o.role = %s), "
        f"EXISTS (SELECT 1 FROM {role} f WHERE f.event_id = e.id AND f.user_id = %s AND f.role = %s) "
        f"FROM {_table(Event)} e "
        f"LEFT JOIN {_table(Round)} r ON r.event_id = e.id AND r.number = %s "
        f"LEFT JOIN {_table(Table)} t ON t.round_id = r.id AND t.number = %s "
        "WHERE e.slug = %s"
    )


def event_table_roles(user, slug, round_number, table_number):
    """`(event, table, roles)` in one statement: the event by slug (None if unknown), the
    table of that round (None if unknown; its `round.event` is the event) and the
    user's roles in the event (a set of `EventRole.Role` values)."""
    params = [user.pk, EventRole.Role.ORGANISER, user.pk, EventRole.Role.REFEREE, round_number, table_number, slug]
    with connection.cursor() as cursor:
        cursor.execute(_board_sql(), params)
        row = cursor.fetchone()
    if row is None:
        return None, None, set()
    readers = _readers()
    event = readers["event"].read(row)
    start = readers["event"].width
    rnd = readers["round"].read(row, start)
    table = readers["table"].read(row, start + readers["round"].width)
    if table is not None:
        rnd.event = event
        table.round = rnd
    is_organiser, is_referee = row[-2:]
    roles = {EventRole.Role.ORGANISER} if is_organiser else set()
    if is_referee:
        roles.add(EventRole.Role.REFEREE)
    return event, table, roles


@cache
def _deal_sql():
    return f"SELECT {_readers()['deal'].columns()} FROM {_table(Deal)} d WHERE d.table_id = %s AND d.board = %s"


def deal_at(table, board):
    """The deal stored for `board` at `table`, or None."""
    with connection.cursor() as cursor:
        cursor.execute(_deal_sql(), [table.pk, board])
        row = cursor.fetchone()
    if row is None:
        return None
    deal = _readers()["deal"].read(row)
    deal.table = table
    return deal
