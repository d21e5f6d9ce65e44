"""Team line-ups (出场名单): who of each team sits at which table of a match, per 节.

A round of `sessions` 节 splits its boards evenly (16 boards in 2 节: 1–8, 9–16). The
table's own seats are the first 节's; a later 节 with substitutions has a `LineUp`. A 节'
line-up can change until a deal of that 节 or a later one is entered at either table of the
match, so teams substitute between 节 but never under a result already entered."""

from django.db import transaction

from scoring.cache import announce_results_changed
from scoring.engine.vocabulary import Kind
from scoring.games.refusals import Refusal, _
from scoring.models import Deal, LineUp, Membership, PairingLog, Table


class LineUpError(Refusal):
    def __init__(self, template, code="lineup_refused", **params):
        super().__init__(code, template, **params)


def session_of(board, boards, sessions):
    """The 节 a board belongs to: boards split evenly, the last 节 taking any remainder."""
    if sessions <= 1 or boards <= 0:
        return 1
    return min(sessions, (board - 1) * sessions // boards + 1)


def first_board(session, boards, sessions):
    return next((b for b in range(1, boards + 1) if session_of(b, boards, sessions) == session), boards + 1)


def seats_for(table, board, event):
    """{seat: Player} at `board` of a team table (the latest line-up of its 节 or earlier)."""
    session = session_of(board, event.match_length, table.round.sessions)
    lineup = (
        table.lineups.filter(session__lte=session)
        .order_by("-session")
        .select_related("north", "east", "south", "west")
        .first()
    )
    return (lineup or table).seat_players()


def match_tables(match):
    return list(Table.objects.filter(match=match).select_related("ns_entrant", "ew_entrant").order_by("number"))


def team_members(tables):
    """{entrant id: [players in their order]} of the teams at `tables`, in one query."""
    members = {}
    teams = {t.ns_entrant_id for t in tables} | {t.ew_entrant_id for t in tables}
    for membership in Membership.objects.filter(entrant_id__in=teams).select_related("player").order_by("position"):
        members.setdefault(membership.entrant_id, []).append(membership.player)
    return members


def lineup_set(match, session, seats_by_table, *, user=None):
    """`seats_by_table`: {table number: {"N","S","E","W": player code}} for both tables of a
    team match, from `session` on."""
    rnd = match.round
    event = rnd.event
    if event.kind != Kind.TEAMS:
        raise LineUpError(_("出场名单只用于团体赛"), code="not_teams")
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
                    _("{table}号桌 {seat} 座必须是 {team} 的队员"),
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
