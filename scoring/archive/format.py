"""Reading an event archive (`huapai-event/1`, event-archive.md) into plain, checked data.

No Django here: `scoring.archive.database` writes what this returns to the database,
and tests compute standings straight from it.

One module, read top to bottom in the order of event-archive.md (the header, the event,
players and entrants, then each round, match, table and deal): every check names the place of
a fault with the same dozen helpers, and a reader comparing the code with the format follows
one file, so the module stays whole although it checks four games' deals and every
structure the format names.
"""

from __future__ import annotations

import json
import re
import sys
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

import orjson

from scoring.archive.stream import JsonStream, TooLarge
from scoring.engine.clock import settings_problems as clock_problems
from scoring.engine.not_played import mark_problems, rule_problems
from scoring.engine.standings import Format, MatchResult, StandingsError, TableResult, match_games
from scoring.engine.vocabulary import (
    ARCHIVE_TIEBREAKS,
    DEFAULT_GAME_THRESHOLD,
    DEFAULT_MATCH_POINTS,
    DEFAULT_TIEBREAKS,
    GAME_THRESHOLDS,
    PUBLISHED_STATUSES,
    Kind,
    MatchMode,
    RoundStatus,
)
from scoring.games import DEFAULT_GAME, GAMES
from scoring.games.refusals import DealError, Refusal, Text, _
from scoring.games.rulings import read_ruling
from scoring.games.stored import (
    MATCH_LENGTH_OPTION,
    STANDINGS_OPTION,
    canonical_deal,
    carries_state,
    column_scores,
    event_option_specs,
    place_deal,
    rules_for_event,
    score_stored,
    table_match,
    table_outcome,
    table_points,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any, BinaryIO

    from scoring.games.base import Game

FORMAT = "huapai-event/1"
KINDS = tuple(Kind)
ROUND_STATUSES = tuple(RoundStatus)
EVENT_KEYS = {
    "game",
    "slug",
    "name",
    "ruleset",
    "game_threshold",
    "kind",
    "match",
    "match_points",
    "tiebreaks",
    "options",
    "entry",
}
ENTRY_MODES = ("referees", "players")  # event.entry (table-api.md)
# Optional keys the site stores as columns (planned rounds, closing and the chief arbiter
# travel with a back-up, though the format does not name them).
EVENT_FIELDS = (
    "venue",
    "start_date",
    "end_date",
    "chief_arbiter",
    "planned_rounds",
    "finished_at",
    "sessions_per_round",  # 节 per round, and whether pairs swap directions between them
    "swap_directions",
)
MAX_SESSIONS = 20
# The keys of an archive's deal that are not the game's own deal (`Game.deal_keys`).
SITE_DEAL_KEYS = {"board", "adjusted", "adjusted_reason", "options", "ruleset", "game"}


DEAL_STATUSES = {status: status for status in ("draft", "confirmed", "disputed")}


class ArchiveError(Refusal):
    """An archive refused as a whole; the message names the round, table, board and card."""

    def __init__(self, template: str, code: str = "bad_archive", **params: Any) -> None:
        super().__init__(code, template, **params)


# What a packed deal is compressed against (zlib's preset dictionary): the keys and cards of a
# scored 华牌 deal, which shrink a deal's 460 bytes of JSON to about 110 (any game's keys help).
_PACKING = (
    b'{"ruleset":"huapai","captured":{"N":["HA","HK","HQ","HJ","H10","H9","H8","H7","H6","H5","H4",'
    b'"H3","H2","SQ","DJ","C10"],"E":[],"S":[],"W":[]},"holders":{"SQ":"N","DJ":"E","C10":"S","HA":"W"},'
    b'"exposed":{"SQ":"shown","HA":"first"},"penalties":{"N":-100},"scores":{"N":-10,"E":-70,"S":-60,'
    b'"W":-120},"raw":{"N":-10,"E":-70,"S":-60,"W":-120},"sides":{"NS":-70,"EW":-190},"seat_stats":'
    b'{"N":[0,0,0,0,0,0,0],"E":[0,0,0,0,0,0,0],"S":[1,1,0,0,0,0,0],"W":[0,0,1,0,0,0,0]}}'
)


def _pack(value: list[dict[str, Any] | None]) -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _PACKING)
    return packer.compress(orjson.dumps(value)) + packer.flush()


def _unpack(packed: bytes) -> list[dict[str, Any] | None]:
    return orjson.loads(zlib.decompressobj(-15, _PACKING).decompress(packed))


class ParsedDeal:
    """A checked deal, waiting to be written. `scored` is the game's `score_stored` result
    (canonical fields and scores, no breakdown) and `adjusted` the arbiter's adjusted score
    (or None), kept packed together (their JSON, compressed) while the deal's match is checked:
    one match may hold a hundred thousand deals, and a deal as dicts takes 2.9 kB against about
    110 bytes packed (docs/performance.md). A deal read back from a round's packed matches
    (`PackedMatches`) holds them as plain values, since nothing else holds it for long."""

    __slots__ = ("_extra", "_value", "adjusted_reason", "board", "status")

    def __init__(
        self,
        board: int,
        scored: dict[str, Any],
        adjusted: dict[str, int] | None,
        adjusted_reason: str,
        extra: dict[str, dict[str, Any] | str],
        status: str = "confirmed",
    ) -> None:
        self.board = board
        self._value = _pack([scored, adjusted])
        self.adjusted_reason = adjusted_reason or ""
        self._extra = extra or None
        self.status = status

    @classmethod
    def _read(
        cls,
        board: int,
        adjusted_reason: str,
        extra: dict[str, dict[str, Any] | str] | None,
        status: str,
        value: list[dict[str, Any] | None],
    ) -> ParsedDeal:
        deal = cls.__new__(cls)
        deal.board, deal.adjusted_reason, deal._extra, deal.status = board, adjusted_reason, extra, status
        deal._value = tuple(value)
        return deal

    @property
    def scored(self) -> dict[str, Any]:
        return self.unpacked()[0]

    @property
    def adjusted(self) -> None:
        return self.unpacked()[1]

    def unpacked(self) -> tuple[dict[str, Any], dict[str, int] | None]:
        """`(scored, adjusted)`, unpacked once."""
        value = self._value
        return tuple(_unpack(value)) if isinstance(value, bytes) else value

    def _json(self) -> bytes:
        """`[scored, adjusted]` as the JSON it was packed from."""
        value = self._value
        if isinstance(value, bytes):
            return zlib.decompressobj(-15, _PACKING).decompress(value)
        return orjson.dumps(list(value))

    @property
    def extra(self) -> dict[str, dict[str, Any] | str]:
        return self._extra if self._extra is not None else {}

    def _fields(self) -> tuple[Any, ...]:
        return (self.board, self.scored, self.adjusted, self.adjusted_reason, self.extra, self.status)

    def __eq__(self, other: ParsedDeal) -> bool:
        return isinstance(other, ParsedDeal) and self._fields() == other._fields()

    __hash__ = None

    def __repr__(self) -> str:
        return f"ParsedDeal{self._fields()!r}"


@dataclass(slots=True)
class ParsedTable:
    number: int
    ns: str | None
    ew: str | None
    seats: dict  # seat -> player id
    deals: list = field(default_factory=list)
    raw: dict | None = None  # the table's own JSON (teams), which holds its deals
    lineups: list = field(default_factory=list)  # teams, pairs: [{"session", "seats"}] from a later 节 on
    # A match that carries a state (升级): the chief arbiter's ruling on it (the match's `"ruling"`,
    # `scoring.games.rulings`), and whether it is over (by itself, by the ruling, or its deals played).
    ruling: dict | None = None
    finished: bool = True


@dataclass(slots=True)
class ParsedMatch:
    home: str | None = None
    away: str | None = None
    bye: str | None = None
    tables: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def _dumps(value: list[Any]) -> bytes | None:
    # The standard library's encoder, not orjson: the extra keys an archive carries are kept as
    # they were read, integers beyond 64 bits and NaN included.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=True).encode()


def _loads(line: bytes) -> list[Any]:
    try:
        return json.loads(line)
    except RecursionError:
        # A value nested as deeply as the check let through (it refuses what the decoder cannot
        # read where it reads it), read back from further down the stack: the write's.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + 200)
        try:
            return json.loads(line)
        finally:
            sys.setrecursionlimit(limit)


class PackedMatches:
    """A round's checked matches, waiting to be written: each match's tables and deals written
    one line a piece (a match, then each table, then each of its deals, as JSON) into blocks
    compressed by zlib as they are appended. A table or match as Python objects takes about a
    kilobyte whatever the JSON it came from (a table of one deal is 70 bytes of JSON), so the
    matches of an archive of many small tables held as objects took over ten times the file; as
    lines in blocks they take less than the JSON they came from. Iterating gives each match as a
    `ParsedMatch` again, read as it is needed; `walk` gives the lines one at a time, so that a
    match of a hundred thousand deals is never whole as objects."""

    BLOCK = 1 << 20  # uncompressed bytes a block holds before it is closed

    def __init__(self, matches: tuple[()] = ()) -> None:
        self._blocks = []  # (compressed bytes, matches in it)
        self._packer = None
        self._pending, self._count, self._size = [], 0, 0
        for match in matches:
            self.append(match)

    def append(self, match: ParsedMatch) -> None:
        if self._packer is None:
            self._packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, _PACKING)
        put = self._put
        put(_dumps([match.home, match.away, match.bye, match.extra, len(match.tables)]))
        for table in match.tables:
            fields = [table.number, table.ns, table.ew, table.seats, table.lineups, table.ruling, table.finished]
            put(_dumps([*fields, len(table.deals)]))
            if isinstance(table.deals, PackedDeals):
                for line in table.deals.lines():
                    put(line)
            else:
                for deal in table.deals:
                    put(_deal_line(deal))
        self._count += 1
        if self._size >= self.BLOCK:
            self.close()

    def _put(self, line: bytes) -> None:
        self._size += len(line) + 1
        piece = self._packer.compress(line + b"\n")
        if piece:
            self._pending.append(piece)

    def close(self) -> None:
        """Close the open block (appending opens another)."""
        if self._packer is not None:
            self._pending.append(self._packer.flush())
            self._blocks.append((b"".join(self._pending), self._count))
            self._packer, self._pending, self._count, self._size = None, [], 0, 0

    def __len__(self) -> int:
        return sum(count for _block, count in self._blocks) + self._count

    def _lines(self) -> Iterator[list[Any]]:
        self.close()
        for block, _count in self._blocks:
            unpacker = zlib.decompressobj(-15, _PACKING)
            data, pending = block, b""
            while data:
                pending += unpacker.decompress(data, 1 << 20)
                data = unpacker.unconsumed_tail
                *lines, pending = pending.split(b"\n")
                yield from map(_loads, lines)
            pending += unpacker.flush()
            yield from map(_loads, pending.split(b"\n")[:-1])

    def walk(self) -> Iterator[tuple[ParsedMatch, ParsedTable | None, ParsedDeal | None]]:
        """Each match, then each of its tables, then each of that table's deals, one at a time:
        `(match, table, deal)` with the ones not reached yet None (a match's and a table's
        `tables` and `deals` are empty)."""
        lines = self._lines()
        for home, away, bye, extra, tables in lines:
            match = ParsedMatch(home=home, away=away, bye=bye, extra=extra)
            yield match, None, None
            for _table in range(tables):
                number, ns, ew, seats, lineups, ruling, finished, deals = next(lines)
                table = ParsedTable(number, ns, ew, seats, lineups=lineups, ruling=ruling, finished=finished)
                yield match, table, None
                for _deal in range(deals):
                    yield match, table, ParsedDeal._read(*next(lines))

    def __iter__(self) -> Iterator[ParsedMatch]:
        match = None
        for step, table, deal in self.walk():
            if deal is not None:
                table.deals.append(deal)
            elif table is not None:
                match.tables.append(table)
            else:
                if match is not None:
                    yield match
                match = step
        if match is not None:
            yield match

    def __getitem__(self, index: int) -> ParsedMatch:
        if index < 0:
            index += len(self)
        for number, match in enumerate(self):
            if number == index:
                return match
        raise IndexError(index)

    def __eq__(self, other: PackedMatches) -> bool:
        return isinstance(other, PackedMatches | list) and list(self) == list(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"PackedMatches({list(self)!r})"


class PackedList:
    """A list of JSON values waiting as lines in zlib blocks, read back one at a time: an
    archive's players and entrants, as read from the file and as checked. 20,000 players as
    dicts took about 30 MB for 1.4 MB of JSON; as lines they take less than the JSON. It reads
    like the list it stands for (`len`, iteration, an index, equality with a list); `append`
    adds one value at the end."""

    def __init__(self, values: Iterable[Any] = ()) -> None:
        self._blocks, self._pending, self._count, self._open, self._size = [], [], 0, 0, 0
        self._packer = None
        for value in values:
            self.append(value)

    def append(self, value: Any) -> None:
        # surrogatepass: a lone surrogate is refused by the checks, which read it back first.
        line = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
        self._add(line.encode("utf-8", "surrogatepass"))

    def _add(self, line: bytes) -> None:
        if self._packer is None:
            self._packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8)
        data = line + b"\n"
        piece = self._packer.compress(data)
        if piece:
            self._pending.append(piece)
        self._count += 1
        self._open += 1
        self._size += len(data)
        if self._open >= 4096 or self._size >= 1 << 18:  # a block read back whole: at most 256 kB
            self._close()

    def _close(self) -> None:
        if self._packer is not None:
            self._pending.append(self._packer.flush())
            self._blocks.append(b"".join(self._pending))
            self._packer, self._pending, self._open, self._size = None, [], 0, 0

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        self._close()
        for block in self._blocks:
            # json.loads of bytes decodes them with surrogatepass, as they were written.
            yield from map(_loads, zlib.decompress(block, -15).split(b"\n")[:-1])

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            index += len(self)
        for number, value in enumerate(self):
            if number == index:
                return value
        raise IndexError(index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackedList | list) and list(self) == list(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"PackedList({list(self)!r})"


class PackedDeals(PackedList):
    """A table's checked deals once there are many (HELD_DEALS): each as the line `PackedMatches`
    writes for it, in zlib blocks, read back as a `ParsedDeal` holding plain values. A checked
    deal as an object takes about 250 bytes even packed, so a match of 130,000 of the smallest
    deals (28 bytes of JSON each) held 32 MB of them."""

    def append(self, deal: ParsedDeal) -> None:
        self._add(_deal_line(deal))

    def lines(self) -> Iterator[bytes]:
        """Each deal's line, as bytes."""
        self._close()
        for block in self._blocks:
            yield from zlib.decompress(block, -15).split(b"\n")[:-1]

    def __iter__(self) -> Iterator[ParsedDeal]:
        for line in self.lines():
            yield ParsedDeal._read(*_loads(line))

    def __repr__(self) -> str:
        return f"PackedDeals({list(self)!r})"


def _deal_line(deal: ParsedDeal) -> bytes:
    """A checked deal as the line `PackedMatches` writes for it."""
    head = _dumps([deal.board, deal.adjusted_reason, deal._extra, deal.status])
    return head[:-1] + b"," + deal._json() + b"]"


@dataclass
class ParsedRound:
    number: int
    status: str
    matches: PackedMatches = field(default_factory=PackedMatches)
    extra: dict = field(default_factory=dict)
    draw_released: bool = False
    stage: str = ""
    sessions: int | None = None  # 节 of the round (None: the event's)


@dataclass
class ParsedEvent:
    event: dict  # slug, name, ruleset, game_threshold, kind, mode, length, points, tiebreaks, extra
    players: PackedList  # dicts: id, name, club, federation_id, extra
    entrants: PackedList  # dicts: id, name, players, extra
    rounds: list

    @property
    def game(self) -> Game:
        return GAMES[self.event["game"]]

    @property
    def format(self) -> Format:
        e = self.event
        return Format(
            kind=e["kind"],
            mode=e["mode"],
            length=e["length"],
            threshold=e["game_threshold"],
            points=e["points"],
            tiebreaks=e["tiebreaks"],
            standings=e["options"].get(STANDINGS_OPTION, "total"),
            game=e["game"],
        )

    def match_results(self) -> list[MatchResult]:
        results = []
        by_points = self.format.standings == "table_points"
        for rnd in self.rounds:
            for match in rnd.matches:
                tables = [
                    TableResult.from_deals(
                        t.ns,
                        t.ew,
                        [
                            {"scores": column_scores(scored["scores"]), "penalties": scored.get("penalties")}
                            for scored in (d.scored for d in t.deals if d.status == "confirmed")
                        ],
                        t.seats,
                    )
                    for t in match.tables
                ]
                for table in tables if by_points else ():
                    table.seat_points = table_points(self.game, table.seat_totals)
                if carries_state(self.game):  # 升级: each table's match decided by the engine
                    for table, parsed in zip(tables, match.tables, strict=True):
                        deals = sorted(parsed.deals, key=lambda d: d.board)
                        confirmed = [canonical_deal(self.game, d.scored) for d in deals if d.status == "confirmed"]
                        outcome = table_outcome(
                            self.game, _rules_for(self.event), confirmed, self.event["length"], parsed.ruling
                        )
                        table.set_outcome(outcome)
                results.append(
                    MatchResult(round=rnd.number, home=match.home, away=match.away, bye=match.bye, tables=tables)
                )
        return results

    def entrant_ids(self) -> list[str]:
        if self.event["kind"] == Kind.INDIVIDUAL:
            return [p["id"] for p in self.players]
        return [e["id"] for e in self.entrants]


# shared/formats/event-archive.md: the characters of slugs and ids.
# The largest events have had ten thousand players; an archive of more (a 100,000-entrant file
# took 67 s and a gigabyte before failing on something else) is refused before anything is written.
MAX_PEOPLE = 20_000
MAX_ROUNDS = 200
# Tables and deals in one archive: the largest event (10,000 players, 9 rounds of 16 boards) has
# 22,500 tables and 360,000 deals. Checked tables and deals wait packed in less memory than their
# JSON however small it is (`PackedMatches`; docs/security.md), so these bound the time an archive
# takes rather than its memory.
MAX_TABLES = 100_000
MAX_DEALS = 1_000_000
# One match's JSON (a table of 16 boards is about 10 kB as exported; its deals packed past
# HELD_DEAL_CHARACTERS), and each key of the archive but its rounds (20,000 players are about 2 MB,
# 10 MB with every text at its longest; read an element at a time): not more.
MAX_MATCH_CHARACTERS = 4_000_000
MAX_HEADER_CHARACTERS = 16_000_000
SLUG = re.compile(r"[a-z0-9-]{1,50}")
ENTRANT_ID = re.compile(r"[A-Za-z0-9_-]{1,20}")
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # players of pairs and teams are not entrants


def _require(condition: bool | str | tuple[int, int], template: str, **params: Any) -> None:
    if not condition:
        raise ArchiveError(template, **params)


def _round(number: int) -> Text:
    return Text(_("第{round}轮"), round=number)


def _table(round_number: int, table_number: int) -> Text:
    return Text(_("第{round}轮 {table}号桌"), round=round_number, table=table_number)


def _storable(text: str) -> bool:
    """No NUL (PostgreSQL stores none in text or JSON) and no lone surrogate (JSON's "\\ud800"
    decodes to one; no database can encode it)."""
    return "\x00" not in text and not _LONE_SURROGATE.search(text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_nul(value: dict[str, Any], where: str) -> None:
    """Refuse, by name and anywhere in the archive, text no database can store.

    Depth first, each container's children from the last to the first (the order the first
    fault found has always been named in), holding an iterator per level rather than every
    child with its path: a match of a hundred thousand deals took 16 MB of paths here."""
    if _plainly_storable(value):
        return
    frames = [(iter(((None, value),)), None)]  # (the children still to visit, the parent's trail)
    while frames:
        children, trail = frames[-1]
        for step, item in children:
            here = trail if step is None else (trail, step)
            if isinstance(item, str):
                if not _storable(item):
                    raise ArchiveError(_("{path}：文字中有 NUL 字符或无效的 Unicode"), path=_path(where, here))
            elif isinstance(item, dict):
                for key in item:
                    if not _storable(key):
                        raise ArchiveError(_("{path}：键名中有 NUL 字符或无效的 Unicode"), path=_path(where, here))
                frames.append((iter(reversed(item.items())), here))
                break
            elif isinstance(item, list):
                frames.append((zip(range(len(item) - 1, -1, -1), reversed(item), strict=True), here))
                break
            elif isinstance(item, PackedList):
                _packed_without_nul(item, where, here)
        else:
            frames.pop()


def _packed_without_nul(values: PackedList, where: str, trail: Any) -> None:
    """A packed list's elements walked as a list's are, read forward once: the walk names the
    fault of the last element that has one, so the last fault found is the one raised."""
    fault = None
    for index, value in enumerate(values):
        if not _plainly_storable(value):
            try:
                _without_nul(value, _path(where, (trail, index)))
            except ArchiveError as error:
                fault = error
    if fault is not None:
        raise fault


def _path(where: str, trail: Any) -> str:
    """A place named as `where` then each key (`.key`) and index (`[n]`) down to it."""
    steps = []
    while trail is not None:
        trail, step = trail
        steps.append(f"[{step}]" if type(step) is int else f".{step}")
    return where + "".join(reversed(steps))


def _plainly_storable(value: dict[str, Any]) -> bool:
    """Whether `value` holds no such text, decided at C speed for the usual archive (walking
    every string of every match in Python was a fifth of checking a large one): orjson refuses
    a lone surrogate and writes NUL as \\u0000. A text that spells "\\u0000" out, and anything
    else orjson refuses (an integer beyond 64 bits, nesting past its depth), is left to the walk."""
    try:
        return b"\\u0000" not in orjson.dumps(value)
    except orjson.JSONEncodeError:
        return False


# A final stage's rounds and knockout matches (site keys, preserved like any extra key).
STAGES = ("", "knockout", "final_round_robin")
LABELS = ("", "quarter_final", "semi_final", "final", "third_place")

# event-archive.md: an entrant (a player in individual events) may leave or join part-way.
AVAILABILITY = ("withdrawn_after_round", "joined_round")


def _availability(raw: dict[str, Any]) -> dict[str, int | None]:
    found = {}
    for key in AVAILABILITY:
        value = raw.get(key)
        _require(value is None or _number(value), _("{id} 的 {key} 必须是正整数"), id=raw["id"], key=key)
        found[key] = value
    return found


def _known(value: list[Any] | str, ids: dict[str, str] | set[str]) -> bool:
    """An id the archive declared: a string (a list or object can be in no set) that is in `ids`."""
    return isinstance(value, str) and value in ids


def _text(value: str | None, limit: int, what: Text | str) -> str | None:
    _require(
        value is None or (isinstance(value, str) and len(value) <= limit and _storable(value)),
        _("{what} 必须是不超过 {limit} 个字符的文字"),
        what=what,
        limit=limit,
    )
    return (value or "").strip()


def _moment(value: str) -> datetime | None:
    """An ISO 8601 time as an aware datetime (UTC when no offset is given), or None."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _number(value: Any, limit: int = 999_999_999) -> bool:
    """A whole number for a column: not a bool, positive, within a 32-bit column."""
    return type(value) is int and 0 < value <= limit


def _extra(obj: dict[str, Any], known: set[str]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key not in known}


def _event(raw: dict[str, Any] | int) -> dict[str, Any]:
    _require(isinstance(raw, dict), _("“event” 必须是对象"))
    slug = raw.get("slug")
    _require(isinstance(slug, str) and slug.strip(), _("event.slug 缺失"))
    _require(
        SLUG.fullmatch(slug.strip()) is not None,
        _("event.slug {slug!r:.60} 只能含小写字母、数字和 -（1–50 个）"),
        slug=slug,
    )
    game_id = raw.get("game", DEFAULT_GAME)
    if game_id is None:
        game_id = DEFAULT_GAME  # null counts as absent (games law §0)
    _require(_known(game_id, set(GAMES)), _("未知的游戏 {game!r:.40}"), code="unknown_game", game=game_id)
    game = GAMES[game_id]
    _require(game.event_kinds != (), _("本站还不能举办 {game} 比赛"), game=game_id)
    ruleset = raw.get("ruleset", game.default_ruleset)
    _require(type(ruleset) is str and ruleset in game.rulesets, _("未知规则 {name!r:.40}"), name=ruleset)
    options = raw.get("options") or {}
    _require(isinstance(options, dict), _("event.options 必须是对象"))
    threshold = raw.get("game_threshold", DEFAULT_GAME_THRESHOLD)
    # The game's own (华牌: ±1000, ±800); a game whose units do not end at a score: any the
    # event's 局分 may hold (its export writes the default it keeps).
    thresholds = game.match_thresholds or GAME_THRESHOLDS
    _require(
        type(threshold) is int and threshold in thresholds,
        _("局分必须是 {known}"),
        known=" / ".join(map(str, thresholds)),
    )
    kind = raw.get("kind", Kind.PAIRS.value if game.event_kinds is None else game.event_kinds[0])
    _require(isinstance(kind, str) and kind in KINDS, _("未知赛事类型 {kind!r:.40}"), kind=kind)
    _require(
        game.event_kinds is None or kind in game.event_kinds,
        _("{game} 的赛事类型只能是 {kinds}，不能是 {kind}"),
        game=game_id,
        kinds=" / ".join(game.event_kinds or ()),
        kind=kind,
    )
    match = raw.get("match") or {"mode": "boards"}
    _require(isinstance(match, dict), _("event.match 必须是对象"))
    mode = match.get("mode", "boards")
    _require(
        isinstance(mode, str) and mode in tuple(MatchMode),
        _("未知赛制 {mode!r:.40}"),
        mode=mode,
    )
    _require(not (mode == MatchMode.GAMES and kind != Kind.PAIRS), _("局制只适用于双人赛"))
    _require(mode != MatchMode.GAMES or game.match_thresholds, _("{game} 没有局制"), game=game_id)
    length = match.get("games" if mode == MatchMode.GAMES else "boards", 2 if mode == MatchMode.GAMES else 16)
    _require(
        _number(length, 1000),
        _("match 的副数或局数必须是 1–1000 的整数"),
    )
    if any(spec.name == MATCH_LENGTH_OPTION for spec in event_option_specs(game)):
        # The match is the game's number of deals: the option and `match.boards` say the same.
        given = options.get(MATCH_LENGTH_OPTION)
        length = match.get("boards", given if given is not None else _option_default(game, MATCH_LENGTH_OPTION))
        _require(
            given is None or given == length,
            _("event.options.{option} 与 event.match.boards 不一致"),
            option=MATCH_LENGTH_OPTION,
        )
        _require(_number(length, 1000), _("match 的副数或局数必须是 1–1000 的整数"))
        options = {**options, MATCH_LENGTH_OPTION: length}
    try:
        rules_for_event(game, ruleset, options, threshold)
    except DealError as problem:
        raise ArchiveError(
            _("event.options：{problem}"), code=problem.code, problem=Text(problem.template, **problem.params)
        ) from None
    given_points = raw.get("match_points") or {}
    _require(
        isinstance(given_points, dict)
        and set(given_points) <= {"win", "draw", "loss"}
        and all(type(v) is int and -1000 <= v <= 1000 for v in given_points.values()),
        _("match_points 必须是 win/draw/loss 的整数（±1000 以内）"),
    )
    points = {**DEFAULT_MATCH_POINTS, **given_points}
    for key in ("start_date", "end_date"):
        value = raw.get(key)
        _require(
            value is None or _is_date(value),
            _("event.{key} 必须是 YYYY-MM-DD"),
            key=key,
        )
    tiebreaks = raw.get("tiebreaks") or list(DEFAULT_TIEBREAKS)
    known = set(ARCHIVE_TIEBREAKS)
    _require(isinstance(tiebreaks, list), _("tiebreaks 必须是列表"))
    for criterion in tiebreaks:
        _require(_known(criterion, known), _("未知破同分标准 {name!r:.40}"), name=criterion)
    name = _text(raw.get("name"), 200, "event.name")
    for key in ("venue",):
        _text(raw.get(key), 200, f"event.{key}")
    _text(raw.get("chief_arbiter"), 100, "event.chief_arbiter")
    entry = raw.get("entry", "referees")
    _require(_known(entry, set(ENTRY_MODES)), _("event.entry 必须是 referees 或 players"))
    # Site keys the format does not name, kept in the event's extra as they are (the rule for a
    # board not played, the round clock): checked, since the site reads them.
    for problem in rule_problems(raw) + clock_problems(raw):
        raise ArchiveError(problem)
    _require(
        raw.get("planned_rounds") is None or _number(raw["planned_rounds"], MAX_ROUNDS),
        _("event.planned_rounds 必须是 1 到 {limit} 的整数"),
        limit=MAX_ROUNDS,
    )
    _require(
        raw.get("sessions_per_round") is None or _number(raw["sessions_per_round"], MAX_SESSIONS),
        _("event.sessions_per_round 必须是 1 到 {limit} 的整数"),
        limit=MAX_SESSIONS,
    )
    _require(
        raw.get("swap_directions") is None or isinstance(raw["swap_directions"], bool),
        _("event.swap_directions 必须是 true 或 false"),
    )
    _require(
        raw.get("finished_at") is None or _moment(raw["finished_at"]) is not None,
        _("event.finished_at 必须是 ISO 8601 时间"),
    )
    return {
        "game": game_id,
        "slug": slug.strip(),
        "name": name or slug.strip(),
        "ruleset": ruleset,
        "options": dict(options),
        "entry": entry,
        "game_threshold": threshold,
        "kind": kind,
        "mode": mode,
        "length": length,
        "points": points,
        "tiebreaks": list(tiebreaks),
        "match_extra": _extra(match, {"mode", "boards", "games"}),
        "fields": {
            key: date.fromisoformat(raw[key])
            if key.endswith("_date")
            else _moment(raw[key])
            if key == "finished_at"
            else raw[key]
            for key in EVENT_FIELDS
            if raw.get(key)
        },
        "extra": _extra(raw, EVENT_KEYS | set(EVENT_FIELDS)),
    }


def parse_archive(data: dict[str, Any] | list[int | None] | None, rules_for: Any = None) -> ParsedEvent:
    """Check a whole archive and return a `ParsedEvent`; raise `ArchiveError` naming the fault."""
    parsed, context = parse_header(data, rules_for)
    parsed.rounds = sorted(
        (parse_round(raw_round, context) for raw_round in data.get("rounds") or []), key=lambda r: r.number
    )
    return parsed


# The keys of an archive that the checks of its rounds depend on.
HEADER_KEYS = {"format", "event", "players", "pairs", "teams"}


def read_archive(binary: Any, rules_for: Any = None) -> ParsedEvent | None:
    """Check an archive read from a binary, seekable file, one match at a time; return a
    `ParsedEvent` as `parse_archive` does, or raise `ArchiveError` naming the fault (a file
    that is not JSON or not UTF-8 with json's words and its place in the file).

    Only the checked form is kept (each round's `PackedMatches`, the people's `PackedList`s)
    beside one match of the file's JSON, its deals packed when they are many, and a window of
    its text (`scoring.archive.stream`), so the memory taken grows with the
    checked archive, packed, not with the JSON of the whole. The keys may come in any order: a round's
    matches before its number, or the rounds before the players, are read once to find what
    follows, then again.
    """
    with json_refusals():
        return _read_archive(JsonStream(binary), rules_for)


@contextmanager
def json_refusals() -> Iterator[None]:
    """The faults of a file that is not JSON (or not UTF-8) as `ArchiveError`s."""
    try:
        yield
    except Refusal:
        raise  # a refusal of what the JSON says, already worded (a Refusal is a ValueError)
    except TooLarge as error:
        raise ArchiveError(_("存档中有一项超过 {limit} 个字符"), limit=error.args[0]) from None
    except UnicodeDecodeError as error:
        raise ArchiveError(_("不是 UTF-8 文本（第 {byte} 字节）"), byte=error.start) from None
    except ValueError as error:
        raise ArchiveError(_("不是有效的 JSON：{detail}"), detail=str(error)[:200]) from None
    except RecursionError:
        raise ArchiveError(_("JSON 嵌套过深")) from None


def _read_archive(stream: JsonStream, rules_for: None) -> ParsedEvent | None:
    if stream.peek() != "{":  # nothing, or not an object: refused as parse_archive refuses it
        data = stream.value(limit=MAX_HEADER_CHARACTERS) if stream.peek() else None
        stream.end()
        return parse_archive(data, rules_for)
    header, rounds_at, parsed, after = {}, None, None, set()
    for key in stream.members():
        if key in PEOPLE_KEYS and stream.peek() == "[":
            header[key] = _packed_list(stream, MAX_HEADER_CHARACTERS)
            if parsed is not None:
                after.add(key)
            continue
        if key != "rounds" or stream.peek() != "[":
            header[key] = stream.value(limit=MAX_HEADER_CHARACTERS)
            if parsed is not None:
                after.add(key)
            continue
        header.pop("rounds", None)
        _require(rounds_at is None, _("“{key}” 出现两次"), key="rounds")
        rounds_at = stream.mark()
        if _header_complete(header):  # as exports write it: the rounds come last, read once
            parsed, context = parse_header(header, rules_for)
            parsed.rounds = _stream_rounds(stream, context)
        else:
            _skip_rounds(stream)
    stream.end()
    if parsed is None or after & HEADER_KEYS:
        parsed, context = parse_header(header, rules_for)
        if rounds_at is not None:
            stream.seek(rounds_at)
            parsed.rounds = _stream_rounds(stream, context)
    else:
        _without_nul({key: header[key] for key in after}, "archive")
    parsed.rounds.sort(key=lambda r: r.number)
    return parsed


# The keys of an archive that list people, read an element at a time and kept packed until the
# header is checked: 20,000 players as decoded JSON took about 10 MB, for 1.4 MB of file.
PEOPLE_KEYS = ("players", "pairs", "teams")


def _packed_list(stream: Any, limit: int) -> PackedList:
    """An array read an element at a time into a `PackedList`; `TooLarge` when its text runs
    past `limit` characters, as `stream.value(limit)` would."""
    start = stream.position()
    values = PackedList()
    try:
        for _element in stream.elements():
            values.append(stream.value(limit=limit - (stream.position() - start)))
            if stream.position() - start > limit:
                raise TooLarge(limit)
    except TooLarge:
        raise TooLarge(limit) from None  # the list's limit, not what was left of it
    if stream.position() - start > limit:
        raise TooLarge(limit)
    return values


def read_event_slug(binary: BinaryIO) -> str | None:
    """The slug an archive file names (None when it names none), reading no further than its
    `event`; the file is left where it was. Raises `ArchiveError` for a file that is not JSON
    up to there."""
    start = binary.tell()
    try:
        with json_refusals():
            stream = JsonStream(binary)
            if stream.peek() != "{":
                return None
            for key in stream.members():
                if key == "event":
                    event = stream.value(limit=MAX_HEADER_CHARACTERS)
                    slug = event.get("slug") if isinstance(event, dict) else None
                    return slug.strip() if isinstance(slug, str) else None
                if key == "rounds" and stream.peek() == "[":
                    _skip_rounds(stream)
                else:
                    stream.skip(depth=3, limit=MAX_MATCH_CHARACTERS)
            return None
    finally:
        binary.seek(start)


def _header_complete(header: dict[str, Any]) -> bool:
    """Whether the keys the rounds' checks need have all been read (the kind's entrants too)."""
    if not {"format", "event", "players"} <= set(header):
        return False
    event = header["event"]
    if not isinstance(event, dict):
        return True  # refused by parse_header
    game = GAMES.get(event.get("game") or DEFAULT_GAME) if isinstance(event.get("game"), str | None) else None
    default = Kind.PAIRS if game is None or not game.event_kinds else game.event_kinds[0]
    kind = event.get("kind", default)
    return kind == Kind.INDIVIDUAL or ("teams" if kind == Kind.TEAMS else "pairs") in header


def _stream_rounds(stream: JsonStream, context: _Context) -> list[ParsedRound]:
    rounds = []
    for _element in stream.elements():
        _require(len(rounds) < MAX_ROUNDS, _("“{key}” 超过 {limit} 项"), key="rounds", limit=MAX_ROUNDS)
        if stream.peek() == "{":
            rounds.append(_stream_round(stream, context))
        else:
            rounds.append(parse_round(stream.value(limit=MAX_MATCH_CHARACTERS), context))  # refused
    return rounds


def _stream_round(stream: JsonStream, context: _Context) -> ParsedRound | None:
    """One round read key by key, its matches one at a time (after its own keys when the
    number comes first, as exports write it; else read again once the number is known)."""
    head, matches_at, rnd, seated = {}, None, None, None
    for key in stream.members():
        if key != "matches" or stream.peek() != "[":
            head[key] = stream.value(limit=MAX_MATCH_CHARACTERS)
            continue
        head.pop("matches", None)
        _require(matches_at is None, _("“{key}” 出现两次"), key="matches")
        matches_at = stream.mark()
        if _number(head.get("number")):
            rnd, seated = _stream_round_begin(head, context)
            _stream_matches(stream, rnd, context, seated)
        else:
            _skip_matches(stream)
    if rnd is None:
        if matches_at is None:
            return parse_round(head, context)  # no matches to stream (or refused)
        rnd, seated = _stream_round_begin(head, context)
        after = stream.mark()
        stream.seek(matches_at)
        _stream_matches(stream, rnd, context, seated)
        stream.seek(after)
    else:  # keys named after the matches
        _without_nul(head, f"rounds[number={rnd.number}]")
        _round_keys(rnd, head)
    return _round_end(rnd, seated)


def _stream_round_begin(head: dict[str, Any], context: _Context) -> tuple[ParsedRound, _Seated]:
    _require(_number(head.get("number")), _("每轮需要正整数 number"))
    _without_nul(head, f"rounds[number={head['number']}]")
    rnd = _round_begin(head, context)
    return rnd, _Seated(rnd.number)


# A table's checked deals held as objects before they are packed (`PackedDeals`) instead.
HELD_DEALS = 2_000
# The characters of a match's deals held as decoded JSON before they are packed instead: a deal
# of 28 characters takes about 300 bytes as objects, so 100,000 characters take about 1 MB.
HELD_DEAL_CHARACTERS = 100_000


class _MatchReader:
    """One match read from the stream as `stream.value(limit)` reads it (the same dict, the same
    faults in the same places, `TooLarge` past `limit` characters), but with its deals packed
    once they pass HELD_DEAL_CHARACTERS (a `PackedList` where the list was): a match of 130,000
    of the smallest deals (3.7 MB of file) took 47 MB decoded whole. The deals are the match's
    own `deals` (pairs, individuals) or each of its `tables`' (teams); any other key is read
    whole."""

    def __init__(self, stream: Any, limit: int, teams: bool | None) -> None:
        # teams None: the kind is not known (a pass that only skips), both ways are packed.
        self.stream, self.limit, self.teams = stream, limit, teams
        stream.peek()  # counted from the match's first character, as `stream.value` counts
        self.start = stream.position()

    def read(self) -> Any:
        if self.stream.peek() != "{":
            return self._value()
        return self._object(self.teams)

    def _left(self) -> int:
        used = self.stream.position() - self.start
        if used > self.limit:
            raise TooLarge(self.limit)
        return self.limit - used

    def _value(self) -> Any:
        try:
            return self.stream.value(limit=self._left())
        except TooLarge:
            raise TooLarge(self.limit) from None

    def _object(self, tables: bool | None) -> dict[str, Any]:
        stream, found = self.stream, {}
        for key in stream.members():
            if stream.peek() != "[":
                found[key] = self._value()
            elif tables is not False and key == "tables":
                found[key] = self._tables()
            elif tables is not True and key == "deals":
                found[key] = self._deals()
            else:
                found[key] = self._value()
        self._left()
        return found

    def _tables(self) -> list[Any]:
        found = []
        for _element in self.stream.elements():
            found.append(self._object(False) if self.stream.peek() == "{" else self._value())
        self._left()
        return found

    def _deals(self) -> Any:
        deals, start = [], self.stream.position()
        for _element in self.stream.elements():
            deals.append(self._value())
            if type(deals) is list and self.stream.position() - start > HELD_DEAL_CHARACTERS:
                deals = PackedList(deals)
        self._left()
        return deals


def _skip_rounds(stream: Any) -> None:
    """Pass over the rounds as `stream.skip(depth=3, limit=MAX_MATCH_CHARACTERS)` does (the same
    faults), each round's matches read as `_MatchReader` reads them, their deals packed."""
    for _element in stream.elements():
        if stream.peek() != "{":
            stream.skip(depth=2, limit=MAX_MATCH_CHARACTERS)
            continue
        for key in stream.members():
            if key == "matches" and stream.peek() == "[":
                _skip_matches(stream)
            else:
                stream.skip(depth=1, limit=MAX_MATCH_CHARACTERS)


def _skip_matches(stream: Any) -> None:
    """Pass over a round's matches (the kind not known yet: both a match's deals and its tables'
    packed), as `stream.skip(depth=1, limit=MAX_MATCH_CHARACTERS)` does."""
    for _element in stream.elements():
        _MatchReader(stream, MAX_MATCH_CHARACTERS, None).read()


def _stream_matches(stream: Any, rnd: Any, context: Any, seated: Any) -> None:
    teams = context.event["kind"] == Kind.TEAMS
    for index, _element in enumerate(stream.elements()):
        try:
            raw_match = _MatchReader(stream, MAX_MATCH_CHARACTERS, teams).read()
        except TooLarge:
            raise ArchiveError(
                _("第{round}轮第 {n} 场比赛超过 {limit} 个字符"),
                round=rnd.number,
                n=index + 1,
                limit=MAX_MATCH_CHARACTERS,
            ) from None
        _without_nul(raw_match, f"rounds[number={rnd.number}].matches[{index}]")
        _label(raw_match, rnd.number)
        _round_match(rnd, raw_match, context, seated, consume=True)
        del raw_match


@dataclass
class _Context:
    """What checking one round needs to know of the whole archive."""

    event: dict
    rules: object  # the game's rules in force
    player_ids: dict  # each id to itself: one string per id, shared by the members below
    entrant_ids: set
    members_of: dict  # an entrant's players, a tuple of ids
    round_numbers: set = field(default_factory=set)
    tables: int = 0  # checked so far (MAX_TABLES)
    deals: int = 0  # (MAX_DEALS)


def parse_header(data: dict[str, Any] | None, rules_for: Any = None) -> tuple[ParsedEvent, _Context]:
    """Check everything but the rounds; returns `(ParsedEvent with no rounds, context)`.

    `parse_round(raw_round, context)` then checks one round at a time, so a
    large import can write and forget each round in turn.
    """
    _require(isinstance(data, dict), _("存档必须是 JSON 对象"))
    _without_nul({key: value for key, value in data.items() if key != "rounds"}, "archive")
    _require(isinstance(data.get("rounds") or [], list), _("“{key}” 必须是列表"), key="rounds")
    _require(len(data.get("rounds") or []) <= MAX_ROUNDS, _("“{key}” 超过 {limit} 项"), key="rounds", limit=MAX_ROUNDS)
    _require(data.get("format") == FORMAT, _("format 必须是 {format!r}"), format=FORMAT)
    event = _event(data.get("event"))
    rules = (rules_for or _rules_for)(event)

    # Checked players and entrants wait packed (`PackedList`); the ids are kept once each, the
    # members of an entrant as a tuple of the same strings.
    players = PackedList()
    player_ids = {}
    raw_players = data.get("players") or []
    _require(isinstance(raw_players, list | PackedList), _("“{key}” 必须是列表"), key="players")
    _require(len(raw_players) <= MAX_PEOPLE, _("“{key}” 超过 {limit} 项"), key="players", limit=MAX_PEOPLE)
    player_pattern = ENTRANT_ID if event["kind"] == Kind.INDIVIDUAL else PLAYER_ID
    for raw in raw_players:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            _("选手缺少 id：{raw!r:.60}"),
            raw=raw,
        )
        _require(
            player_pattern.fullmatch(raw["id"]) is not None,
            _("选手编号 {id!r:.40} 只能含字母、数字、- 和 _"),
            id=raw["id"],
        )
        _require(raw["id"] not in player_ids, _("选手编号重复：{id}"), id=raw["id"])
        _require(
            isinstance(raw.get("name"), str) and raw["name"].strip(),
            _("选手 {id} 缺少姓名"),
            id=raw["id"],
        )
        _text(raw["name"], 100, Text(_("选手 {id} 的姓名"), id=raw["id"]))
        for key, limit in (("club", 100), ("federation_id", 40), ("sort_key", 200)):
            _text(raw.get(key), limit, Text(_("选手 {id} 的 {key}"), id=raw["id"], key=key))
        player_ids[raw["id"]] = raw["id"]
        players.append(
            {
                "id": raw["id"],
                "name": raw["name"].strip(),
                "club": raw.get("club") or "",
                "federation_id": raw.get("federation_id") or "",
                "sort_key": raw.get("sort_key") or "",
                **_availability(raw),
                "extra": _extra(raw, {"id", "name", "club", "federation_id", "sort_key", *AVAILABILITY}),
            }
        )

    kind = event["kind"]
    entrants = PackedList()
    entrant_ids = set()
    members_of = {}
    group = "pairs" if kind == Kind.PAIRS else "teams"
    raw_entrants = (data.get(group) or []) if kind != Kind.INDIVIDUAL else []
    _require(isinstance(raw_entrants, list | PackedList), _("“{key}” 必须是列表"), key=group)
    _require(len(raw_entrants) <= MAX_PEOPLE, _("“{key}” 超过 {limit} 项"), key=group, limit=MAX_PEOPLE)
    for raw in raw_entrants:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            _("{group} 缺少 id"),
            group=group,
        )
        code = raw["id"]
        _require(
            ENTRANT_ID.fullmatch(code) is not None,
            _("编号 {id!r:.40} 只能含字母、数字、- 和 _（1–20 个）"),
            id=code,
        )
        _require(code not in entrant_ids, _("编号重复：{id}"), id=code)
        members = raw.get("players") or []
        _require(
            isinstance(members, list) and all(isinstance(m, str) for m in members),
            _("{id} 的 players 必须是选手编号的列表"),
            id=code,
        )
        for member in members:
            _require(_known(member, player_ids), _("{id} 的选手 {player} 不存在"), id=code, player=member)
        substitutes = (raw.get("substitutes") or []) if kind == Kind.PAIRS else []
        if kind == Kind.PAIRS:
            _require(len(members) == 2, _("{id} 必须恰有两名选手"), id=code)
            # Site key: a pair's registered substitutes (替补), who may sit in a later 节.
            _require(
                isinstance(substitutes, list)
                and len(substitutes) <= 1
                and all(isinstance(m, str) and _known(m, player_ids) for m in substitutes),
                _("{id} 的 substitutes 必须是已有选手编号的列表（至多一名）"),
                id=code,
            )
            members = [*members, *substitutes]
        else:
            _require(len(members) >= 2, _("{id} 至少需要两名选手"), id=code)
        _require(len(set(members)) == len(members), _("{id} 的选手重复"), id=code)
        entrant_ids.add(code)
        members_of[code] = tuple(player_ids[member] for member in members)
        entrants.append(
            {
                "id": code,
                "name": _text(raw.get("name"), 200, Text(_("{id} 的名称"), id=code)),
                "players": list(members),
                **_availability(raw),
                "extra": _extra(raw, {"id", "name", "players", "substitutes", *AVAILABILITY}),
            }
        )

    context = _Context(event=event, rules=rules, player_ids=player_ids, entrant_ids=entrant_ids, members_of=members_of)
    return ParsedEvent(event=event, players=players, entrants=entrants, rounds=[]), context


def parse_round(raw_round: dict[str, Any], context: _Context) -> ParsedRound | None:
    """Check one round of the archive (rounds come in any order, each number once)."""
    _require(
        isinstance(raw_round, dict) and _number(raw_round.get("number")),
        _("每轮需要正整数 number"),
    )
    number = raw_round["number"]
    _without_nul(raw_round, f"rounds[number={number}]")
    rnd = _round_begin(raw_round, context)
    raw_matches = raw_round.get("matches") or []
    _require(isinstance(raw_matches, list), _("{where}：matches 必须是列表"), where=_round(number))
    for raw_match in raw_matches:
        _label(raw_match, number)
    seated = _Seated(number)
    for raw_match in raw_matches:
        _round_match(rnd, raw_match, context, seated)
    return _round_end(rnd, seated)


def _round_begin(raw_round: dict[str, Any], context: _Context) -> ParsedRound:
    """A round's own keys checked (all but its matches; the number first) and its number
    taken: the round, without matches yet."""
    numbers = context.round_numbers
    number = raw_round["number"]
    _require(number not in numbers, _("第{round}轮重复"), round=number)
    numbers.add(number)
    return _round_keys(ParsedRound(number=number, status=""), raw_round)


def _round_keys(rnd: ParsedRound, raw_round: dict[str, Any]) -> ParsedRound:
    """The keys of a round other than its number and matches, checked onto `rnd` (again when
    a streamed round names some after its matches)."""
    number = rnd.number
    status = raw_round.get("status")
    _require(
        status is None or (isinstance(status, str) and status in ROUND_STATUSES),
        _("第{round}轮状态 {status!r:.40} 无效"),
        round=number,
        status=status,
    )
    draw = raw_round.get("draw")
    _require(
        draw is None or draw in ("released", "hidden"),
        _("第{round}轮 draw 必须是 released 或 hidden"),
        round=number,
    )
    sessions = raw_round.get("sessions")
    _require(
        sessions is None or _number(sessions, MAX_SESSIONS),
        _("第{round}轮 sessions 必须是 1 到 {limit} 的整数"),
        round=number,
        limit=MAX_SESSIONS,
    )
    stage = raw_round.get("stage", "")
    _require(stage in STAGES, _("第{round}轮 stage {stage!r:.40} 无效"), round=number, stage=stage)
    rnd.status = status or ""
    rnd.extra = _extra(raw_round, {"number", "status", "matches", "draw", "stage", "sessions"})
    rnd.draw_released = draw == "released"
    rnd.stage = stage
    rnd.sessions = sessions
    return rnd


def _label(raw_match: dict[str, Any] | list[Any], number: int) -> None:
    label = raw_match.get("label", "") if isinstance(raw_match, dict) else ""
    _require(label in LABELS, _("第{round}轮 label {label!r:.40} 无效"), round=number, label=label)


class _Seated:
    """The tables and entrants a round has seated so far: each once. And what the round's end
    asks of its matches, noted as each is checked (they wait packed): the first table whose match
    is neither over nor ruled on, and whether a match was played without deals."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.tables, self.entrants = set(), set()
        self.unruled, self.without_deals = None, False

    def checked(self, match: ParsedMatch) -> None:
        if self.unruled is None:
            self.unruled = next((t.number for t in match.tables if not t.finished), None)
        if not any(t.deals for t in match.tables):
            self.without_deals = True

    def __call__(self, entrant: str, where: Text | str) -> None:
        _require(
            entrant not in self.entrants,
            _("第{round}轮：{id} 出现两次（{where}）"),
            round=self.number,
            id=entrant,
            where=where,
        )
        self.entrants.add(entrant)


def _round_match(
    rnd: ParsedRound, raw_match: dict[str, Any] | list[Any], context: _Context, seated: _Seated, consume: bool = False
) -> None:
    """One match of a round checked, its deals scored, and added to the round. With `consume`
    (the match was read for this alone), each deal's JSON is let go once it is checked."""
    event, kind = context.event, context.event["kind"]
    number = rnd.number
    _require(
        isinstance(raw_match, dict),
        _("{where}：比赛必须是对象"),
        where=_round(number),
    )
    if "bye" in raw_match:
        bye = raw_match["bye"]
        known_ids = context.player_ids if kind == Kind.INDIVIDUAL else context.entrant_ids
        _require(
            _known(bye, known_ids),
            _("{where}：轮空的 {id!r:.40} 不存在"),
            where=_round(number),
            id=bye,
        )
        seated(bye, Text(_("轮空")))
        rnd.matches.append(ParsedMatch(bye=bye, extra=_extra(raw_match, {"bye"})))
        return
    if kind == Kind.TEAMS:
        match = _team_match(raw_match, number, context.entrant_ids, context.members_of, seated.tables, seated)
    else:
        match = _table_match(
            raw_match,
            number,
            kind,
            context.entrant_ids,
            context.player_ids,
            context.members_of,
            seated.tables,
            seated,
            event["game"],
        )
    context.tables += len(match.tables)
    _require(context.tables <= MAX_TABLES, _("存档超过 {limit} 桌"), limit=MAX_TABLES)
    for table in match.tables:
        _deals(table, raw_match if kind != Kind.TEAMS else None, number, context.rules, event, consume)
        context.deals += len(table.deals)
        _require(context.deals <= MAX_DEALS, _("存档超过 {limit} 副牌"), limit=MAX_DEALS)
        table.raw = None  # its deals are checked: the raw JSON goes
        if kind == Kind.PAIRS and carries_state(GAMES[event["game"]]):
            _match_ruling(table, match, number, context.rules, event)
    seated.checked(match)
    rnd.matches.append(match)


def _round_end(rnd: ParsedRound, seated: _Seated) -> ParsedRound:
    """A round's status when the archive gives none, and no unruled match in a published round."""
    number = rnd.number
    rnd.matches.close()
    unruled = seated.unruled
    if not rnd.status:
        # A match that did not finish and was not ruled on has no result yet: its round is in play.
        every = not seated.without_deals and unruled is None
        rnd.status = "official" if every else "in_play"
    _require(
        rnd.status not in PUBLISHED_STATUSES or unruled is None,
        _("第{round}轮 {table}号桌：比赛未结束，也没有裁判长的裁定（ruling）；已公布的轮次不能有未定结果的比赛"),
        code="unruled_match",
        round=number,
        table=unruled,
    )
    return rnd


def _match_ruling(table: ParsedTable, match: ParsedMatch, round_number: int, rules: Any, event: dict[str, Any]) -> None:
    """A pairs table of a game whose match carries a state (升级): the chief arbiter's ruling the
    match carries (`"ruling": {"outcome", "reason"}`, kept out of the match's extra keys: the
    site stores it on the table), checked as the site checks it — a match that did not finish
    by itself, with deals, a reason written — and whether the match is over."""
    game = GAMES[event["game"]]
    where = _table(round_number, table.number)
    raw = match.extra.pop("ruling", None)
    confirmed = [canonical_deal(game, d.scored) for d in table.deals if d.status == "confirmed"]
    result = table_match(game, rules, confirmed)
    if raw is not None:
        try:
            ruling = read_ruling(game, raw, 0 if result is None else result["deals_played"])
        except DealError as error:
            raise ArchiveError(
                _("{where}：{problem} [{deal_code}]"),
                where=where,
                problem=Text(error.template, **error.params),
                deal_code=error.code,
            ) from None
        _require(
            result is not None and not result["finished"] and len(confirmed) == len(table.deals),
            _("{where}：只有未打完、各副都已确认的比赛才有裁判长的裁定（ruling）"),
            code="bad_ruling",
            where=where,
        )
        table.ruling = ruling
    outcome = table_outcome(game, rules, confirmed, event["length"], table.ruling)
    # A table without a confirmed deal has no match to decide here (its boards are the question).
    table.finished = outcome is None or bool(outcome[3])


def _is_date(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


def _rules_for(event: dict[str, Any]) -> Any:
    return rules_for_event(GAMES[event["game"]], event["ruleset"], event["options"], event["game_threshold"])


def _option_default(game: Game, name: str) -> Any:
    return next(spec.default for spec in event_option_specs(game) if spec.name == name)


def _table_number(raw: dict[str, Any], where: Text, tables_seen: set[int]) -> int:
    number = raw.get("table")
    _require(_number(number), _("{where}：需要正整数桌号"), where=where)
    _require(number not in tables_seen, _("{where}：{table}号桌重复"), where=where, table=number)
    tables_seen.add(number)
    return number


def _table_match(
    raw: dict[str, Any],
    number: int,
    kind: str,
    entrant_ids: set[str],
    player_ids: set[str],
    members_of: dict[str, set[str]],
    tables_seen: set[int],
    seat_once: _Seated,
    game_id: str,
) -> ParsedMatch | None:
    table_number = _table_number(raw, _round(number), tables_seen)
    where = _table(number, table_number)
    at_table = Text(_("{table}号桌"), table=table_number)
    if kind == Kind.PAIRS:
        ns, ew = raw.get("ns"), raw.get("ew")
        for code in (ns, ew):
            _require(_known(code, entrant_ids), _("{where}：对 {id!r:.40} 不存在"), where=where, id=code)
        _require(ns != ew, _("{where}：同一对不能对阵自己"), where=where)
        shared = set(members_of[ns]).intersection(members_of[ew])
        _require(
            not shared,
            _("{where}：选手 {players} 同时坐在两方"),
            where=where,
            players=", ".join(sorted(shared)),
        )
        seat_once(ns, at_table)
        seat_once(ew, at_table)
        table = ParsedTable(number=table_number, ns=ns, ew=ew, seats={})
        table.lineups = _lineups(raw.get("lineups"), where, members_of[ns], members_of[ew])
        return ParsedMatch(
            home=ns, away=ew, tables=[table], extra=_extra(raw, {"table", "ns", "ew", "deals", "lineups"})
        )
    seats = raw.get("seats")
    game_seats = GAMES[game_id].seats  # an individual's match has the game's seats
    _require(
        isinstance(seats, dict) and set(seats) == set(game_seats),
        _("{where}：seats 需要 {seats}"),
        where=where,
        seats=" ".join(game_seats),
    )
    for seat, player in seats.items():
        _require(
            _known(player, player_ids),
            _("{where}：{seat} 座选手 {player!r:.40} 不存在"),
            where=where,
            seat=seat,
            player=player,
        )
        seat_once(player, f"{at_table} {seat}")
    _require(len(set(seats.values())) == len(game_seats), _("{where}：同一选手坐了两个座位"), where=where)
    table = ParsedTable(number=table_number, ns=None, ew=None, seats={seat: seats[seat] for seat in game_seats})
    return ParsedMatch(tables=[table], extra=_extra(raw, {"table", "seats", "deals"}))


def _team_match(
    raw: dict[str, list[Any] | str],
    number: int,
    entrant_ids: set[str],
    members_of: dict[str, set[str]],
    tables_seen: set[int],
    seat_once: _Seated,
) -> ParsedMatch:
    where = _round(number)
    home, away = raw.get("home"), raw.get("away")
    for code in (home, away):
        _require(_known(code, entrant_ids), _("{where}：队 {id!r:.40} 不存在"), where=where, id=code)
    _require(home != away, _("{where}：{id} 不能对阵自己"), where=where, id=home)
    seat_once(home, f"{home}–{away}")
    seat_once(away, f"{home}–{away}")
    match = ParsedMatch(home=home, away=away, extra=_extra(raw, {"home", "away", "tables"}))
    raw_tables = raw.get("tables") or []
    _require(isinstance(raw_tables, list), _("{where}：tables 必须是列表"), where=where)
    for raw_table in raw_tables:
        _require(isinstance(raw_table, dict), _("{where}：每桌必须是对象"), where=where)
        table_number = _table_number(raw_table, where, tables_seen)
        here = _table(number, table_number)
        ns_team, ew_team = raw_table.get("ns_team"), raw_table.get("ew_team")
        _require(
            isinstance(ns_team, str) and isinstance(ew_team, str) and {ns_team, ew_team} == {home, away},
            _("{where}：ns_team/ew_team 必须是 {home} 和 {away}"),
            where=here,
            home=home,
            away=away,
        )
        ns_players, ew_players = raw_table.get("ns") or [], raw_table.get("ew") or []
        _require(
            isinstance(ns_players, list)
            and isinstance(ew_players, list)
            and len(ns_players) == 2
            and len(ew_players) == 2
            and all(isinstance(p, str) for p in ns_players + ew_players),
            _("{where}：ns 和 ew 各需两名选手"),
            where=here,
        )
        for player in ns_players:
            _require(
                player in members_of[ns_team],
                _("{where}：{player} 不是 {team} 的队员"),
                where=here,
                player=player,
                team=ns_team,
            )
        for player in ew_players:
            _require(
                player in members_of[ew_team],
                _("{where}：{player} 不是 {team} 的队员"),
                where=here,
                player=player,
                team=ew_team,
            )
        seats = {"N": ns_players[0], "S": ns_players[1], "E": ew_players[0], "W": ew_players[1]}
        _require(len(set(seats.values())) == 4, _("{where}：同一选手坐了两个座位"), where=here)
        table = ParsedTable(number=table_number, ns=ns_team, ew=ew_team, seats=seats, raw=raw_table)
        table.lineups = _lineups(raw_table.get("lineups"), here, members_of[ns_team], members_of[ew_team])
        match.tables.append(table)
    _require(len(match.tables) == 2, _("{where} {home}–{away}：团体赛每场两桌"), where=where, home=home, away=away)
    return match


def _lineups(
    raw: list[dict[str, Any]] | None, where: Text, ns_members: set[str], ew_members: set[str]
) -> list[dict[str, Any]]:
    """A team or pair table's substitutions (site key `lineups`):
    [{"session": n ≥ 2, "ns": [N, S], "ew": [E, W]}]."""
    if raw is None:
        return []
    _require(isinstance(raw, list), _("{where}：lineups 必须是列表"), where=where)
    found, sessions = [], set()
    for item in raw:
        ok = (
            isinstance(item, dict)
            and _number(item.get("session"), 20)
            and item["session"] >= 2
            and item["session"] not in sessions
            and isinstance(item.get("ns"), list)
            and isinstance(item.get("ew"), list)
            and len(item["ns"]) == 2
            and len(item["ew"]) == 2
            and all(isinstance(p, str) and p in ns_members for p in item["ns"])
            and all(isinstance(p, str) and p in ew_members for p in item["ew"])
            and len(set(item["ns"] + item["ew"])) == 4
        )
        _require(ok, _("{where}：lineups 的第 {n} 项无效"), where=where, n=len(found) + 1)
        sessions.add(item["session"])
        found.append(
            {
                "session": item["session"],
                "seats": {"N": item["ns"][0], "S": item["ns"][1], "E": item["ew"][0], "W": item["ew"][1]},
            }
        )
    return found


def _board_or_zero(raw: dict[str, Any]) -> int:
    return raw.get("board") if isinstance(raw, dict) and _number(raw.get("board")) else 0


def _deals(
    table: ParsedTable,
    raw_match: dict[str, Any] | None,
    round_number: int,
    rules: Any,
    event: dict[str, Any],
    consume: bool = False,
) -> None:
    game = GAMES[event["game"]]
    # A game whose match is a number of deals (`deals_per_match`) has no board beyond it.
    counted = any(spec.name == MATCH_LENGTH_OPTION for spec in event_option_specs(game))
    known_keys = {*game.deal_keys, *SITE_DEAL_KEYS}
    raw_deals = (raw_match if raw_match is not None else table.raw).get("deals") or []
    _require(
        isinstance(raw_deals, list | PackedList),
        _("{where}：deals 必须是列表"),
        where=_table(round_number, table.number),
    )
    boards = set()
    threaded = carries_state(game)  # 升级: each deal at its place in the table's match (M1)
    if threaded:
        raw_deals = sorted(raw_deals, key=_board_or_zero)
    earlier = []
    for index, raw in enumerate(raw_deals):
        board = raw.get("board") if isinstance(raw, dict) else None
        _require(_number(board), _("{where}：每副需要正整数 board"), where=_table(round_number, table.number))
        where = Text(_("第{round}轮 {table}号桌 第{board}副"), round=round_number, table=table.number, board=board)
        _require(board not in boards, _("{where}：同一桌重复"), where=where)
        _require(
            not threaded or board == len(earlier) + 1,
            _("{where}：前面缺少第 {missing} 副（每副接着上一副的状态打）"),
            where=where,
            missing=len(earlier) + 1,
        )
        _require(
            not counted or board <= event["length"],
            _("{where}：这场比赛只有 {deals} 副"),
            code="match_over",
            where=where,
            deals=event["length"],
        )
        boards.add(board)
        adjusted = raw.get("adjusted")
        try:
            placed = place_deal(game, rules, raw, earlier) if threaded else raw
            scored = score_stored(game, rules, placed, adjusted)
        except DealError as error:
            problem = Text(error.template, **error.params)
            raise ArchiveError(
                _("{where}：{problem} [{deal_code}]"), where=where, problem=problem, deal_code=error.code
            ) from None
        status = raw.get("status", "confirmed")
        _require(_known(status, DEAL_STATUSES), _("{where}：status 无效"), where=where)
        status = DEAL_STATUSES[status]  # one string for every deal that waits
        for problem in mark_problems(raw):
            raise ArchiveError(_("{where}：{problem}"), where=where, problem=Text(problem))
        _text(raw.get("adjusted_reason"), 500, Text(_("{where} adjusted_reason"), where=where))
        del scored["breakdown"]  # 360,000 deals: keep only what is stored
        if threaded:
            earlier.append(canonical_deal(game, scored))
        table.deals.append(
            ParsedDeal(
                board=board,
                scored=scored,
                adjusted=adjusted,
                adjusted_reason=raw.get("adjusted_reason") or "",
                extra=_extra(raw, known_keys | {"status"}),
                status=status,
            )
        )
        if consume and type(raw_deals) is list:
            raw_deals[index] = None
        if type(table.deals) is list and len(table.deals) >= HELD_DEALS:
            table.deals = PackedDeals(table.deals)  # a match of many small deals held them twice, as JSON and checked
    if event["mode"] == MatchMode.GAMES and table.deals:
        sides = [(scored["sides"]["NS"], scored["sides"]["EW"]) for scored in (d.scored for d in table.deals)]
        try:
            match_games(game.match_units(sides, event["game_threshold"]), event["length"])
        except StandingsError as error:
            board = table.deals[error.deal_index].board
            raise ArchiveError(
                _("第{round}轮 {table}号桌 第{board}副：在第{games}局结束之后"),
                round=round_number,
                table=table.number,
                board=board,
                games=event["length"],
            ) from None
