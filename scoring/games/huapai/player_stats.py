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

from dataclasses import dataclass, fields

from scoring.games.huapai.cards import GOAT, PIG, SIDE_OF_SEAT, TRANSFORMER
from scoring.games.huapai.stored import score_stored


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

    def add(self, other):
        for item in fields(self):
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))


def _as_list(value):
    return list(value) if isinstance(value, list) else [value]


def exposures_by_seat(holders, exposed):
    """{seat: [(card, copy index)]} of the exposed copies, each made by the copy's holder
    (deal-json.md: with two decks the holders and exposures of a card align by copy)."""
    made = {}
    for card, kinds in exposed.items():
        seats = _as_list(holders.get(card, []))
        for index, _kind in enumerate(_as_list(kinds)):
            if index < len(seats):
                made.setdefault(seats[index], []).append((card, index))
    return made


def without_exposures_of(deal_json, seat):
    """The deal as it would have been had `seat` exposed nothing: its exposed copies dropped,
    the holders reordered so the remaining exposures keep their holders (自得 counts holders
    by seat, so the order changes nothing else)."""
    holders, exposed = {}, {}
    for card, seats in deal_json["holders"].items():
        if card not in deal_json["exposed"]:
            holders[card] = seats
            continue
        seats, kinds = _as_list(seats), _as_list(deal_json["exposed"][card])
        kept = [(s, k) for s, k in zip(seats, kinds, strict=False) if s != seat]
        dropped = [s for s, _ in zip(seats, kinds, strict=False) if s == seat] + seats[len(kinds) :]
        if isinstance(deal_json["holders"][card], list):
            holders[card] = [s for s, _ in kept] + dropped
            if kept:
                exposed[card] = [k for _, k in kept]
        else:
            holders[card] = seats[0]
            if kept:
                exposed[card] = kept[0][1]
    return {**deal_json, "holders": holders, "exposed": exposed}


def _margin(scored, seat):
    own = SIDE_OF_SEAT[seat]
    return scored["sides"][own] - scored["sides"]["EW" if own == "NS" else "NS"]


# The figures a deal stores per seat when it is written (`Deal.seat_stats`), in this order, so
# that statistics are summed from the deals instead of scoring every deal again.
STORED_FIELDS = ("pigs", "goats", "transformers", "all_hearts", "grand_slams", "exposures", "exposure_gain")


def seat_statistics(rules, scored, adjusted=None, seats=None):
    """{seat: PlayerStats} of one deal already scored (`score_stored`'s result), for every seat
    or the `seats` given; a seat's exposures cost one more scoring each (the deal without them)."""
    made = exposures_by_seat(scored["holders"], scored["exposed"])
    result = {}
    for seat in seats or scored["captured"]:
        cards = scored["captured"][seat]
        rules_applied = {entry["rule"] for entry in scored["breakdown"][seat]}
        stats = PlayerStats(
            deals=1,
            pigs=cards.count(PIG),
            goats=cards.count(GOAT),
            transformers=cards.count(TRANSFORMER),
            all_hearts=int("all_hearts" in rules_applied),
            grand_slams=int("grand_slam" in rules_applied),
            exposures=len(made.get(seat, ())),
        )
        if stats.exposures and adjusted is None:
            as_dealt = {key: scored[key] for key in ("captured", "holders", "exposed", "penalties")}
            counterfactual = score_stored(rules, without_exposures_of(as_dealt, seat))
            stats.exposure_gain = _margin(scored, seat) - _margin(counterfactual, seat)
        result[seat] = stats
    return result


def stored_seat_statistics(rules, scored, adjusted=None):
    """What a deal stores when it is written: {seat: [figures in STORED_FIELDS order]}."""
    return {
        seat: [getattr(stats, name) for name in STORED_FIELDS]
        for seat, stats in seat_statistics(rules, scored, adjusted).items()
    }


def from_stored(figures):
    """A seat's `PlayerStats` from what its deal stored."""
    return PlayerStats(deals=1, **dict(zip(STORED_FIELDS, figures, strict=True)))


def deal_statistics(rules, deal_json, adjusted, seat_players, only=None):
    """{player: PlayerStats} for one deal; `seat_players` maps seats to player ids (a seat
    without a player is skipped, and so is a player not in `only` when it is given: an
    entrant's page scores no counterfactual for its opponents). Raises `DealError` for a deal
    the engine refuses."""
    seats = [seat for seat, player in seat_players.items() if player is not None and (only is None or player in only)]
    if not seats:
        return {}
    by_seat = seat_statistics(rules, score_stored(rules, deal_json, adjusted), adjusted, seats)
    return {seat_players[seat]: stats for seat, stats in by_seat.items()}
