"""A 跑胡子 match at a table (law §3.1 and §0): `deals_per_match` deals, the dealer passed on deal
by deal, each player's match total, and what goes into standings.

The match ends when the table has played `deals_per_match` deals (default 9, the 2015 永州
competition's 「每场比赛每桌打9把牌」). Standings take each player's total of deal scores
(`standings` = "total"), or table points (`"table_points"`: 2 for every opponent at the table
with a lower match total, 1 for every equal one) with the total as the first tie-break.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.common import DealsMatch, group_deals, table_points
from scoring.games.refusals import DealError, Text, _

from .cards import NEXT_SEAT, SEATS
from .deal import validate_deal
from .engine import score_valid_deal
from .options import DEFAULT_RULES

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.paohuzi.options import Rules


def next_dealer(dealer: str | None, winner: str | None) -> str | None:
    """Who deals next (§3.1): the winner; after a 黄庄 (`winner` None) the dealer's 下家.
    None when a 黄庄's dealer is unknown (the first dealer is drawn by lot)."""
    if winner is not None:
        return winner
    return NEXT_SEAT[dealer] if dealer is not None else None


def leaders(totals: dict[str, int]) -> tuple[str, ...]:
    """The seats with the highest total, in seat order (more than one on a tie)."""
    best = max(totals.values())
    return tuple(seat for seat in totals if totals[seat] == best)


class TableMatch(DealsMatch):
    """A table's match (`scoring.games.common.DealsMatch`: number, deals, totals, finished,
    table_points), its leaders and what it puts into standings."""

    @property
    def leaders(self) -> Any:
        return leaders(self.totals)

    def standing(self, standings: str = "total") -> dict[str, tuple[int, ...]]:
        """Per seat, what the match puts into standings: (table points, total) or (total,)."""
        if standings == "table_points":
            points = self.table_points
            return {seat: (points[seat], self.totals[seat]) for seat in SEATS}
        return {seat: (self.totals[seat],) for seat in SEATS}


def split_matches(
    seat_scores: list[dict[str, int] | tuple[int, int, int]], deals_per_match: int = DEFAULT_RULES.event.deals_per_match
) -> list[TableMatch]:
    """Group a table's deals into matches of `deals_per_match` deals, in order.

    `seat_scores` is the sequence of deal scores, each a dict seat → score or a tuple in
    seat order (E, S, W). The last match is unfinished when the deals run out before it ends.
    """
    return group_deals(seat_scores, deals_per_match, SEATS, TableMatch)


def _at_deal(number: int, problem: DealError) -> DealError:
    """A deal's refusal, placed: 第3把：…; the code stays the deal's."""
    refusal = DealError(
        problem.code, _("第 {deal} 把：{problem}"), deal=number, problem=Text(problem.template, **problem.params)
    )
    refusal.deal = number
    return refusal


def play_match(
    deals: list[dict[str, Any]], rules: Rules = DEFAULT_RULES, first_dealer: str | None = None
) -> dict[str, Any]:
    """Score a table's match from its deal JSONs in playing order.

    Returns `{"totals", "deals_played", "finished", "table_points", "leaders", "dealers",
    "next_dealer", "results"}`. `dealers` gives each deal's dealer: the one the deal records,
    else the one the dealer rule names (None while unknown: the first dealer is drawn by lot
    and may be given as `first_dealer`). Raises the first invalid deal's refusal, placed
    (`.deal` is its 1-based position), and `match_over` for a deal after the last.
    """
    per_match = rules.event.deals_per_match
    totals = dict.fromkeys(SEATS, 0)
    dealers, results = [], []
    dealer = first_dealer
    for number, raw in enumerate(deals, start=1):
        if number > per_match:
            raise DealError(
                "match_over", _("本场每桌 {deals} 把已打完，第 {deal} 把多余"), deals=per_match, deal=number
            )
        try:
            deal = validate_deal(raw, rules)
        except DealError as problem:
            raise _at_deal(number, problem) from None
        if deal.dealer is not None:
            dealer = deal.dealer
        dealers.append(dealer)
        result = score_valid_deal(deal)
        results.append(result)
        for seat, score in result["scores"].items():
            totals[seat] += score
        dealer = next_dealer(dealer, deal.winner)
    return {
        "totals": totals,
        "deals_played": len(results),
        "finished": len(results) == per_match,
        "table_points": table_points(totals),
        "leaders": leaders(totals),
        "dealers": dealers,
        "next_dealer": dealer,
        "results": results,
    }


__all__ = ["TableMatch", "leaders", "next_dealer", "play_match", "split_matches", "table_points"]
