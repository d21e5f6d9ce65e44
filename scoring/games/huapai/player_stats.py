"""Per-player statistics over an event: the special cards taken, 全红, 满贯, exposures and what
they were worth. Plain data in and out; every score comes from the engine (`scoring.games.huapai.stored`).

Net gain from exposures (亮牌净得分): for each deal in which the player exposed (明 or 首明)
a card they held, the margin of their side over the other (own side's score minus the other
side's) as it was, minus that margin had they exposed nothing (the engine scores the deal
again without those exposures; the other players' exposures stay). The margin, because a
match is won on it: an exposed ♦J the opponents take costs the exposer's side nothing in its
own score but everything in the match. Adjusted deals (调整分) are left out of the gain:
their score is the arbiter's.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from scoring.games.huapai.cards import GOAT, PIG, SIDE_OF_SEAT, TRANSFORMER
from scoring.games.huapai.deal import from_canonical
from scoring.games.huapai.engine import sides_with_other_exposures
from scoring.games.huapai.stored import score_stored

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.huapai.deal import ValidDeal
    from scoring.games.huapai.rulesets import RuleSet


@dataclass
class PlayerStats:
    deals: int = 0
    pigs: int = 0  # ♠Q 猪 taken (copies)
    goats: int = 0  # ♦J 羊
    transformers: int = 0  # ♣10 变压器
    all_hearts: int = 0  # 全红 (满红 with two decks)
    grand_slams: int = 0  # 满贯
    exposures: int = 0  # cards this player exposed (明 and 首明)
    exposure_gain: int = 0  # what they changed in the side's margin over the opponents

    def add(self, other: PlayerStats) -> None:
        for item in fields(self):
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))


def _as_list(value: list[str] | str) -> list[str]:
    return list(value) if isinstance(value, list) else [value]


def exposures_by_seat(holders: dict[str, list[str] | str], exposed: dict[str, list[str] | str]) -> dict[str, list[Any]]:
    """{seat: [(card, copy index)]} of the exposed copies, each made by the copy's holder
    (deal-json.md: with two decks the holders and exposures of a card align by copy)."""
    made = {}
    for card, kinds in exposed.items():
        seats = _as_list(holders.get(card, []))
        for index, _kind in enumerate(_as_list(kinds)):
            if index < len(seats):
                made.setdefault(seats[index], []).append((card, index))
    return made


def without_exposures_of(deal_json: dict[str, dict[str, Any] | str], seat: str) -> dict[str, dict[str, Any] | str]:
    """The deal as it would have been had `seat` exposed nothing: its exposed copies dropped,
    the holders reordered so the remaining exposures keep their holders (自得 counts holders
    by seat, so the order changes nothing else)."""
    holders, exposed = _dropped(
        {card: _as_list(seats) for card, seats in deal_json["holders"].items()},
        {card: _as_list(kinds) for card, kinds in deal_json["exposed"].items()},
        seat,
    )
    for card, seats in deal_json["holders"].items():  # one deck: one seat and one kind, not lists
        if not isinstance(seats, list):
            holders[card] = holders[card][0]
            if card in exposed:
                exposed[card] = exposed[card][0]
    return {**deal_json, "holders": holders, "exposed": exposed}


def _without_exposures(deal: ValidDeal, seat: str) -> ValidDeal:
    """`without_exposures_of` on a `ValidDeal` (copies as tuples)."""
    holders, exposed = _dropped(deal.holders, deal.exposed, seat)
    return replace(
        deal,
        holders={card: tuple(seats) for card, seats in holders.items()},
        exposed={card: tuple(kinds) for card, kinds in exposed.items()},
    )


def _dropped(
    holders: dict[str, list[str] | tuple[str, ...]], exposed: dict[str, list[str] | tuple[str, ...]], seat: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per card, the holders (reordered) and the exposures left (lists per copy) once `seat`'s
    exposures are dropped."""
    kept_holders, kept_exposed = {}, {}
    for card, seats in holders.items():
        kinds = exposed.get(card)
        if kinds is None:
            kept_holders[card] = seats
            continue
        kept = [(s, k) for s, k in zip(seats, kinds, strict=False) if s != seat]
        dropped = [s for s, _ in zip(seats, kinds, strict=False) if s == seat] + list(seats[len(kinds) :])
        kept_holders[card] = [s for s, _ in kept] + dropped
        if kept:
            kept_exposed[card] = [k for _, k in kept]
    return kept_holders, kept_exposed


def _margin(sides: dict[str, int], seat: str) -> int:
    own = SIDE_OF_SEAT[seat]
    return sides[own] - sides["EW" if own == "NS" else "NS"]


# The figures a deal stores per seat when it is written (`Deal.seat_stats`), in this order, so
# that statistics are summed from the deals instead of scoring every deal again.
STORED_FIELDS = ("pigs", "goats", "transformers", "all_hearts", "grand_slams", "exposures", "exposure_gain")


def seat_statistics(
    rules: RuleSet,
    scored: dict[str, dict[str, Any] | str],
    adjusted: dict[str, int] | None = None,
    seats: list[str] | None = None,
) -> dict[str, PlayerStats]:
    """{seat: PlayerStats} of one deal already scored (`score_stored`'s result), for every seat
    or the `seats` given; a seat's exposures cost one more scoring each (the deal without them)."""
    return {seat: from_stored(figures) for seat, figures in _seat_figures(rules, scored, adjusted, seats).items()}


def stored_seat_statistics(
    rules: RuleSet, scored: dict[str, dict[str, Any] | str], adjusted: dict[str, int] | None = None
) -> dict[str, list[int]]:
    """What a deal stores when it is written: {seat: [figures in STORED_FIELDS order]}."""
    return _seat_figures(rules, scored, adjusted)


def _seat_figures(
    rules: RuleSet,
    scored: dict[str, dict[str, Any] | str],
    adjusted: dict[str, int] | None = None,
    seats: list[str] | None = None,
) -> dict[str, list[int]]:
    made = exposures_by_seat(scored["holders"], scored["exposed"])
    deal = None
    result = {}
    for seat in seats or scored["captured"]:
        cards = scored["captured"][seat]
        rules_applied = {entry["rule"] for entry in scored["breakdown"][seat]}
        exposures = len(made.get(seat, ()))
        gain = 0
        if exposures and adjusted is None:
            # The deal was read and checked when it was scored: it is not read again, and
            # dropping exposures keeps it valid.
            deal = deal or from_canonical(scored, rules)
            sides = sides_with_other_exposures(deal, rules, scored["raw"], _without_exposures(deal, seat))
            gain = _margin(scored["sides"], seat) - _margin(sides, seat)
        # In STORED_FIELDS order.
        result[seat] = [
            cards.count(PIG),
            cards.count(GOAT),
            cards.count(TRANSFORMER),
            int("all_hearts" in rules_applied),
            int("grand_slam" in rules_applied),
            exposures,
            gain,
        ]
    return result


def from_stored(figures: list[int]) -> PlayerStats:
    """A seat's `PlayerStats` from what its deal stored."""
    return PlayerStats(deals=1, **dict(zip(STORED_FIELDS, figures, strict=True)))


def deal_statistics(
    rules: RuleSet,
    deal_json: dict[str, dict[str, Any]],
    adjusted: dict[str, int] | None,
    seat_players: dict[str, int | str],
    only: Any = None,
) -> dict[int | str, PlayerStats]:
    """{player: PlayerStats} for one deal; `seat_players` maps seats to player ids (a seat
    without a player is skipped, and so is a player not in `only` when it is given: an
    entrant's page scores no counterfactual for its opponents). Raises `DealError` for a deal
    the engine refuses."""
    seats = [seat for seat, player in seat_players.items() if player is not None and (only is None or player in only)]
    if not seats:
        return {}
    by_seat = seat_statistics(rules, score_stored(rules, deal_json, adjusted), adjusted, seats)
    return {seat_players[seat]: stats for seat, stats in by_seat.items()}
