"""Importing whole events (`huapai-event/1`) into the database; exporting them is
`scoring.archive.export`."""

import io
import itertools
import json
from operator import itemgetter

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

BATCH = 2000
SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def read_archive_json(raw):
    """The JSON of an archive file (bytes or text), or `ArchiveError` saying why it is not JSON.
    Holds the whole document: a large file is checked by `check_archive` as it is read."""
    with json_refusals():
        return json.loads(raw) if raw.strip() else None


def import_archive_upload(upload, *, user, replace=False):
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
def check_archive(data, *, consume=False):
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


def import_archive(data, *, replace=False, consume=False):
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
def write_archive(parsed, *, replace=False):
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
        players = [
            Player(
                event=event,
                code=p["id"],
                name=p["name"],
                club=p["club"],
                federation_id=p["federation_id"],
                sort_key=p["sort_key"],
                extra=p["extra"],
            )
            for p in parsed.players
        ]
        for player in players:
            if not player.sort_key:
                player.sort_key = pinyin_sort_key(player.name)
        Player.objects.bulk_create(players, batch_size=BATCH)
        player_by_code = {p.code: p for p in Player.objects.filter(event=event)}
        # Every ranked unit is an entrant: in an individual event, an entrant of one player
        # with the player's number (the archive itself keeps listing players only).
        entrant_specs = parsed.entrants
        if info["kind"] == Event.Kind.INDIVIDUAL:
            entrant_specs = [
                {"id": p["id"], "name": "", "players": [p["id"]], "extra": {}, **{k: p[k] for k in AVAILABILITY}}
                for p in parsed.players
            ]
        Entrant.objects.bulk_create(
            [
                Entrant(event=event, code=e["id"], name=e["name"], extra=e["extra"], **{k: e[k] for k in AVAILABILITY})
                for e in entrant_specs
            ],
            batch_size=BATCH,
        )
        entrant_by_code = {e.code: e for e in Entrant.objects.filter(event=event)}
        Membership.objects.bulk_create(
            [
                Membership(entrant=entrant_by_code[e["id"]], player=player_by_code[code], position=position)
                for e in entrant_specs
                for position, code in enumerate(e["players"], start=1)
            ],
            batch_size=BATCH,
        )
        individual = info["kind"] == Event.Kind.INDIVIDUAL
        members_by_entrant = {e["id"]: [player_by_code[code] for code in e["players"]] for e in parsed.entrants}
        for index, parsed_round in enumerate(parsed_rounds):
            _write_round(event, parsed_round, entrant_by_code, player_by_code, members_by_entrant, individual)
            parsed_rounds[index] = None  # written: let it go
        announce_results_changed(event)
    return event


def _write_round(event, parsed_round, entrant_by_code, player_by_code, members_by_entrant, individual):
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
    matches, table_specs = [], []
    for number, parsed_match in enumerate(parsed_round.matches, start=1):
        extra = dict(parsed_match.extra)
        match = Match(round=rnd, number=number, label=extra.pop("label", ""), extra=extra)
        if parsed_match.bye:
            match.bye = entrant_by_code[parsed_match.bye]
        elif not individual:
            match.home = entrant_by_code[parsed_match.home]
            match.away = entrant_by_code[parsed_match.away]
        matches.append(match)
        table_specs.extend((match, parsed_table) for parsed_table in parsed_match.tables)
    Match.objects.bulk_create(matches, batch_size=BATCH)
    tables = []
    for match, parsed_table in table_specs:
        seats = {seat: player_by_code[code] for seat, code in parsed_table.seats.items()}
        if not seats and parsed_table.ns:
            # A pair's first player sits N (or E), the second S (or W).
            ns, ew = members_by_entrant[parsed_table.ns], members_by_entrant[parsed_table.ew]
            seats = {"N": ns[0], "S": ns[1], "E": ew[0], "W": ew[1]}
        tables.append(
            Table(
                round=rnd,
                match=match,
                number=parsed_table.number,
                ns_entrant=entrant_by_code.get(parsed_table.ns),
                ew_entrant=entrant_by_code.get(parsed_table.ew),
                north=seats.get("N"),
                east=seats.get("E"),
                south=seats.get("S"),
                west=seats.get("W"),
                # The chief arbiter's ruling on an unfinished match (升级), as the archive carries it.
                match_ruling=parsed_table.ruling,
            )
        )
    Table.objects.bulk_create(tables, batch_size=BATCH)
    LineUp.objects.bulk_create(
        [
            LineUp(
                table=table,
                session=lineup["session"],
                **{SEAT_FIELDS[s]: player_by_code[c] for s, c in lineup["seats"].items()},
            )
            for table, (_match, parsed_table) in zip(tables, table_specs, strict=True)
            for lineup in parsed_table.lineups
        ],
        batch_size=BATCH,
    )
    game = GAMES[event.game]
    _insert_rows(
        Deal,
        (
            {
                "table_id": table.id,
                "board": parsed_deal.board,
                "sequence": sequence,
                "adjusted": adjusted,
                "adjusted_reason": parsed_deal.adjusted_reason,
                "extra": parsed_deal.extra,
                "status": parsed_deal.status,
                **Deal.scored_columns(scored, game),
            }
            for table, (_match, parsed_table) in zip(tables, table_specs, strict=True)
            for sequence, parsed_deal in enumerate(parsed_table.deals, start=1)
            for scored, adjusted in (parsed_deal.unpacked(),)
        ),
        compact=("game_data", "penalties", "seat_stats"),
    )


def _insert_rows(model, rows, compact=()):
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

    def preparer(field):
        if field.get_internal_type() != "JSONField":
            return None
        if field.attname in compact:
            return lambda value: orjson.dumps(value).decode()
        return lambda value: field.get_db_prep_save(value, connection)

    def default(field):
        value, prepare = field.get_default(), preparer(field)
        return prepare(value) if prepare and value is not None else value

    json_at = [(index, prepare) for index, name in enumerate(names) if (prepare := preparer(fields[name]))]
    defaults = [default(f) for f in absent]
    given = itemgetter(*names) if len(names) > 1 else lambda row: (row[names[0]],)

    def values(row):
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


def _delete_event(event):
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
