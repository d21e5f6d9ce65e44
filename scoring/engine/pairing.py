"""Pairing the next round: plain entrants in, tables out. No Django here.

Methods (documented for organisers in docs/competition.md):
- `roundrobin`: Berger tables, fixed in advance; NS/EW within 1 over the cycle.
- `swiss` (积分编排): Monrad pairing in standings order — the first unpaired
  entrant meets the next one it has not met — so entrants meet their own 场分
  group from the top and float down only when their group is exhausted. A
  depth-first search backtracks when the tail cannot be paired, so no rematch
  is made while any rematch-free pairing exists (within a step budget; past it,
  rematches are allowed, fewest first).
- `random`: a seeded shuffle (the seed is logged), byes as in Swiss.
- `manual`: the organiser's own tables, one line each ("A01 A02", "bye A07").
Swiss and random may avoid pairing two entrants of the same club: a soft
constraint tried first (on top of "no rematch"); when no such pairing exists
the plain one is used and the same-club tables are reported (`club_clashes`).
Individual events seat groups of four in standings order and split each group
into the partnerships that repeat least; a game of three seats (跑胡子) seats groups of three.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from scoring.games.refusals import Refusal, _

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from scoring.engine.standings import MatchResult, Row

FOUR_SEATS = ("N", "E", "S", "W")  # an individual table of a four-seat game
SEARCH_BUDGET = 200_000  # backtracking steps before falling back to allowing rematches


@dataclass
class Candidate:
    """One entrant as the pairing sees it, listed in standings order."""

    id: str
    match_points: int = 0
    opponents: set = field(default_factory=set)
    byes: int = 0
    ns: int = 0  # times seated NS (pairs) or at home (teams)
    ew: int = 0
    last_side: str | None = None  # "NS" or "EW" in the previous round
    partners: dict = field(default_factory=dict)  # individual: partner id -> times
    clubs: frozenset = frozenset()  # the clubs of its players (same-club avoidance)


@dataclass
class Pairing:
    tables: list  # [(ns_id, ew_id)] in table order; individual: [{"N","E","S","W"}]
    byes: list = field(default_factory=list)
    rematches: int = 0
    note: str = ""
    club_clashes: int = 0  # tables of two entrants from one club (reported when avoidance failed)


class PairingError(Refusal):
    """A pairing refused, in domain terms: a stable code and a message naming why."""

    def __init__(self, template: str, code: str = "pairing_refused", **params: int | str) -> None:
        super().__init__(code, template, **params)


# --- round robin -------------------------------------------------------------


def berger_round(ids: list[int | str], round_index: int) -> list[tuple[int | str | None, int | str | None]]:
    """Pairs of round `round_index` (0-based) of a Berger round robin, colour first.

    With n entrants (a None is added for an odd count: meeting it is a bye),
    round r's table 0 seats the fixed last entrant against (r·n/2) mod (n−1),
    alternating sides by round; table t seats (base + t) against (base − t).
    Every entrant's NS and EW counts differ by at most one over the cycle.
    """
    players = list(ids)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        raise PairingError(_("至少需要两个参赛者"), code="too_few_entrants")
    r = round_index % (n - 1)
    base = (r * (n // 2)) % (n - 1)
    fixed = players[n - 1]
    rotating = players[base]
    pairs = [(rotating, fixed) if r % 2 == 0 else (fixed, rotating)]
    for t in range(1, n // 2):
        pairs.append((players[(base + t) % (n - 1)], players[(base - t) % (n - 1)]))
    return pairs


def pair_roundrobin(candidates: list[Candidate], round_index: int) -> Pairing:
    ids = [c.id for c in sorted(candidates, key=lambda c: c.id)]
    tables, byes = [], []
    for ns, ew in berger_round(ids, round_index):
        if ns is None or ew is None:
            byes.append(ew if ns is None else ns)
        else:
            tables.append((ns, ew))
    return Pairing(tables=tables, byes=byes)


# --- Swiss and random ----------------------------------------------------------


def _monrad(order: list[str], may_meet: Callable[..., Any], budget: int) -> list[tuple[str, str]] | None:
    """Depth-first Monrad pairing of `order` (even length); None when the budget runs out."""
    n = len(order)
    used = [False] * n
    stack = []
    first = 0
    start = 1
    steps = 0
    while True:
        while first < n and used[first]:
            first += 1
        if first >= n:
            return [(order[i], order[j]) for i, j in stack]
        partner = None
        for j in range(max(start, first + 1), n):
            if not used[j] and may_meet(order[first], order[j]):
                partner = j
                break
        if partner is not None:
            used[first] = used[partner] = True
            stack.append((first, partner))
            start = first + 1
            continue
        if not stack:
            return None
        steps += 1
        if steps > budget:
            return None
        first, previous = stack.pop()
        used[first] = used[previous] = False
        start = previous + 1


def _sides(a: Candidate, b: Candidate) -> tuple[Candidate, Candidate]:
    """Who sits NS: the one who has sat NS less, then who sat EW last, then the higher placed."""
    if a.ns - a.ew != b.ns - b.ew:
        return (a, b) if a.ns - a.ew < b.ns - b.ew else (b, a)
    if a.last_side != b.last_side:
        return (a, b) if a.last_side == "EW" or b.last_side == "NS" else (b, a)
    return a, b


def _pair_in_order(
    order: list[Candidate], budget: int = SEARCH_BUDGET, avoid_same_club: bool = False
) -> tuple[list[Any], int]:
    """Pairs for `order` (Candidates, even count): rematch-free when possible, and
    with `avoid_same_club` also free of same-club tables when that is possible too."""
    by_id = {c.id: c for c in order}
    ids = [c.id for c in order]
    pairs = None
    if avoid_same_club:
        pairs = _monrad(ids, lambda a, b: b not in by_id[a].opponents and not (by_id[a].clubs & by_id[b].clubs), budget)
    if pairs is None:
        pairs = _monrad(ids, lambda a, b: b not in by_id[a].opponents, budget)
    rematches = 0
    if pairs is None:
        # No rematch-free pairing was found: Monrad order, preferring new opponents.
        remaining = list(ids)
        pairs = []
        while remaining:
            a = remaining.pop(0)
            fresh = next((b for b in remaining if b not in by_id[a].opponents), None)
            b = fresh if fresh is not None else remaining[0]
            rematches += fresh is None
            remaining.remove(b)
            pairs.append((a, b))
    seated = []
    for a, b in pairs:
        ns, ew = _sides(by_id[a], by_id[b])
        seated.append((ns.id, ew.id))
    return seated, rematches


def club_clashes(tables: list[tuple[str, str]], candidates: list[Candidate]) -> int:
    """How many tables seat two entrants that share a club."""
    clubs = {c.id: c.clubs for c in candidates}
    return sum(1 for ns, ew in tables if clubs.get(ns, frozenset()) & clubs.get(ew, frozenset()))


def _choose_bye(
    order: list[Candidate], pair_rest: Callable[..., Any], avoid_same_club: bool = False
) -> tuple[Candidate, list[Any], int]:
    """The lowest-placed entrant without a bye whose absence leaves a rematch-free
    (and, when asked, club-clash-free) pairing."""
    eligible = [c for c in reversed(order) if c.byes == 0] or list(reversed(order))
    best = None
    for candidate in eligible[:32]:  # bounded: each try is a whole search
        rest = [c for c in order if c is not candidate]
        tables, rematches = pair_rest(rest)
        cost = (rematches, club_clashes(tables, rest) if avoid_same_club else 0)
        if cost == (0, 0):
            return candidate, tables, rematches
        if best is None or cost < best[0]:
            best = (cost, (candidate, tables, rematches))
    return best[1]


def pair_swiss(candidates: list[Candidate], avoid_same_club: bool = False) -> Pairing:
    """`candidates` in standings order (best first)."""
    order = list(candidates)
    if len(order) < 2:
        raise PairingError(_("至少需要两个参赛者"), code="too_few_entrants")

    def pair_rest(rest: list[Candidate]) -> tuple[list[Any], int]:
        return _pair_in_order(rest, avoid_same_club=avoid_same_club)

    byes = []
    if len(order) % 2:
        bye, tables, rematches = _choose_bye(order, pair_rest, avoid_same_club)
        byes = [bye.id]
    else:
        tables, rematches = pair_rest(order)
    return Pairing(tables=tables, byes=byes, rematches=rematches, club_clashes=club_clashes(tables, order))


def pair_random(candidates: list[Candidate], seed: int, avoid_same_club: bool = False) -> Pairing:
    order = list(candidates)
    random.Random(seed).shuffle(order)
    pairing = pair_swiss(order, avoid_same_club)
    pairing.note = f"seed={seed}"
    return pairing


def pair_manual(
    text: str, candidates: list[Candidate], individual: bool = False, seats: tuple[str, ...] = FOUR_SEATS
) -> Pairing | None:
    """The organiser's draw, one table per line: "NS EW" (pairs, teams), "N E S W" (individual;
    a game of three seats "E S W"), or "bye X". Every entrant named must be one of `candidates`,
    and only once."""
    known = {c.id for c in candidates}
    size = len(seats) if individual else 2
    tables, byes, seen = [], [], set()
    lines = [line.split() for line in text.splitlines()]
    if len(lines) > 5000:
        raise PairingError(_("手工编排最多 5000 行"), code="manual_too_long")
    for number, words in enumerate(lines, start=1):
        if not words:
            continue
        is_bye = words[0].lower() in ("bye", "轮空")
        ids = words[1:] if is_bye else words
        if len(ids) != (1 if is_bye else size):
            raise PairingError(_("第 {line} 行：需要 {size} 个编号"), code="manual_line", line=number, size=size)
        for code in ids:
            if code not in known:
                raise PairingError(
                    _("第 {line} 行：{id!r:.40} 不在可编排的参赛者中"), code="manual_unknown", line=number, id=code
                )
            if code in seen:
                raise PairingError(_("第 {line} 行：{id} 出现两次"), code="manual_twice", line=number, id=code)
            seen.add(code)
        if is_bye:
            byes.append(ids[0])
        elif individual:
            tables.append(dict(zip(seats, ids, strict=True)))
        else:
            tables.append((ids[0], ids[1]))
    if not tables:
        raise PairingError(_("手工编排没有任何一桌"), code="manual_empty")
    return Pairing(tables=tables, byes=byes, note="manual")


# --- individual events ------------------------------------------------------------


def _best_split(four: list[Candidate]) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """Of the three ways to split four players into partnerships, the one that repeats least."""
    a, b, c, d = four
    options = [((a, c), (b, d)), ((a, b), (c, d)), ((a, d), (b, c))]

    def repeats(option: tuple[tuple[Any, Any], tuple[Any, Any]]) -> int:
        return sum(x.partners.get(y.id, 0) for x, y in option)

    return min(options, key=repeats)


def _sitting_out(order: list[Candidate], out: int) -> list[Candidate]:
    """The `out` players who sit the round out: the lowest placed without a bye first (then the
    lowest placed, once everyone has had one), so no one sits out twice while another has not."""
    if not out:
        return []
    fewest = min(c.byes for c in order)
    eligible = [c for c in reversed(order) if c.byes == fewest]
    rest = [c for c in reversed(order) if c.byes != fewest]
    return (eligible + sorted(rest, key=lambda c: c.byes))[:out]


def pair_individual(candidates: list[Candidate], seats: tuple[str, ...] = FOUR_SEATS) -> Pairing:
    """Tables of as many players as the game has seats, in standings order (the order given:
    a random round shuffles it first). At four seats each group is split into the partnerships
    that repeat least; at three (跑胡子: E, S, W, North empty) each table meets again as few
    players as it can (`_groups_meeting_least`), seated E S W in standings order.
    When the count is not a multiple of the seats, the rest sit out (`_sitting_out`): a bye."""
    size = len(seats)
    order = list(candidates)
    byes = _sitting_out(order, len(order) % size)
    order = [c for c in order if c not in byes]
    if not order:
        raise PairingError(_("至少需要 {count} 名选手"), code="too_few_entrants", count=size)
    tables = []
    if size != len(FOUR_SEATS):
        for group in _groups_meeting_least(order, size):
            tables.append({seat: player.id for seat, player in zip(seats, group, strict=True)})
        return Pairing(tables=tables, byes=[c.id for c in byes])
    for start in range(0, len(order), size):
        (north, south), (east, west) = _best_split(order[start : start + size])
        tables.append({"N": north.id, "S": south.id, "E": east.id, "W": west.id})
    return Pairing(tables=tables, byes=[c.id for c in byes])


GROUP_WINDOW = 8  # how far down the standings a table of three looks for players not yet met


def _groups_meeting_least(order: list[Candidate], size: int) -> list[list[Any]]:
    """Tables of `size` (three) in standings order, each meeting again as few as it can: the
    highest placed player still free sits with the players among the next `GROUP_WINDOW` free
    ones who have met them (and each other) least, the higher placed on a tie — so a table
    stays within its score group unless that group has met already (Swiss: no avoidable
    rematch at a table, within the window; greedy, table by table from the top)."""
    free = list(order)
    groups = []
    while free:
        first, rest = free[0], free[1 : 1 + GROUP_WINDOW]
        best = min(
            combinations(range(len(rest)), size - 1),
            key=lambda picked: (_meetings([first, *(rest[i] for i in picked)]), picked),
        )
        group = [first, *(rest[i] for i in best)]
        groups.append(group)
        free = [c for c in free if c not in group]
    return groups


def _meetings(group: list[Candidate]) -> int:
    """How many pairs of the group have sat at one table before (`Candidate.opponents`)."""
    return sum(b.id in a.opponents for a, b in combinations(group, 2))


def candidates_from_history(rows: list[Row], matches: list[MatchResult]) -> list[Candidate]:
    """`Candidate`s in standings order from ranked rows and the plain matches played so far."""
    by_id = {row.id: Candidate(id=row.id, match_points=row.match_points) for row in rows}
    for match in sorted(matches, key=lambda m: m.round):
        if match.bye:
            if match.bye in by_id:
                by_id[match.bye].byes += 1
            continue
        for table in match.tables:
            if table.seats and table.ns is None:  # individual: partners sit opposite
                for a, b in (("N", "S"), ("E", "W")):
                    pa, pb = table.seats.get(a), table.seats.get(b)
                    if pa in by_id and pb in by_id:
                        by_id[pa].partners[pb] = by_id[pa].partners.get(pb, 0) + 1
                        by_id[pb].partners[pa] = by_id[pb].partners.get(pa, 0) + 1
                seated = [player for player in table.seats.values() if player in by_id]
                for a, b in combinations(seated, 2):  # everyone at an individual's table has met
                    by_id[a].opponents.add(b)
                    by_id[b].opponents.add(a)
                continue
        home, away = match.home, match.away
        if home in by_id and away in by_id:
            by_id[home].opponents.add(away)
            by_id[away].opponents.add(home)
            by_id[home].ns += 1
            by_id[away].ew += 1
            by_id[home].last_side, by_id[away].last_side = "NS", "EW"
    return [by_id[row.id] for row in rows]
