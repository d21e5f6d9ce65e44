"""Which side of a table an entrant code speaks for, and the bound on guessing (table-api.md).

A code is compared with both of the table's entrants' codes in constant time, every time, so
neither the answer's timing nor its content tells which part of a guess was right. Ten wrong
codes at a table within ten minutes lock that table's calls (`429`) until the window passes
or a referee clears them: 31⁸ codes, ten guesses per ten minutes, is no way in.
"""

import hmac
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from scoring.entry.errors import EntryError
from scoring.games import game_of
from scoring.games.refusals import _
from scoring.games.stored import plays_alone
from scoring.models import Entrant, Table, WrongCode

WRONG_CODES_ALLOWED = 10
WRONG_CODES_WINDOW = timedelta(minutes=10)
CODE_MAX_LENGTH = 32


@dataclass(frozen=True)
class TableSide:
    """The side acting through a table link: one of the game's sides ("NS" or "EW" in a game of
    partnerships; a seat, "N" … "W", where every player plays alone), and its entrant."""

    side: str
    entrant: Entrant
    device: str = ""  # the phone's own random id, when it sent one (X-Table-Device)


def _normalised(code):
    """As typed on a phone: spaces and dashes ignored, any case (the alphabet is upper case)."""
    if not isinstance(code, str) or len(code) > CODE_MAX_LENGTH:
        return ""
    return "".join(code.split()).replace("-", "").upper()


def seat_sides(game):
    """{seat: the game's side it plays for}: 华牌 and 升级 N and S one side, E and W the other;
    蚌埠斗地主 and 跑胡子 every seat its own side (`Game.sides`)."""
    return {seat: side for side, seats in game.sides.items() for seat in seats}


def side_entrants(table):
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


def side_for_code(table, code):
    """The `TableSide` whose entrant has this code, or `EntryError("bad_code")` (and the
    wrong code is counted against the table)."""
    typed = _normalised(code).encode()
    found = None
    for side, entrant in side_entrants(table):
        # Every code compared, whatever the others gave: the time taken says nothing.
        if hmac.compare_digest(typed, entrant.access_code.encode()) and found is None:
            found = TableSide(side, entrant)
    if found is None:
        _count_wrong_code(table)
        if plays_alone(game_of(table.round.event)):  # no sides to speak of: each player his own
            raise EntryError("bad_code", _("录入码不对：请用本桌一位选手的录入码（见参赛卡）"))
        raise EntryError("bad_code", _("录入码不对：请用本桌一方的录入码（见参赛卡）"))
    return found


def _count_wrong_code(table):
    """Record a wrong code; the tenth within the window locks the table until the oldest of
    those ten leaves it (stored on the table, so polls need no look-up)."""
    WrongCode.objects.create(table=table)
    since = timezone.now() - WRONG_CODES_WINDOW
    recent = list(
        WrongCode.objects.filter(table=table, at__gt=since)
        .order_by("-at")
        .values_list("at", flat=True)[:WRONG_CODES_ALLOWED]
    )
    if len(recent) >= WRONG_CODES_ALLOWED:
        table.locked_until = recent[-1] + WRONG_CODES_WINDOW
        Table.objects.filter(pk=table.pk).update(locked_until=table.locked_until)


def wrong_codes_lock_until(table):
    """When the table's calls open again, or None when they are open."""
    if table.locked_until is None or table.locked_until <= timezone.now():
        return None
    return table.locked_until


def wrong_codes_clear(table):
    """A referee unlocks the table (the players mistyped; the referee has seen their card)."""
    table.locked_until = None
    Table.objects.filter(pk=table.pk).update(locked_until=None)
    return WrongCode.objects.filter(table=table).delete()[0]
