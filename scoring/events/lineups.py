"""Line-ups (出场名单) per 节: who of each team or pair sits where, and which way the pairs face.

A round of `sessions` 节 splits its boards evenly (16 boards in 2 节: 1–8, 9–16). The
table's own seats are the first 节's; a later 节 with substitutions has a `LineUp`: a team
fields other members, a pair its registered substitute (替补). A 节' line-up can change until
a deal of that 节 or a later one is entered at the match's tables, so entrants substitute
between 节 but never under a result already entered.

A pairs event may swap directions between 节 (`Event.swap_directions`: the pairs change lines
in every even 节). Results are always recorded in the draw's seats — N and S are the NS pair's
whatever chairs they sit in — so a score can never move to the wrong pair; the papers and entry
pages of a swapped 节 say which chair each draw seat is in (`session_notes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models, transaction

from scoring.cache import announce_results_changed
from scoring.engine.vocabulary import Kind
from scoring.games.refusals import Refusal, _
from scoring.models import Deal, LineUp, Membership, PairingLog, Table

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Event, Match, Player, Round


class LineUpError(Refusal):
    def __init__(self, template: str, code: str = "lineup_refused", **params: int | str) -> None:
        super().__init__(code, template, **params)


# Where a draw seat sits in a swapped 节: every player moves one chair on, in the order N E S W,
# so the NS pair sits E–W and each keeps the same neighbours in the playing order.
SWAPPED_CHAIR = {"N": "E", "E": "S", "S": "W", "W": "N"}
SEATS = ("N", "E", "S", "W")
PAIR_SIZE = 2  # a pair's members after its first two are its registered substitutes (替补)


def directions_swapped(event: Event, session: int) -> bool:
    """The pairs sit on the other line in this 节 (every even 节 of an event that swaps)."""
    return bool(event.swap_directions) and event.kind == Kind.PAIRS and session % 2 == 0


def chairs(event: Event, session: int) -> dict[str, str]:
    """{draw seat: the chair it sits in} for a 节."""
    return dict(SWAPPED_CHAIR) if directions_swapped(event, session) else {seat: seat for seat in SEATS}


def board_chairs(table: Table, board: int, event: Event) -> list[tuple[str, str]] | None:
    """[(draw seat, chair)] when the pairs sit on the other line at this board, else None."""
    session = session_of(board, event.match_length, table.round.sessions)
    if not directions_swapped(event, session):
        return None
    return list(chairs(event, session).items())


def session_of(board: int, boards: int, sessions: int) -> int:
    """The 节 a board belongs to: boards split evenly, the last 节 taking any remainder."""
    if sessions <= 1 or boards <= 0:
        return 1
    return min(sessions, (board - 1) * sessions // boards + 1)


def first_board(session: int, boards: int, sessions: int) -> int:
    return next((b for b in range(1, boards + 1) if session_of(b, boards, sessions) == session), boards + 1)


def seats_for(table: Table, board: int, event: Event) -> dict[str, Player]:
    """{seat: Player} at `board` of a table (the latest line-up of its 节 or earlier)."""
    session = session_of(board, event.match_length, table.round.sessions)
    lineup = (
        table.lineups.filter(session__lte=session)
        .order_by("-session")
        .select_related("north", "east", "south", "west")
        .first()
    )
    return (lineup or table).seat_players()


def lineup_matches(rnd: Round) -> list[Match]:
    """The matches of a round whose line-ups the organiser may set: every team match; in a pairs
    event of several 节, the matches where a pair has a registered substitute."""
    event = rnd.event
    matches = rnd.matches.filter(bye__isnull=True).select_related("home", "away").order_by("number")
    if event.kind == Kind.TEAMS:
        return list(matches)
    if event.kind != Kind.PAIRS or rnd.sessions <= 1:
        return []
    with_substitute = (
        Membership.objects.filter(entrant__event=event, position__gt=PAIR_SIZE).values("entrant_id").distinct()
    )
    return list(matches.filter(models.Q(home__in=with_substitute) | models.Q(away__in=with_substitute)))


def match_tables(match: Match) -> list[Table]:
    return list(Table.objects.filter(match=match).select_related("ns_entrant", "ew_entrant").order_by("number"))


def team_members(tables: list[Table]) -> dict[int, list[Any]]:
    """{entrant id: [players in their order]} of the teams at `tables`, in one query."""
    members = {}
    teams = {t.ns_entrant_id for t in tables} | {t.ew_entrant_id for t in tables}
    for membership in Membership.objects.filter(entrant_id__in=teams).select_related("player").order_by("position"):
        members.setdefault(membership.entrant_id, []).append(membership.player)
    return members


def lineup_set(
    match: Match, session: int, seats_by_table: dict[int, dict[str, str]], *, user: User | None = None
) -> None:
    """`seats_by_table`: {table number: {"N","S","E","W": player code}} for the match's tables
    (a team match's two, a pair match's one), from `session` on."""
    rnd = match.round
    event = rnd.event
    if event.kind == Kind.INDIVIDUAL:
        raise LineUpError(_("出场名单只用于双人赛和团体赛"), code="not_teams")
    if not 1 <= session <= rnd.sessions:
        raise LineUpError(_("本轮只有 {sessions} 节"), code="bad_session", sessions=rnd.sessions)
    tables = match_tables(match)
    members = {team: {p.code: p for p in players} for team, players in team_members(tables).items()}
    chosen, seated = {}, set()
    for table in tables:
        seats = seats_by_table.get(table.number) or {}
        players = {}
        for seat in ("N", "E", "S", "W"):
            team = table.ns_entrant if seat in "NS" else table.ew_entrant
            player = members[team.id].get(seats.get(seat, ""))
            if player is None:
                raise LineUpError(
                    _("{table}号桌 {seat} 座必须是 {team} 的成员"),
                    code="not_a_member",
                    table=table.number,
                    seat=seat,
                    team=team.code,
                )
            if player.code in seated:
                raise LineUpError(_("{player} 不能同时坐两个座位"), code="seated_twice", player=player.code)
            seated.add(player.code)
            players[seat] = player
        chosen[table] = players
    from_board = first_board(session, event.match_length, rnd.sessions)
    with transaction.atomic():
        if Deal.objects.filter(table__in=tables, board__gte=from_board).exists():
            raise LineUpError(
                _("第 {session} 节（或之后）已有成绩，出场名单不能再改"), code="session_started", session=session
            )
        for table, players in chosen.items():
            if session == 1:
                table.north, table.east, table.south, table.west = (players[s] for s in ("N", "E", "S", "W"))
                table.save(update_fields=["north", "east", "south", "west"])
            else:
                LineUp.objects.update_or_create(
                    table=table,
                    session=session,
                    defaults={"north": players["N"], "east": players["E"], "south": players["S"], "west": players["W"]},
                )
        PairingLog.objects.create(
            round=rnd,
            user=user,
            action="lineup",
            detail={
                "match": match.number,
                "session": session,
                "tables": {str(t.number): {s: p.code for s, p in players.items()} for t, players in chosen.items()},
            },
        )
        announce_results_changed(event)


def session_notes(
    table: Table, event: Event, sessions: int, lineups: list[LineUp] | None = None
) -> list[dict[str, Any]]:
    """What changes at a table after its first 节, for its papers and entry pages:
    [{"session", "boards": (first, last), "swapped", "seats": [(draw seat, chair, Player)]}] for
    every later 节 where a line-up or the direction changes. `lineups`: the table's `LineUp`s
    (read here when not given)."""
    if sessions <= 1:
        return []
    if lineups is None:
        lineups = list(table.lineups.select_related("north", "east", "south", "west"))
    by_session = {lineup.session: lineup for lineup in lineups}
    boards = event.match_length
    notes, seated = [], table.seat_players()
    previous_swap, previous_seated = False, seated
    for session in range(2, sessions + 1):
        if session in by_session:
            seated = by_session[session].seat_players()
        swapped = directions_swapped(event, session)
        if swapped != previous_swap or seated != previous_seated:
            first = first_board(session, boards, sessions)
            last = first_board(session + 1, boards, sessions) - 1
            where = chairs(event, session)
            notes.append(
                {
                    "session": session,
                    "boards": (first, last),
                    "swapped": swapped,
                    "seats": [(seat, where[seat], seated[seat]) for seat in SEATS],
                }
            )
        previous_swap, previous_seated = swapped, seated
    return notes
