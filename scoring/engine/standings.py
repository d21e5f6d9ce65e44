"""Standings: plain match results in, ranked rows out (event-archive.md, "How results are computed").

No Django here: `scoring.results.standings` loads the plain data from the database and
the archive import builds it from JSON; both call `compute_standings`. What depends on a
game's law is asked of the event's game, named by the `Format` (`Format.units`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from scoring.engine.vocabulary import (
    DEFAULT_GAME_THRESHOLD,
    DEFAULT_MATCH_POINTS,
    DEFAULT_TIEBREAKS,
    INDIVIDUAL_LABELS,
    STANDINGS_TABLE_POINTS,
    STANDINGS_TOTAL,
    TIEBREAK_LABELS,
    Kind,
    MatchMode,
)
from scoring.games import DEFAULT_GAME, get_game
from scoring.games.refusals import Refusal, _

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

CRITERIA_LABELS = {**TIEBREAK_LABELS, **INDIVIDUAL_LABELS}


@dataclass
class Format:
    kind: str = Kind.PAIRS
    mode: str = MatchMode.BOARDS
    length: int = 16  # boards per match, or 局 per match in games mode
    threshold: int = DEFAULT_GAME_THRESHOLD
    points: dict = field(default_factory=lambda: dict(DEFAULT_MATCH_POINTS))
    tiebreaks: list = field(default_factory=lambda: list(DEFAULT_TIEBREAKS))
    # Individual events: "total" (the total score) or "table_points" (games law §0, the total
    # the first tie-break); table points per table come with the results (`TableResult.seat_points`).
    standings: str = STANDINGS_TOTAL
    # The game the event plays, by id (`scoring.games.GAMES`): it groups a games-mode table's
    # deals into the units its match is won by (`units`). Left out, an event's default game (the
    # one game today whose matches may be played in units: `Game.match_thresholds`).
    game: str = DEFAULT_GAME

    def units(self, side_scores: list[tuple[int, int]]) -> list[Any]:
        """A games-mode table's deals (`[(ns, ew)]` in playing order) grouped by the event's game
        into the units its match is won by (`Game.match_units`: 华牌's 局 at `threshold`)."""
        return get_game(self.game).match_units(side_scores, self.threshold)

    @property
    def bye_table_points(self) -> int:
        """What an individual's bye (sitting a round out) earns in table points: what an average
        full table of the game gives (event-archive.md: §0's 2 / 1 / 0 per opponent averages
        `seats − 1`, 2 at a table of three, 3 at a table of four). Its total score is 0 either way."""
        return len(get_game(self.game).seats) - 1


@dataclass
class TableResult:
    """One table of a match. Side scores include penalties."""

    ns: str | None = None  # entrant sitting NS (pair or team); None in individual events
    ew: str | None = None
    side_scores: list = field(default_factory=list)  # [(ns, ew)] per deal in order (games mode)
    ns_total: int = 0
    ew_total: int = 0
    ns_penalty: int = 0
    ew_penalty: int = 0
    deal_count: int = 0
    seats: dict = field(default_factory=dict)  # seat -> player id (individual)
    seat_totals: dict = field(default_factory=dict)  # seat -> total score (individual)
    seat_points: dict = field(default_factory=dict)  # seat -> the game's table points (individual)
    # A game whose match carries a state (升级): the match's own winner ("NS", "EW", "draw"; None
    # while unfinished: the totals, its levels, then decide as they stand) and whether it is over.
    winner: str | None = None
    finished: bool | None = None

    def set_outcome(self, outcome: tuple[int, int, str | None, bool]) -> None:
        """A table of a game that carries a state (`games.stored.table_outcome`): the totals
        are the levels the sides reached, the match's winner and end its own."""
        if outcome is not None:
            self.ns_total, self.ew_total, self.winner, self.finished = outcome

    @classmethod
    def from_deals(
        cls, ns: str | None, ew: str | None, deals: list[dict[str, Any]], seats: dict[str, str] | None = None
    ) -> TableResult:
        """`deals`: [{"scores": {seat: int}, "penalties": {seat: int}}] in playing order."""
        table = cls(ns=ns, ew=ew, seats=seats or {})
        totals = defaultdict(int)
        for deal in deals:
            scores, penalties = deal["scores"], deal.get("penalties") or {}
            ns_side = scores.get("N", 0) + scores.get("S", 0)
            ew_side = scores.get("E", 0) + scores.get("W", 0)
            table.side_scores.append((ns_side, ew_side))
            table.ns_total += ns_side
            table.ew_total += ew_side
            table.ns_penalty += penalties.get("N", 0) + penalties.get("S", 0)
            table.ew_penalty += penalties.get("E", 0) + penalties.get("W", 0)
            for seat, score in scores.items():
                totals[seat] += score
        table.deal_count = len(deals)
        table.seat_totals = dict(totals)
        return table


@dataclass
class MatchResult:
    round: int
    home: str | None = None  # pairs: the NS pair; teams: the home team
    away: str | None = None
    bye: str | None = None
    tables: list = field(default_factory=list)

    @property
    def played(self) -> bool:
        return any(table.deal_count for table in self.tables)


@dataclass
class Row:
    id: str
    rank: int = 0
    match_points: int = 0
    score_difference: int = 0
    total_score: int = 0
    penalties: int = 0
    played: int = 0
    deals: int = 0
    table_points: int = 0  # individual events ranked by table points (games law §0)…
    by_table_points: bool = False  # …which then rank first (and print)
    head_to_head: int | None = None  # 场分 within the tied group, when it was used
    explanation: dict | None = None

    def as_json(self, kind: str = Kind.PAIRS) -> dict[str, int | str]:
        if kind == Kind.INDIVIDUAL:
            points = {"table_points": self.table_points} if self.by_table_points else {}
            return {"rank": self.rank, "id": self.id, **points, "total_score": self.total_score, "deals": self.deals}
        return {
            "rank": self.rank,
            "id": self.id,
            "match_points": self.match_points,
            "score_difference": self.score_difference,
            "total_score": self.total_score,
            "penalties": self.penalties,
            "played": self.played,
        }


class StandingsError(Refusal):
    def __init__(self, template: str, deal_index: int | None = None, **params: int) -> None:
        super().__init__("after_last_game", template, **params)
        self.deal_index = deal_index  # the first deal after the match's last 局, when that is the fault


def _outcome_points(points: dict[str, int], own: int, other: int) -> int:
    if own > other:
        return points["win"]
    if own < other:
        return points["loss"]
    return points["draw"]


def match_games(split: list[Any], games: int) -> list[Any]:
    """The units of a `games`-mode match (华牌's 局), as its game grouped the table's deals
    (`Format.units`, `Game.match_units`); a deal after the last of `games` ended is an error."""
    if len(split) > games:
        extra = split[games].deals[0]
        raise StandingsError(_("第{deal}个牌局在第{games}局结束之后"), deal_index=extra, deal=extra + 1, games=games)
    return split


def table_points(
    fmt: Format, side_scores: list[tuple[int, int]], ns_total: int, ew_total: int, winner: str | None = None
) -> tuple[int, int]:
    """场分 (NS, EW) of one pairs table: per 局 in games mode, on the totals in boards mode; by
    the match's own winner where its game says (升级: the side that passed the target level)."""
    if winner is not None:
        ns = "win" if winner == "NS" else "draw" if winner == "draw" else "loss"
        ew = {"win": "loss", "loss": "win", "draw": "draw"}[ns]
        return fmt.points[ns], fmt.points[ew]
    if fmt.mode == MatchMode.GAMES:
        ns_points = ew_points = 0
        for game in match_games(fmt.units(side_scores), fmt.length):
            ns_points += _outcome_points(fmt.points, game.ns, game.ew)
            ew_points += _outcome_points(fmt.points, game.ew, game.ns)
        return ns_points, ew_points
    return _outcome_points(fmt.points, ns_total, ew_total), _outcome_points(fmt.points, ew_total, ns_total)


def score_match(fmt: Format, match: MatchResult) -> dict[str, tuple[int, int, int, int]]:
    """Per-side figures of one played match: {entrant: (points, own_total, other_total, penalties)}."""
    if fmt.kind == Kind.TEAMS:
        totals = {match.home: 0, match.away: 0}
        penalties = {match.home: 0, match.away: 0}
        for table in match.tables:
            totals[table.ns] += table.ns_total
            totals[table.ew] += table.ew_total
            penalties[table.ns] += table.ns_penalty
            penalties[table.ew] += table.ew_penalty
        home, away = totals[match.home], totals[match.away]
        return {
            match.home: (_outcome_points(fmt.points, home, away), home, away, penalties[match.home]),
            match.away: (_outcome_points(fmt.points, away, home), away, home, penalties[match.away]),
        }
    (table,) = match.tables
    ns_points, ew_points = table_points(fmt, table.side_scores, table.ns_total, table.ew_total, table.winner)
    return {
        table.ns: (ns_points, table.ns_total, table.ew_total, table.ns_penalty),
        table.ew: (ew_points, table.ew_total, table.ns_total, table.ew_penalty),
    }


def match_finished(fmt: Format, match: MatchResult) -> bool:
    """Whether every table of the match has played its length: all its boards, or all its 局.

    A bye is finished. (A published round is finished by the arbiter's word whatever this
    says: a 局 match cut short by time is scored as it stands.)
    """
    if match.bye:
        return True
    if not match.tables:
        return False
    for table in match.tables:
        if table.finished is not None:  # its game says (升级: the target reached, or the deals played)
            if not table.finished:
                return False
        elif fmt.mode == MatchMode.GAMES:
            if sum(game.finished for game in fmt.units(table.side_scores)) < fmt.length:
                return False
        elif table.deal_count < fmt.length:
            return False
    return True


def compute_standings(
    fmt: Format,
    matches: list[MatchResult],
    entrants: list[str] = (),
    after_round: int | None = None,
    joined: dict[str, int] | None = None,
) -> list[Row]:
    """Ranked `Row`s for the matches of rounds ≤ `after_round` (all when None).

    `entrants` lists every entrant id so that those who have not played yet
    still appear (with zeros). `joined` ({id: round}) names late entries: one first paired
    in round N is not in the event before it, so it is left out of standings that end
    before round N (after `after_round`, or else after the last round of `matches`).
    A published standing then never gains a row when a late entry arrives.
    """
    matches = [m for m in matches if after_round is None or m.round <= after_round]
    if joined:
        last = after_round if after_round is not None else max((m.round for m in matches), default=None)
        if last is not None:
            entrants = [entrant for entrant in entrants if joined.get(entrant, 0) <= last]
    if fmt.kind == Kind.INDIVIDUAL:
        return _individual_standings(matches, entrants, fmt.standings, fmt.bye_table_points)
    rows = {entrant: Row(id=entrant) for entrant in entrants}
    meetings = defaultdict(int)  # (a, b) -> 场分 a won against b
    met = set()
    for match in matches:
        if match.bye:
            row = rows.setdefault(match.bye, Row(id=match.bye))
            row.match_points += fmt.points["win"]
            row.played += 1
            continue
        if not match.played:
            continue
        figures = score_match(fmt, match)
        (a, (a_points, *_)), (b, (b_points, *_)) = figures.items()
        meetings[a, b] += a_points
        meetings[b, a] += b_points
        met.add(frozenset((a, b)))
        for entrant, (points, own, other, penalty) in figures.items():
            row = rows.get(entrant) or rows.setdefault(entrant, Row(id=entrant))  # no row made to be dropped
            row.match_points += points
            row.score_difference += own - other
            row.total_score += own
            row.penalties += penalty
            row.played += 1
    return rank_rows(list(rows.values()), fmt.tiebreaks, meetings, met)


def _individual_standings(
    matches: list[MatchResult], entrants: list[str], standings: str = STANDINGS_TOTAL, bye_points: int = 0
) -> list[Row]:
    """Individuals rank by total score; by table points first when the event ranks by them
    (games law §0: the total is then the first tie-break). Players level on these share the
    rank: the number of deals played never decides a place (event-archive.md), since "fewer
    deals first" let a bye, a late entry or a match that ended early win a tie. A bye scores
    nothing but, under table points, `bye_points` (`Format.bye_table_points`)."""
    by_points = standings == STANDINGS_TABLE_POINTS
    rows = {player: Row(id=player, by_table_points=by_points) for player in entrants}
    for match in matches:
        if match.bye and by_points:
            row = rows.setdefault(match.bye, Row(id=match.bye, by_table_points=by_points))
            row.table_points += bye_points
        for table in match.tables:
            for seat, player in table.seats.items():
                row = rows.get(player) or rows.setdefault(player, Row(id=player))
                row.total_score += table.seat_totals.get(seat, 0)
                row.deals += table.deal_count
                row.by_table_points = by_points
                if table.deal_count:
                    row.table_points += table.seat_points.get(seat, 0)
    chain = ["table_points", "total_score"] if by_points else ["total_score"]

    def key(row: Row) -> tuple[int, ...]:
        return tuple(-getattr(row, c) for c in chain)

    ordered = sorted(rows.values(), key=lambda r: (key(r), natural_key(r.id)))
    _assign_ranks(ordered, key)
    for above, row in pairwise(ordered):
        row.explanation = _explain_plain(above, row, chain)
    return ordered


def natural_key(code: str) -> list[tuple[int, int, str]]:
    """A01 < A2 < A10: entrant numbers sort as organisers read them."""
    parts, number = [], ""
    for char in str(code):
        if char.isdigit():
            number += char
            continue
        if number:
            parts.append((0, int(number), ""))
            number = ""
        parts.append((1, 0, char))
    if number:
        parts.append((0, int(number), ""))
    return parts


def rank_rows(
    rows: list[Row], chain: list[str], meetings: defaultdict | dict[tuple[str, str], int], met: set[frozenset[str]]
) -> list[Row]:
    """Order rows by the tie-break chain; equal on every criterion share a rank."""
    chain = [criterion for criterion in chain if criterion in CRITERIA_LABELS]
    groups = [sorted(rows, key=lambda r: natural_key(r.id))]
    for criterion in chain:
        next_groups = []
        for group in groups:
            if len(group) == 1:
                next_groups.append(group)
                continue
            if criterion == "head_to_head":
                ids = [row.id for row in group]
                if not all(frozenset((a, b)) in met for i, a in enumerate(ids) for b in ids[i + 1 :]):
                    next_groups.append(group)  # some never met: the criterion is skipped
                    continue
                for row in group:
                    row.head_to_head = sum(meetings.get((row.id, other), 0) for other in ids if other != row.id)
            next_groups.extend(_split(group, lambda row, c=criterion: getattr(row, c)))
        groups = next_groups
    ordered = [row for group in groups for row in group]
    group_of = {id(row): index for index, group in enumerate(groups) for row in group}
    _assign_ranks(ordered, lambda row: group_of[id(row)])
    for above, row in pairwise(ordered):
        row.explanation = _explain_plain(above, row, chain)
    return ordered


def _split(group: list[Row], key: Callable[..., Any]) -> list[list[Any]]:
    """Split one tied group by `key`, highest first, keeping the incoming order within equal keys."""
    by_value = defaultdict(list)
    for row in group:
        by_value[key(row)].append(row)
    return [by_value[value] for value in sorted(by_value, reverse=True)]


def _assign_ranks(ordered: list[Row], tie_key: Callable[..., Any]) -> None:
    previous = object()
    for position, row in enumerate(ordered, start=1):
        key = tie_key(row)
        if key != previous:
            rank = position
            previous = key
        row.rank = rank


def _explain_plain(above: Row, row: Row, chain: list[str]) -> dict[str, Any]:
    """What separates `row` from the row above: the criteria they share and the first that differs."""
    same = []
    for criterion in chain:
        mine, theirs = getattr(row, criterion), getattr(above, criterion)
        if criterion == "head_to_head" and (mine is None or theirs is None):
            continue
        if mine != theirs:
            return {"same": same, "criterion": criterion, "above": theirs, "this": mine}
        same.append(criterion)
    return {"same": same, "criterion": None, "above": None, "this": None}
