"""Exporting a whole event from the database as a `huapai-event/1` document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.archive.format import AVAILABILITY, FORMAT
from scoring.games import DEFAULT_GAME, game_of
from scoring.models import (
    Deal,
    Event,
    LineUp,
    Membership,
)

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Entrant, Round


def _availability(entrant: Entrant) -> dict[str, int]:
    return {key: getattr(entrant, key) for key in AVAILABILITY if getattr(entrant, key) is not None}


def _availability_keys(exported: dict[str, list[str] | str]) -> dict[Any, Any]:
    return {key: exported[key] for key in AVAILABILITY if key in exported}


def export_archive(event: Event) -> dict[str, Any]:
    """The event as a `huapai-event/1` document (a dict ready for `json.dumps`)."""
    players = [
        {
            "id": p.code,
            "name": p.name,
            **({"club": p.club} if p.club else {}),
            **({"federation_id": p.federation_id} if p.federation_id else {}),
            "sort_key": p.sort_key,
            **p.extra,
        }
        for p in event.players.order_by("id")
    ]
    members = {}
    for membership in (
        Membership.objects.filter(entrant__event=event).select_related("player").order_by("entrant_id", "position")
    ):
        members.setdefault(membership.entrant_id, []).append(membership.player.code)
    pair_size = 2 if event.kind == Event.Kind.PAIRS else None  # a pair's others are substitutes
    entrants = [
        {
            "id": e.code,
            **({"name": e.name} if e.name else {}),
            "players": members.get(e.id, [])[:pair_size],
            **({"substitutes": members[e.id][2:]} if pair_size and len(members.get(e.id, [])) > 2 else {}),
            **_availability(e),
            **e.extra,
        }
        for e in event.entrants.order_by("id")
    ]
    if event.kind == Event.Kind.INDIVIDUAL:
        # The archive lists an individual event's players only: their entrant's availability goes there.
        availability = {e["players"][0]: _availability_keys(e) for e in entrants if e["players"]}
        for player in players:
            player.update(availability.get(player["id"], {}))
    match_extra = event.extra.get("match", {})
    length_key = "games" if event.match_mode == Event.MatchMode.GAMES else "boards"
    document = {
        "format": FORMAT,
        "event": {
            **{k: v for k, v in event.extra.items() if k != "match"},
            # A 华牌 event's archive stays as it was: "game" is written for the other games.
            **({"game": event.game} if event.game != DEFAULT_GAME else {}),
            "slug": event.slug,
            "name": event.name,
            "ruleset": event.ruleset,
            "game_threshold": event.game_threshold,
            "kind": event.kind,
            "match": {"mode": event.match_mode, length_key: event.match_length, **match_extra},
            "match_points": event.match_points,
            "tiebreaks": event.tiebreaks,
            **({"options": event.options} if event.options else {}),
            **({"entry": event.entry} if event.entry != Event.Entry.REFEREES else {}),
            **({"venue": event.venue} if event.venue else {}),
            **({"start_date": event.start_date.isoformat()} if event.start_date else {}),
            **({"end_date": event.end_date.isoformat()} if event.end_date else {}),
            **({"chief_arbiter": event.chief_arbiter} if event.chief_arbiter else {}),
            **({"planned_rounds": event.planned_rounds} if event.planned_rounds else {}),
            **({"finished_at": event.finished_at.isoformat()} if event.finished_at else {}),
            **({"sessions_per_round": event.sessions_per_round} if event.sessions_per_round > 1 else {}),
            **({"swap_directions": True} if event.swap_directions else {}),
        },
        "players": players,
    }
    if event.kind == Event.Kind.PAIRS:
        document["pairs"] = entrants
    elif event.kind == Event.Kind.TEAMS:
        document["teams"] = entrants
    document["rounds"] = [_export_round(event, rnd) for rnd in event.rounds.order_by("number")]
    return document


def _export_deal(deal: Deal) -> dict[str, Any]:
    # The deal as its game keeps it (without "game": the event's).
    exported = {"board": deal.board, **deal.game_data, **deal.extra}
    if deal.adjusted is not None:
        exported["adjusted"] = deal.adjusted
        exported["adjusted_reason"] = deal.adjusted_reason
    if deal.status != Deal.Status.CONFIRMED:
        exported["status"] = deal.status
    return exported


def _export_round(event: Event, rnd: Round) -> dict[str, Any]:
    lineups = {}
    for lineup in (
        LineUp.objects.filter(table__round=rnd).select_related("north", "east", "south", "west").order_by("session")
    ):
        lineups.setdefault(lineup.table_id, []).append(
            {
                "session": lineup.session,
                "ns": [lineup.north.code, lineup.south.code],
                "ew": [lineup.east.code, lineup.west.code],
            }
        )
    deals_by_table = {}
    for deal in Deal.objects.filter(table__round=rnd).order_by("table_id", "sequence"):
        deals_by_table.setdefault(deal.table_id, []).append(_export_deal(deal))
    tables_by_match = {}
    for table in rnd.tables.select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west").order_by(
        "number"
    ):
        tables_by_match.setdefault(table.match_id, []).append(table)
    matches = []
    for match in rnd.matches.select_related("home", "away", "bye").order_by("number"):
        if match.bye_id:
            matches.append({"bye": match.bye.code, **match.extra})
            continue
        tables = tables_by_match.get(match.id, [])
        if event.kind == Event.Kind.TEAMS:
            matches.append(
                {
                    "home": match.home.code,
                    "away": match.away.code,
                    "tables": [
                        {
                            "table": t.number,
                            "ns_team": t.ns_entrant.code,
                            "ew_team": t.ew_entrant.code,
                            "ns": [t.north.code, t.south.code],
                            "ew": [t.east.code, t.west.code],
                            "deals": deals_by_table.get(t.id, []),
                            **({"lineups": lineups[t.id]} if t.id in lineups else {}),
                        }
                        for t in tables
                    ],
                    **match.extra,
                }
            )
        elif event.kind == Event.Kind.PAIRS:
            (table,) = tables
            matches.append(
                {
                    "table": table.number,
                    "ns": table.ns_entrant.code,
                    "ew": table.ew_entrant.code,
                    "deals": deals_by_table.get(table.id, []),
                    **({"lineups": lineups[table.id]} if table.id in lineups else {}),
                    # The chief arbiter's ruling on an unfinished match (升级): what it decided and
                    # why; the deals it was made on are the match's deals.
                    **(
                        {"ruling": {key: table.match_ruling[key] for key in ("outcome", "reason")}}
                        if table.match_ruling
                        else {}
                    ),
                    **match.extra,
                }
            )
        else:
            (table,) = tables
            players = table.seat_players()
            matches.append(
                {
                    "table": table.number,
                    "seats": {seat: players[seat].code for seat in game_of(event).seats},
                    "deals": deals_by_table.get(table.id, []),
                    **match.extra,
                }
            )
    draw = {"draw": "released"} if rnd.draw_released_at else {}
    stage = {"stage": rnd.stage} if rnd.stage else {}
    for match, exported in zip(rnd.matches.order_by("number"), matches, strict=True):
        if match.label:
            exported["label"] = match.label
    sessions = {"sessions": rnd.sessions} if rnd.sessions > 1 else {}
    return {"number": rnd.number, "status": rnd.status, **draw, **stage, **sessions, "matches": matches, **rnd.extra}
