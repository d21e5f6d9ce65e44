"""Importing whole events (`huapai-event/1`) into the database; exporting them is
`scoring.archive.export`."""

from __future__ import annotations

import io
import itertools
import json
from operator import itemgetter
from typing import TYPE_CHECKING

import orjson
from django.db import connection, transaction
from django.utils import timezone

from scoring.archive.format import (
    AVAILABILITY,
    ArchiveError,
    json_refusals,
    parse_header,
    parse_round,
    read_archive,
    read_event_slug,
)
from scoring.cache import announce_results_changed
from scoring.collector import without_collection
from scoring.engine.names import pinyin_sort_key
from scoring.events.permissions import is_organiser
from scoring.events.setup import may_create_events
from scoring.games import GAMES
from scoring.games.refusals import _
from scoring.models import (
    Deal,
    DealHistory,
    Entrant,
    Event,
    EventRole,
    LineUp,
    Match,
    Membership,
    Player,
    Round,
    Table,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, BinaryIO

    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import UploadedFile

    from scoring.archive.format import ParsedDeal, ParsedEvent, ParsedMatch, ParsedRound, ParsedTable
    from scoring.games.base import Game

BATCH = 2000
PEOPLE = 500  # players, entrants or memberships written at a time
SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def read_archive_json(raw: bytes) -> dict[str, Any]:
    """The JSON of an archive file (bytes or text), or `ArchiveError` saying why it is not JSON.
    Holds the whole document: a large file is checked by `check_archive` as it is read."""
    with json_refusals():
        return json.loads(raw) if raw.strip() else None


def import_archive_upload(upload: UploadedFile, *, user: User, replace: bool = False) -> Event:
    """An archive uploaded by an organiser who may create events (a binary file, or its bytes):
    a new event (the uploader becomes its organiser), or, with `replace`, in place of an event
    the uploader organises that has no results yet. Who may replace what is decided from the
    archive's `event` alone, before the rest is read."""
    if not may_create_events(user):  # replacing too: an import is the creation of an event
        raise ArchiveError(_("只有组织者账号可以创建赛事"), code="forbidden")
    if isinstance(upload, (str, bytes)):
        upload = io.BytesIO(upload.encode() if isinstance(upload, str) else upload)
    slug = read_event_slug(upload)
    existing = Event.objects.filter(slug=slug).first() if slug else None
    if existing is not None:
        if not replace:
            raise ArchiveError(_("赛事 {slug} 已存在"), code="event_exists", slug=existing.slug)
        if not is_organiser(user, existing):
            raise ArchiveError(_("你不是赛事 {slug} 的组织者，不能替换它"), code="forbidden", slug=existing.slug)
        if Deal.objects.filter(table__round__event=existing).exists():
            raise ArchiveError(_("赛事 {slug} 已有成绩，不能整体替换"), code="has_results", slug=existing.slug)
    parsed = check_archive(upload)
    with transaction.atomic():
        event = write_archive(parsed, replace=existing is not None)
        EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


@without_collection  # 360,000 checked deals wait for the write (scoring.collector)
def check_archive(data: Any, *, consume: bool = False) -> ParsedEvent | None:
    """A whole archive checked, every deal scored: a `ParsedEvent`. `data` is the archive's
    JSON as Python data, or a file (binary, seekable) or its bytes or text, read one match at
    a time (`format.read_archive`), so that the memory the check takes grows with what it
    keeps rather than with the JSON of the whole file. With `consume`, each round of `data`
    is released once checked (the caller's `data` loses its rounds)."""
    if isinstance(data, (str, bytes)):
        data = io.BytesIO(data.encode() if isinstance(data, str) else data)
    if hasattr(data, "read"):
        return read_archive(data)
    parsed, context = parse_header(data)
    raw_rounds = data.get("rounds") or []
    parsed_rounds = []
    for index in range(len(raw_rounds)):
        parsed_rounds.append(parse_round(raw_rounds[index], context))
        if consume:
            raw_rounds[index] = None
    parsed.rounds = sorted(parsed_rounds, key=lambda r: r.number)
    return parsed


def import_archive(
    data: dict[str, Any] | str | BinaryIO | None, *, replace: bool = False, consume: bool = False
) -> Event | None:
    """Check a whole archive, then write it in one transaction. Returns the `Event`.

    Every round is checked (and every deal scored) before the transaction
    starts: on SQLite a write transaction holds the one write lock that every
    referee waits for, so it holds it only while writing. An invalid deal in the
    last round refuses the archive before anything is written. `data` is what
    `check_archive` takes: Python data, or a file read as it is checked. An existing event
    with the same slug is refused unless `replace` is set; the replaced event and the new one
    are announced (`announce_results_changed`) in the transaction.
    """
    return write_archive(check_archive(data, consume=consume), replace=replace)


@without_collection
def write_archive(parsed: ParsedEvent, *, replace: bool = False) -> Event:
    """Write a checked archive (`check_archive`) in one transaction; the rounds are released
    as they are written."""
    info = parsed.event
    parsed_rounds = parsed.rounds
    with transaction.atomic():
        existing = Event.objects.filter(slug=info["slug"]).first()
        if existing and not replace:
            raise ArchiveError(_("赛事 {slug} 已存在"), code="event_exists", slug=info["slug"])
        if existing:
            entered_here = DealHistory.objects.filter(event=existing).count()
            if entered_here:
                raise ArchiveError(
                    _(
                        "赛事 {slug} 已有 {count} 条成绩修改记录（在本站录入），记录不能删除，"
                        "不能整体替换；请用新的代号导入"
                    ),
                    code="has_history",
                    slug=existing.slug,
                    count=entered_here,
                )
            _delete_event(existing)
        event = Event.objects.create(
            slug=info["slug"],
            name=info["name"],
            game=info["game"],
            ruleset=info["ruleset"],
            options=info["options"],
            game_threshold=info["game_threshold"],
            kind=info["kind"],
            match_mode=info["mode"],
            match_length=info["length"],
            points_win=info["points"]["win"],
            points_draw=info["points"]["draw"],
            points_loss=info["points"]["loss"],
            tiebreaks=info["tiebreaks"],
            entry=info["entry"],
            **info["fields"],
            extra={**info["extra"], **({"match": info["match_extra"]} if info["match_extra"] else {})},
        )
        player_ids, entrants = _write_people(event, parsed)
        ids = (entrants, player_ids)
        for index, parsed_round in enumerate(parsed_rounds):
            _write_round(event, parsed_round, ids)
            parsed_rounds[index] = None  # written: let it go
        announce_results_changed(event)
    return event


def _batches(items: Iterable[Any], size: int = BATCH) -> Iterator[list[Any]]:
    items = iter(items)
    while batch := list(itertools.islice(items, size)):
        yield batch


def _write_people(event: Event, parsed: ParsedEvent) -> tuple[dict[str, int], dict[str, tuple[int, ...]]]:
    """The players, the entrants and their memberships, written a batch at a time (of PEOPLE:
    a model object takes about a kilobyte) and referred to by id after: 20,000 of each as model
    objects took about 50 MB, for an archive of 1 MB. Returns the players' ids by code, and by
    an entrant's code its id followed by its players' ids in order (one tuple: a second map
    keyed by the codes took another megabyte for 10,000 pairs)."""
    for batch in _batches(parsed.players, PEOPLE):
        players = [
            Player(
                event=event,
                code=p["id"],
                name=p["name"],
                club=p["club"],
                federation_id=p["federation_id"],
                sort_key=p["sort_key"] or pinyin_sort_key(p["name"]),
                extra=p["extra"],
            )
            for p in batch
        ]
        Player.objects.bulk_create(players)
    player_ids = dict(Player.objects.filter(event=event).values_list("code", "id").iterator())
    # Every ranked unit is an entrant: in an individual event, an entrant of one player
    # with the player's number (the archive itself keeps listing players only).
    individual = event.kind == Event.Kind.INDIVIDUAL
    specs = parsed.players if individual else parsed.entrants
    for batch in _batches(specs, PEOPLE):
        Entrant.objects.bulk_create(
            [
                Entrant(
                    event=event,
                    code=e["id"],
                    name="" if individual else e["name"],
                    extra={} if individual else e["extra"],
                    **{k: e[k] for k in AVAILABILITY},
                )
                for e in batch
            ]
        )
    entrant_ids = dict(Entrant.objects.filter(event=event).values_list("code", "id").iterator())
    batch = []
    for spec in specs:
        entrant_id = entrant_ids[spec["id"]]
        members = tuple(player_ids[code] for code in ([spec["id"]] if individual else spec["players"]))
        for position, player_id in enumerate(members, start=1):
            batch.append(Membership(entrant_id=entrant_id, player_id=player_id, position=position))
        # The value replaced in place: the key stays the string the query read.
        entrant_ids[spec["id"]] = (entrant_id, *members)
        if len(batch) >= PEOPLE:
            Membership.objects.bulk_create(batch)
            batch = []
    Membership.objects.bulk_create(batch)
    return player_ids, entrant_ids


class _RoundWriter:
    """A round's matches, tables and deals written in batches as its packed matches are read
    (`PackedMatches.walk`): no more of them are model objects at once than a batch holds."""

    TABLES = 500  # tables (and their matches) a batch holds; deals: BATCH

    def __init__(self, rnd: Round, game: Game, ids: tuple[dict[str, int], dict[str, int], dict[str, Any]]) -> None:
        self.round, self.game = rnd, game
        # An entrant's code to (its id, its players' ids in order); a player's code to its id.
        self.entrants, self.player_ids = ids
        self.matches, self.tables, self.lineups, self.deals = [], [], [], []
        self.number = 0

    def match(self, parsed_match: ParsedMatch) -> Match:
        self.number += 1
        extra = dict(parsed_match.extra)
        match = Match(round=self.round, number=self.number, label=extra.pop("label", ""), extra=extra)
        if parsed_match.bye:
            match.bye_id = self.entrants[parsed_match.bye][0]
        elif parsed_match.home is not None:  # not individual
            match.home_id = self.entrants[parsed_match.home][0]
            match.away_id = self.entrants[parsed_match.away][0]
        self.matches.append(match)
        return match

    def table(self, match: Match, parsed_table: ParsedTable) -> Table:
        player_ids = self.player_ids
        seats = {seat: player_ids[code] for seat, code in parsed_table.seats.items()}
        if not seats and parsed_table.ns:
            # A pair's first player sits N (or E), the second S (or W).
            ns, ew = self.entrants[parsed_table.ns], self.entrants[parsed_table.ew]
            seats = {"N": ns[1], "S": ns[2], "E": ew[1], "W": ew[2]}
        table = Table(
            round=self.round,
            match=match,
            number=parsed_table.number,
            ns_entrant_id=self.entrants[parsed_table.ns][0] if parsed_table.ns else None,
            ew_entrant_id=self.entrants[parsed_table.ew][0] if parsed_table.ew else None,
            north_id=seats.get("N"),
            east_id=seats.get("E"),
            south_id=seats.get("S"),
            west_id=seats.get("W"),
            # The chief arbiter's ruling on an unfinished match (升级), as the archive carries it.
            match_ruling=parsed_table.ruling,
        )
        self.tables.append(table)
        self.lineups.extend(
            LineUp(
                table=table,
                session=lineup["session"],
                **{f"{SEAT_FIELDS[s]}_id": player_ids[c] for s, c in lineup["seats"].items()},
            )
            for lineup in parsed_table.lineups
        )
        return table

    def deal(self, table: Table, sequence: int, parsed_deal: ParsedDeal) -> None:
        scored, adjusted = parsed_deal.unpacked()
        row = {
            "board": parsed_deal.board,
            "sequence": sequence,
            "adjusted": adjusted,
            "adjusted_reason": parsed_deal.adjusted_reason,
            "extra": parsed_deal.extra,
            "status": parsed_deal.status,
            **Deal.scored_columns(scored, self.game),
        }
        self.deals.append((table, row))

    def full(self) -> bool:
        return len(self.deals) >= BATCH or len(self.tables) >= self.TABLES or len(self.matches) >= self.TABLES

    def flush(self) -> None:
        """Write what waits, each kind after the rows it refers to (a deal's table is saved
        before it, so its new id is read then); the deals as plain rows (`_insert_rows`)."""
        for model, rows in ((Match, self.matches), (Table, self.tables), (LineUp, self.lineups)):
            if rows:
                model.objects.bulk_create(rows)
        _insert_rows(
            Deal,
            ({"table_id": table.id, **row} for table, row in self.deals),
            compact=("game_data", "penalties", "seat_stats"),
        )
        self.matches, self.tables, self.lineups, self.deals = [], [], [], []


def _write_round(
    event: Event, parsed_round: ParsedRound, ids: tuple[dict[str, int], dict[str, int], dict[str, Any]]
) -> None:
    published = parsed_round.status in Round.PUBLISHED
    rnd = Round.objects.create(
        event=event,
        number=parsed_round.number,
        status=parsed_round.status,
        extra=parsed_round.extra,
        stage=parsed_round.stage,
        sessions=parsed_round.sessions or event.sessions_per_round,
        draw_released_at=timezone.now() if parsed_round.draw_released else None,
        # Published when imported: corrections from now on reach the public list of changes.
        published_at=timezone.now() if published else None,
    )
    writer = _RoundWriter(rnd, GAMES[event.game], ids)
    match = table = None
    for parsed_match, parsed_table, parsed_deal in parsed_round.matches.walk():
        if parsed_table is None:
            if writer.full():
                writer.flush()
            match = writer.match(parsed_match)
        elif parsed_deal is None:
            table, sequence = writer.table(match, parsed_table), 0
        else:
            sequence += 1
            writer.deal(table, sequence, parsed_deal)
            if len(writer.deals) >= BATCH:
                writer.flush()
    writer.flush()


def _insert_rows(model: type[Deal], rows: Iterator[Any], compact: tuple[str, str, str] = ()) -> None:
    """Insert `rows` (dicts of column values by attribute name, every row with the same keys;
    the model's defaults for the rest) into `model`'s table without model instances or the
    ORM's per-value preparation: as `bulk_create`, an archive's 360,000 deals took most of the
    write's time. The rows carry no id back and send no signal, as `bulk_create`'s send none.
    A JSON column is prepared by its field, as a save prepares it, but those named in
    `compact`, whose values the engine made (integers, strings, lists and objects only), which
    orjson writes as the same JSON a few times sooner. PostgreSQL takes the rows by COPY,
    SQLite by one prepared INSERT."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    fields = {f.attname: f for f in model._meta.concrete_fields if not f.primary_key}
    names = list(first)
    absent = [f for name, f in fields.items() if name not in first]

    def preparer(field: Any) -> Callable[..., Any] | None:
        if field.get_internal_type() != "JSONField":
            return None
        if field.attname in compact:
            return lambda value: orjson.dumps(value).decode()
        return lambda value: field.get_db_prep_save(value, connection)

    def default(field: Any) -> int | str | None:
        value, prepare = field.get_default(), preparer(field)
        return prepare(value) if prepare and value is not None else value

    json_at = [(index, prepare) for index, name in enumerate(names) if (prepare := preparer(fields[name]))]
    defaults = [default(f) for f in absent]
    given = itemgetter(*names) if len(names) > 1 else lambda row: (row[names[0]],)

    def values(row: dict[str, Any]) -> list[int | str | None]:
        value = [*given(row), *defaults]
        for index, prepare in json_at:
            if value[index] is not None:
                value[index] = prepare(value[index])
        return value

    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in [*(fields[name] for name in names), *absent])
    into = f"{quote(model._meta.db_table)} ({columns})"
    rows = itertools.chain([first], rows)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {into} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(values(row))
            return
        sql = f"INSERT INTO {into} VALUES ({', '.join(['%s'] * (len(names) + len(absent)))})"
        while batch := [values(row) for row in itertools.islice(rows, BATCH)]:
            cursor.executemany(sql, batch)


def _delete_event(event: Event) -> None:
    """The event replaced by an import goes whole. Announced like any write: its pages are keyed
    by its id, which the slug leads to no more (this process reads the slug's page stamp again)."""
    announce_results_changed(event)
    Deal.objects.filter(table__round__event=event).delete()
    Table.objects.filter(round__event=event).delete()
    Match.objects.filter(round__event=event).delete()
    Round.objects.filter(event=event).delete()
    Membership.objects.filter(entrant__event=event).delete()
    Entrant.objects.filter(event=event).delete()
    Player.objects.filter(event=event).delete()
    event.delete()
