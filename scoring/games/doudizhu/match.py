"""A match at one table (law §1.1, §0 standings, D-B9, D-B10).

A table plays `deals_per_match` recorded deals (a passed-out deal is redealt and never
recorded). The match totals are each seat's sum of deal scores; the winners are the seats
with the highest total. Standings take either the totals (`standings` = "total") or the table
points of §0 (2 per opponent with a lower total, 1 per equal one; totals break ties).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.common import DealsMatch, group_deals, table_points
from scoring.games.refusals import DealError, Text, _

from .cards import SEATS
from .engine import score_deal
from .options import DEFAULT_RULES

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.doudizhu.options import Rules


def first_bidder(deal_index: int, first: str = SEATS[0]) -> str:
    """D-B9: the seat that bids first in the table's deal number `deal_index` (0-based, recorded
    deals only): one seat on per deal in playing order, starting from `first`."""
    return SEATS[(SEATS.index(first) + deal_index) % len(SEATS)]


def winners(totals: dict[str, int]) -> list[str]:
    """The seats with the highest match total (several on a tie), in seat order."""
    best = max(totals[seat] for seat in SEATS)
    return [seat for seat in SEATS if totals[seat] == best]


def standing_points(totals: dict[str, int], standings: str = "total") -> dict[str, dict[str, int | None]]:
    """What one table match puts into the standings, per seat: `{"points", "tiebreak"}`.
    "total": the match total (no tie-break of its own); "table_points": §0's table points, with
    the match total as the first tie-break."""
    if standings == "table_points":
        points = table_points(totals)
        return {seat: {"points": points[seat], "tiebreak": totals[seat]} for seat in SEATS}
    return {seat: {"points": totals[seat], "tiebreak": None} for seat in SEATS}


class MatchUnit(DealsMatch):
    """A table match (`scoring.games.common.DealsMatch`: number, deals, totals, finished,
    table_points) and its winners."""

    @property
    def winners(self) -> list[str]:
        return winners(self.totals)


def match_units(
    seat_scores: list[dict[str, int]], deals_per_match: int = DEFAULT_RULES.deals_per_match
) -> list[MatchUnit]:
    """A table's deals (`[{seat: score}]` in playing order) grouped into matches of
    `deals_per_match` deals; the last is unfinished when the deals run out before it ends."""
    return group_deals(seat_scores, deals_per_match, SEATS, MatchUnit)


def _at(position: int, error: DealError) -> DealError:
    """A deal's refusal inside a match: the same code, the message naming the deal. `deal` is
    the deal's place counted from 1 — its board number — as every game's match error counts it
    (升级's `"deal"`, 跑胡子's `.deal`), so the site needs no game's own base."""
    located = DealError(
        error.code, _("第 {number} 副：{problem}"), number=position + 1, problem=Text(error.template, **error.params)
    )
    located.deal = position + 1
    return located


def score_match(
    deals: dict[str, dict[Any, Any] | list[Any]] | list[Any] | None, rules: Rules | None = None
) -> dict[str, Any]:
    """A table's match from its deals (deal JSON, in playing order) under an event's `rules`:
    `{"deals_played", "finished", "totals", "table_points", "winners", "standings", "results"}`.

    `winners` is empty until the match is finished. Raises `DealError` for the first invalid deal,
    its message naming the deal and its attribute `deal` the 1-based position, and
    `match_over` for a deal beyond `deals_per_match`.
    """
    rules = rules or DEFAULT_RULES
    if not isinstance(deals, list):
        raise DealError("bad_json", _("一场比赛的牌局必须是列表"))
    results = []
    totals = dict.fromkeys(SEATS, 0)
    for position, deal in enumerate(deals):
        if position >= rules.deals_per_match:
            error = DealError("match_over", _("这场比赛已打满 {deals} 副"), deals=rules.deals_per_match)
            raise _at(position, error)
        try:
            result = score_deal(deal, rules)
        except DealError as error:
            raise _at(position, error) from None
        results.append(result)
        for seat in SEATS:
            totals[seat] += result["scores"][seat]
    finished = len(results) == rules.deals_per_match
    return {
        "deals_played": len(results),
        "finished": finished,
        "totals": totals,
        "table_points": table_points(totals),
        "winners": winners(totals) if finished else [],
        "standings": standing_points(totals, rules.standings),
        "results": results,
    }


def match_error_json(error: DealError) -> dict[str, dict[str, str] | int]:
    """A match refusal as JSON: the deal's error object with the deal's position (from 1)."""
    return {**error.as_json(), "deal": getattr(error, "deal", None)}
