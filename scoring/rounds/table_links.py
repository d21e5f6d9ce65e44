"""Table links and entrant codes for table entry by players (`shared/formats/table-api.md`).

A table's link reaches that table of that round only; an entrant's code says which side acts.
Both are secrets: they are shown to the event's organisers (the round console, the entrant
cards) and printed on the papers that go to that table, and nowhere else. Replacing one makes
the old one useless at once (the link answers 404, the code is refused).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F

from scoring.games import game_of
from scoring.models import Entrant, Table, new_access_code, new_table_token

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game
    from scoring.models import Round

TABLE_PATH = "/t/{token}/"


def seat_sides(game: Game) -> dict[str, str]:
    """{seat: the game's side it plays for}: 华牌 and 升级 N and S one side, E and W the other;
    蚌埠斗地主 and 跑胡子 every seat its own side (`Game.sides`)."""
    return {seat: side for side, seats in game.sides.items() for seat in seats}


def side_entrants(table: Table) -> list[tuple[str, Any]]:
    """[(side, entrant)] of the table: its two pairs or teams; in an individual event, the
    entrants of the players seated there, each on the side of the game its seat plays for
    (华牌: N and S one side, E and W the other; a game of individuals: each seat its own)."""
    if table.ns_entrant_id or table.ew_entrant_id:
        return [(side, e) for side, e in (("NS", table.ns_entrant), ("EW", table.ew_entrant)) if e is not None]
    sides = seat_sides(game_of(table.round.event))
    seated = {"N": table.north_id, "E": table.east_id, "S": table.south_id, "W": table.west_id}
    seats = {player: sides[seat] for seat, player in seated.items() if player and seat in sides}
    entrants = Entrant.objects.filter(event_id=table.round.event_id, memberships__player_id__in=[p for p in seats if p])
    order = list(dict.fromkeys(sides.values()))  # the game's sides in seat order
    found = [(seats[e.player_id], e) for e in entrants.annotate(player_id=F("memberships__player_id")).order_by("code")]
    return sorted(found, key=lambda pair: order.index(pair[0]))


def table_links(rnd: Round) -> list[dict[str, Any]]:
    """[{"table", "url", "ns", "ew", "codes"}] for every table of a round, as `manage.py
    table_links` prints them: "ns"/"ew" are the codes of the entrants seated there (None when a
    table's seats are individuals); "codes" every side's code, [(side, code)] in the game's seat
    order (跑胡子: E, S, W — a player alone is his own side), so the round console can list them
    where there are no pairs."""
    tables = Table.objects.filter(round=rnd).select_related("ns_entrant", "ew_entrant", "round").order_by("number")
    return [
        {
            "table": table.number,
            "url": TABLE_PATH.format(token=table.token),
            "ns": table.ns_entrant.access_code if table.ns_entrant else None,
            "ew": table.ew_entrant.access_code if table.ew_entrant else None,
            "codes": [(side, entrant.access_code) for side, entrant in side_entrants(table)],
            # The two partnerships' columns (a pair's code, or None: its players' own, in "codes").
            "pairs": [
                ("NS", table.ns_entrant.access_code if table.ns_entrant else None),
                ("EW", table.ew_entrant.access_code if table.ew_entrant else None),
            ],
        }
        for table in tables
    ]


@transaction.atomic
def table_token_replace(table: Table) -> Table:
    """A new link for the table (a lost or photographed sheet); the old one stops at once."""
    table.token = new_table_token()
    table.save(update_fields=["token", "token_digest"])
    return table


@transaction.atomic
def entrant_code_replace(entrant: Entrant) -> Entrant:
    """A new personal code for the entrant; the old one is refused from now on."""
    taken = set(Entrant.objects.filter(event_id=entrant.event_id).values_list("access_code", flat=True))
    code = new_access_code()
    while code in taken:  # 31^8 codes: a clash is a curiosity, but the constraint would refuse it
        code = new_access_code()
    entrant.access_code = code
    entrant.save(update_fields=["access_code"])
    return entrant
