"""A published round's results: every table's totals, 局 and 场分."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.vocabulary import STANDINGS_TABLE_POINTS, Kind, MatchMode
from scoring.games import game_of
from scoring.games.stored import COLUMN_SEATS, plays_alone
from scoring.games.stored import table_points as game_table_points
from scoring.models import Deal, Round, Table
from scoring.results.labels import entrant_labels
from scoring.results.match_results import event_format, pairs_table_figures

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game
    from scoring.models import Event


def published_round(event: Event, number: int) -> Round | None:
    """The round if the public may see it, else None."""
    return Round.objects.published().filter(event=event, number=number).first()


def played_boards(event: Event, rnd: Round) -> list[int]:
    """The boards a round's travellers compare, in order: in boards mode, every board a table of
    the round played (a match that ends by itself, 升级's to a target, has fewer than the
    round's most, and no traveller beyond them); None in games mode."""
    if event.match_mode != MatchMode.BOARDS:
        return None
    return sorted(set(Deal.objects.filter(table__round=rnd).values_list("board", flat=True)))


def round_results(event: Event, rnd: Round) -> dict[str, list[Any]]:
    """Every table of a round with its totals, 局 and 场分, for the round page and the results PDF."""
    tables = list(
        Table.objects.filter(round=rnd)
        .select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west", "match")
        .order_by("number")
    )
    sides = {}
    stored = {}  # a game whose match carries a state (升级): each table's deals as stored
    seat_totals = {}  # a game whose players each play alone: every seat's total
    for table_id, ns, ew, data, *seat_scores in (
        Deal.objects.counted()
        .filter(table__round=rnd)
        .order_by("table_id", "sequence")
        .values_list("table_id", "ns_score", "ew_score", "game_data", "score_n", "score_e", "score_s", "score_w")
    ):
        sides.setdefault(table_id, []).append((ns, ew))
        stored.setdefault(table_id, []).append(data or {})
        totals = seat_totals.setdefault(table_id, dict.fromkeys(COLUMN_SEATS, 0))
        for seat, score in zip(COLUMN_SEATS, seat_scores, strict=True):
            totals[seat] += score
    game = game_of(event)
    alone = plays_alone(game)
    fmt = event_format(event)
    labels = entrant_labels(event)  # cached: no query per table
    rows = []
    for table in tables:
        table_sides = sides.get(table.id, [])
        ns_total = sum(ns for ns, _ in table_sides)
        ew_total = sum(ew for _, ew in table_sides)
        # 局 running totals decide a match only in a games-scored event (page and PDF show them there only).
        games = game.match_units(table_sides, event.game_threshold) if event.match_mode == MatchMode.GAMES else []
        words = None
        if table_sides and event.kind == Kind.PAIRS:
            ns_total, ew_total, ns_points, ew_points, words = pairs_table_figures(
                event, fmt, table_sides, stored.get(table.id), table.match_ruling
            )
        else:
            ns_points = ew_points = None  # a team match spans two tables; individuals have no 场分
        ns_label, ew_label = _side_labels(table, labels)
        rows.append(
            {
                "table": table,
                "ns_label": ns_label,
                "ew_label": ew_label,
                "deals": len(table_sides),
                "ns_total": ns_total,
                "ew_total": ew_total,
                "ns_points": ns_points,
                "ew_points": ew_points,
                "games": games,
                "match_words": words,  # a match that carries a state (升级): its levels and winner
                "seats": _seats(game, table, seat_totals.get(table.id), fmt.standings) if alone else None,
            }
        )
    byes = [m.bye for m in rnd.matches.filter(bye__isnull=False).select_related("bye")]
    return {"tables": rows, "byes": byes}


def _seats(game: Game, table: Table, totals: dict[str, int], standings: str) -> list[dict[str, Any]]:
    """Each seat's player, match total and (where the standings use them) table points."""
    players = table.seat_players()
    totals = {seat: (totals or {}).get(seat, 0) for seat in game.seats}
    points = game_table_points(game, totals) if standings == STANDINGS_TABLE_POINTS and any(totals.values()) else {}
    return [{"seat": s, "player": players[s], "total": totals[s], "points": points.get(s)} for s in game.seats]


def _side_labels(table: Table, labels: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """“A01 张三、李四” for each side (pairs or teams), or the two players' names (individual)."""
    if table.ns_entrant_id:
        return tuple(
            f"{entrant.code} {labels.get(entrant.code, {}).get('name', '')}"
            for entrant in (table.ns_entrant, table.ew_entrant)
        )
    names = {seat: player.name if player else "" for seat, player in table.seat_players().items()}
    return f"{names['N']}、{names['S']}", f"{names['E']}、{names['W']}"
