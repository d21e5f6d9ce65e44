"""What §0 of the games' law (shared/rules/games/README.md) gives every game plug-in, in one place.

- The standings option `standings` (蚌埠斗地主 and 跑胡子) and its `table_points` rule: per
  table match, 2 points for every opponent at the table with a lower match total and 1 for
  every equal one (华牌's win/draw/loss 2/1/0 applied to each pair of players).
- A table's deals grouped into matches of a fixed number of deals (`deals_per_match`), each
  with its running totals (`group_deals`).
- An arbiter's adjusted score (调整分), checked for the game's seats (`adjusted_scores`; 华牌's
  stored deals too).

How a message names a value is `scoring.games.refusals` (`shown`, `preview`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring.games.options import EVENT, Option
from scoring.games.refusals import DealError, _

if TYPE_CHECKING:
    from typing import Any

# §0 Standings option, an event option of the games that score each player alone.
STANDINGS = Option(
    "standings",
    EVENT,
    "total",
    _("排名：total 总积分，table_points 每桌两两比较 2/1/0"),
    choices=("total", "table_points"),
    short_label=_("名次依据"),
    phrase=_("名次按%(value)s"),
    words=(("total", _("总分")), ("table_points", _("桌分（总分为第一破同分）"))),
)


def table_points(totals: dict[str, int]) -> dict[str, int]:
    """§0 `table_points`: per seat of `totals` ({seat: match total}), 2 for every opponent with a
    lower total and 1 for every equal one."""
    return {
        seat: sum(
            2 if totals[seat] > totals[other] else 1 if totals[seat] == totals[other] else 0
            for other in totals
            if other != seat
        )
        for seat in totals
    }


@dataclass
class DealsMatch:
    """A table match of a fixed number of deals: its number at the table (1-based), the deals it
    holds (indices into the table's deals), each seat's running total, whether it is finished."""

    number: int
    deals: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    finished: bool = False

    @property
    def table_points(self) -> dict[str, int]:
        return table_points(self.totals)


def group_deals(
    seat_scores: list[dict[str, int] | tuple[int, ...]],
    deals_per_match: int,
    seats: tuple[str, ...],
    match: type[Any] = DealsMatch,
) -> list[Any]:
    """A table's deals grouped into matches of `deals_per_match` deals, in playing order.

    `seat_scores` holds each deal's scores: a dict seat → score, or a sequence in the order of
    `seats`. The last match is unfinished when the deals run out before it ends. `match` is the
    class of a match (a game's `DealsMatch` with its own words for the winners)."""
    matches = []
    current = None
    for index, scores in enumerate(seat_scores):
        if current is None:
            current = match(number=len(matches) + 1, totals=dict.fromkeys(seats, 0))
            matches.append(current)
        current.deals.append(index)
        values = [scores[seat] for seat in seats] if isinstance(scores, dict) else scores
        totals = current.totals
        for seat, score in zip(seats, values, strict=True):
            totals[seat] += score
        if len(current.deals) == deals_per_match:
            current.finished = True
            current = None
    return matches


# An arbiter's adjusted score per seat lies within these bounds (docs/security.md).
ADJUSTED_LIMIT = 1_000_000
# §0 Seats: a table of four seats (N, E, S, W) or of three (E, S, W).
_NOT_EVERY_SEAT = {
    4: _("调整分必须给出四个座位的整数"),
    3: _("调整分必须给出东、南、西三个座位的整数"),
}


def adjusted_scores(adjusted: dict[str, bool | float] | list[int] | None, seats: tuple[str, ...]) -> dict[str, int]:
    """An arbiter's adjusted score (调整分) for a table of `seats`: `{seat: score}` in seat order.

    Raises `DealError("bad_adjusted")` unless `adjusted` is an object giving every seat, and only
    those, an integer within ±`ADJUSTED_LIMIT` (`true` is not an integer); the message names the
    first seat at fault, in seat order."""
    if not isinstance(adjusted, dict) or set(adjusted) != set(seats):
        raise DealError("bad_adjusted", _NOT_EVERY_SEAT[len(seats)])
    for seat in seats:
        value = adjusted[seat]
        if type(value) is not int or not -ADJUSTED_LIMIT <= value <= ADJUSTED_LIMIT:
            raise DealError(
                "bad_adjusted", _("{seat} 的调整分必须是 ±{limit} 以内的整数"), seat=seat, limit=ADJUSTED_LIMIT
            )
    return {seat: adjusted[seat] for seat in seats}
