"""The seats of a card table, the same for every game (games law §0): a table of four sits
N E S W, a table of three E S W with North empty; where partnerships are fixed they are NS and EW.
A game names which of these it uses (`Game.seats`, `Game.sides`); the core's table, its chairs and
a stored deal's score columns are these."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.refusals import _

if TYPE_CHECKING:
    from scoring.games.base import Game

TABLE_SEATS = ("N", "E", "S", "W")
PARTNERSHIPS = {"NS": ("N", "S"), "EW": ("E", "W")}
SEAT_NAMES = {"N": _("北"), "E": _("东"), "S": _("南"), "W": _("西")}


def in_partnerships(game: Game) -> bool:
    """Whether the game's sides are the two partnerships NS and EW (each has its own columns,
    codes and signature); otherwise every player plays alone. The one place that asks."""
    return dict(game.sides) == PARTNERSHIPS
