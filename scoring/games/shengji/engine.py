"""Scoring a 升级 deal (law §2.3): the next state, each seat's level gain and its breakdown.

Each seat scores its side's level gain (S6); its breakdown is one entry, the rule of S2–S5
that applied with the seat's gain, so it adds up to the seat's score by construction.
"""

from .cards import OTHER_SIDE, SEATS, SIDES, band, rank
from .deal import GAME_ID, State, validate_deal

# What each band means for the side that was on 台上 (first) and the side that was 台下,
# in the note's words; {p} the points, {old} → {new} the rank.
NOTES = {
    "S2": ("台下得{p}分，不足50：台上连升两级，{old}→{new}", "台下得{p}分，不足50：仍在台下，不升级"),
    "S3": ("台下得{p}分，在50与100之间：台上升一级，{old}→{new}", "台下得{p}分，在50与100之间：仍在台下，不升级"),
    "S4": ("台下得{p}分，在100与120之间：下台，不升级", "台下得{p}分，在100与120之间：上台，不升级，打{new}"),
    "S5": ("台下得{p}分，达到120：下台，不升级", "台下得{p}分，达到120：上台并升一级，{old}→{new}"),
}


def next_state(before, points):
    """`(state after, rule, swap, gained side, gain)` of a deal from `before` (S2–S5)."""
    rule, swap, gain = band(points)
    declarer = OTHER_SIDE[before.declarer] if swap else before.declarer
    ns, ew = before.ns, before.ew
    if declarer == "NS":
        ns += gain
    else:
        ew += gain
    return State(declarer, ns, ew), rule, swap, declarer, gain


def _levels(state):
    return {"NS": state.ns, "EW": state.ew}


def score_valid_deal(deal):
    """The result of a `ValidDeal`: scores, breakdown, state after, ranks and swap (§2.3)."""
    before, points = deal.before, deal.points
    after, rule, swap, gainer, gain = next_state(before, points)
    old_levels, new_levels = _levels(before), _levels(after)
    was_on, was_off = NOTES[rule]
    scores, breakdown = {}, {}
    for side, seats in SIDES.items():
        value = gain if side == gainer else 0
        template = was_on if side == before.declarer else was_off
        note = template.format(p=points, old=rank(old_levels[side]), new=rank(new_levels[side]))
        for seat in seats:
            scores[seat] = value
            breakdown[seat] = [{"rule": rule, "value": value, "note": note}]
    return {
        "game": GAME_ID,
        "scores": {seat: scores[seat] for seat in SEATS},
        "breakdown": {seat: breakdown[seat] for seat in SEATS},
        "state": after.as_json(),
        "ranks": {"NS": rank(after.ns), "EW": rank(after.ew)},
        "swap": swap,
    }


def score_deal(raw, rules=None):
    """Deal JSON in, result JSON out; raises `DealError` on an invalid deal. `rules` (an
    event's) give a first deal's start level instead of the deal's own option."""
    return score_valid_deal(validate_deal(raw, rules))
