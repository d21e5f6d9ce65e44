"""An entrant's record: every published match, deal and 局, as plain data for the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

from scoring.engine.not_played import MARK_KEY
from scoring.engine.vocabulary import STANDINGS_TABLE_POINTS, Kind
from scoring.entry.game_fields import deal_words
from scoring.games import game_of
from scoring.games.huapai import card_label
from scoring.games.huapai.deal_text import exposure_word
from scoring.games.stored import COLUMN_SEATS, plays_alone
from scoring.games.stored import table_points as game_table_points
from scoring.models import Deal, Entrant, Match, Table, public_rounds, with_members
from scoring.results.match_results import event_format, pairs_table_figures
from scoring.results.statistics import members_statistics

if TYPE_CHECKING:
    from typing import Any

    from scoring.engine.standings import Format
    from scoring.games.base import Game
    from scoring.models import Event, Player

# Only what an entrant's page shows, read as plain values: building model objects cost as much
# as the query.
DEAL_ROW_FIELDS = (
    "id", "table_id", "board", "score_n", "score_e", "score_s", "score_w", "ns_score", "ew_score",
    "penalties", "adjusted", "adjusted_reason", "extra", "game_data",
)  # fmt: skip


def _exposed(deal: Any) -> Any:
    return deal["game_data"].get("exposed") or {}


def deal_row(deal: dict[str, int], game_number: int | None) -> dict[str, Any]:
    """A row of an entrant's deal table from a `Deal.objects.values(*DEAL_ROW_FIELDS)` row."""
    return {
        "board": deal["board"],
        "scores": {"N": deal["score_n"], "E": deal["score_e"], "S": deal["score_s"], "W": deal["score_w"]},
        "ns": deal["ns_score"],
        "ew": deal["ew_score"],
        "penalties": deal["penalties"],
        "adjusted": deal["adjusted"] is not None,
        "adjusted_reason": deal["adjusted_reason"],
        "game": game_number,
        "exposed": {
            card_label(card): exposure_word(kind) for card, kind in deal["game_data"].get("exposed", {}).items()
        },
        # A board not played (scoring.engine.not_played): its mark, which names the rule applied.
        "not_played": (deal.get("extra") or {}).get(MARK_KEY),
    }


def _alone_match(table: Table, deals: list[dict[str, int]], subject: Player, game: Game, fmt: Format) -> dict[str, Any]:
    """A table of a game whose players each play for themselves (蚌埠斗地主): the player's seat,
    every seat's match total with its player, the table points where the standings use them,
    and each deal's scores with the deal in the game's words."""
    players = table.seat_players()
    seat = next(s for s in game.seats if players[s] is not None and players[s].id == subject.id)
    totals = dict.fromkeys(game.seats, 0)
    for deal in deals:
        for column in COLUMN_SEATS:
            if column in totals:
                totals[column] += deal[f"score_{column.lower()}"]
    by_points = fmt.standings == STANDINGS_TABLE_POINTS and deals
    points = game_table_points(game, totals) if by_points else {}
    return {
        "alone": True,
        "round": table.round.number,
        "round_status": table.round.get_status_display(),
        "table": table.number,
        "side": seat,
        "seat": seat,
        "own": totals[seat],
        "points": points.get(seat),
        "seats": [
            {"seat": s, "player": players[s], "total": totals[s], "points": points.get(s), "own": s == seat}
            for s in game.seats
        ],
        "deals": [
            {
                "board": deal["board"],
                "scores": [deal[f"score_{s.lower()}"] for s in game.seats],
                "words": deal_words(game, deal["game_data"]) if deal["game_data"] is not None else [],
                "adjusted": deal["adjusted"] is not None,
                "adjusted_reason": deal["adjusted_reason"],
            }
            for deal in deals
        ],
    }


def _individual_byes(event: Event, entrant: Entrant, fmt: Format) -> list[dict[str, int | None]]:
    """[{"round", "points"}] of the published rounds the player sat out; `points`: what a bye
    earns where the standings count table points (`Format.bye_table_points`), else None."""
    by_points = fmt.standings == STANDINGS_TABLE_POINTS
    return [
        {"round": number, "points": fmt.bye_table_points if by_points else None}
        for number in Match.objects.filter(round__event=event, bye=entrant)
        .filter(public_rounds("round__"))
        .order_by("round__number")
        .values_list("round__number", flat=True)
    ]


def entrant_record(event: Event, code: str) -> dict[str, Any]:
    """None when the code is unknown; else the entrant and its published matches."""
    individual = event.kind == Kind.INDIVIDUAL
    entrant = Entrant.objects.filter(event=event, code=code).prefetch_related(with_members()).first()
    if entrant is None:
        return None
    # An individual's entrant has one member, who sits at a different seat each round.
    members = [membership.player for membership in entrant.memberships.all()]
    if individual and not members:
        return None  # an entrant made by hand without its player: nothing to show
    subject = members[0] if individual else entrant
    tables = (
        Table.objects.public()
        .filter(round__event=event)
        .select_related("round", "ns_entrant", "ew_entrant", "north", "east", "south", "west")
        # Every opponent's name without a query per opponent.
        .prefetch_related(with_members("ns_entrant__"), with_members("ew_entrant__"))
        .order_by("round__number", "number")
    )
    if individual:
        tables = tables.filter(Q(north=subject) | Q(east=subject) | Q(south=subject) | Q(west=subject))
    else:
        tables = tables.filter(Q(ns_entrant=subject) | Q(ew_entrant=subject))
    tables = list(tables)
    deals_by_table = {}
    confirmed = Deal.objects.public().filter(table__in=tables).order_by("table_id", "sequence")
    for deal in confirmed.values(*DEAL_ROW_FIELDS):
        deals_by_table.setdefault(deal["table_id"], []).append(deal)
    fmt = event_format(event)
    game = game_of(event)
    matches = []
    for table in tables:
        deals = deals_by_table.get(table.id, [])
        if individual and plays_alone(game):
            matches.append(_alone_match(table, deals, subject, game, fmt))
            continue
        if individual:
            seat_ids = {"N": table.north_id, "E": table.east_id, "S": table.south_id, "W": table.west_id}
            seat = next(s for s, player_id in seat_ids.items() if player_id == subject.id)
            side = "NS" if seat in "NS" else "EW"
        else:
            side = "NS" if table.ns_entrant_id == subject.id else "EW"
        sides = [(d["ns_score"], d["ew_score"]) for d in deals]
        games = game.match_units(sides, event.game_threshold)  # 华牌's 局; none for 升级
        game_numbers = {i: unit.number for unit in games for i in unit.deals}
        own = sum(ns if side == "NS" else ew for ns, ew in sides)
        other = sum(ew if side == "NS" else ns for ns, ew in sides)
        # 场分 belong to a pairs table; a team's match spans two tables and individuals have none.
        own_points, words = None, None
        if deals and event.kind == Kind.PAIRS:
            stored = [d["game_data"] or {} for d in deals]
            ns_total, ew_total, ns_points, ew_points, words = pairs_table_figures(
                event, fmt, sides, stored, table.match_ruling
            )
            own_points = ns_points if side == "NS" else ew_points
            if words is not None:  # a match that carries a state (升级): the levels reached
                own, other = (ns_total, ew_total) if side == "NS" else (ew_total, ns_total)
        opponent = table.ew_entrant if side == "NS" else table.ns_entrant
        matches.append(
            {
                "round": table.round.number,
                "round_status": table.round.get_status_display(),
                "table": table.number,
                "side": side,
                "opponent": opponent,
                "own": own,
                "other": other,
                "points": own_points,
                "match_words": words,
                # From the entrant's side: its own running total first, and for a 局 still
                # going, how far it is from winning (+threshold) and from losing (−threshold).
                "games": [
                    {
                        "number": g.number,
                        "own": g.ns if side == "NS" else g.ew,
                        "other": g.ew if side == "NS" else g.ns,
                        "finished": g.finished,
                        "won": g.winner == side if g.finished else None,
                        "to_win": event.game_threshold - (g.ns if side == "NS" else g.ew),
                        "to_lose": event.game_threshold + (g.ns if side == "NS" else g.ew),
                    }
                    for g in games
                ],
                "deals": [deal_row(d, game_numbers.get(i)) for i, d in enumerate(deals)],
            }
        )
        if words is not None:  # a match that carries a state (升级): each deal in the game's words
            matches[-1]["state"] = True
            matches[-1]["deals"] = [
                {
                    "board": d["board"],
                    # Each seat scores its side's level gain (S6): a side's is one of its seats'.
                    "ns": d["score_n"],
                    "ew": d["score_e"],
                    "words": deal_words(game, d["game_data"]) if d["game_data"] is not None else [],
                }
                for d in deals
            ]
    totals = members_statistics(event, members, tables)
    statistics = [(player, totals[player.id]) for player in members if player.id in totals]
    return {
        "subject": subject,
        "matches": matches,
        # The published rounds an individual sat out (a table of three: a count not a multiple of three).
        "byes": _individual_byes(event, entrant, fmt) if individual else [],
        "statistics": statistics,
        "withdrawn_after": entrant.withdrawn_after_round,
    }
