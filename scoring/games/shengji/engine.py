"""Scoring a 升级 deal (law §2.3): the next state, each seat's level gain and its breakdown.

Each seat scores its side's level gain (S6); its breakdown is one entry, the rule of S2–S5
that applied with the seat's gain, so it adds up to the seat's score by construction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.refusals import pgettext

from .cards import BANDS, KING, OTHER_SIDE, POINTS_STEP, POINTS_TOTAL, band, rank
from .deal import GAME_ID, State, quick_read, validate_deal
from .options import START_LEVEL

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.shengji.deal import ValidDeal
    from scoring.games.shengji.options import Rules

# The closed vocabulary of the notes below (numbers and ranks aside), for the site to render
# them in another language word by word (`messages.term_text`).
BREAKDOWN_TERMS = (
    pgettext("breakdown", "台下得"),
    pgettext("breakdown", "分，不足50："),
    pgettext("breakdown", "分，在50与100之间："),
    pgettext("breakdown", "分，在100与120之间："),
    pgettext("breakdown", "分，达到120："),
    pgettext("breakdown", "台上连升两级，"),
    pgettext("breakdown", "台上升一级，"),
    pgettext("breakdown", "仍在台下，不升级"),
    pgettext("breakdown", "下台，不升级"),
    pgettext("breakdown", "上台，不升级，打"),
    pgettext("breakdown", "上台并升一级，"),
    pgettext("breakdown", "，过K"),
)

# Added to the note of a side whose gain takes it past K (D-S4: its rank starts again at A).
PAST_KING = "，过K"

# What each band means for the side that was on 台上 (first) and the side that was 台下,
# in the note's words; {p} the points, {old} → {new} the rank.
NOTES = {
    "S2": ("台下得{p}分，不足50：台上连升两级，{old}→{new}", "台下得{p}分，不足50：仍在台下，不升级"),
    "S3": ("台下得{p}分，在50与100之间：台上升一级，{old}→{new}", "台下得{p}分，在50与100之间：仍在台下，不升级"),
    "S4": ("台下得{p}分，在100与120之间：下台，不升级", "台下得{p}分，在100与120之间：上台，不升级，打{new}"),
    "S5": ("台下得{p}分，达到120：下台，不升级", "台下得{p}分，达到120：上台并升一级，{old}→{new}"),
}
assert set(NOTES) == {rule for _, rule, _, _ in BANDS}

# The band of every valid number of points (a multiple of 5), by points // 5.
BAND_OF = tuple(band(points) for points in range(0, POINTS_TOTAL + 1, POINTS_STEP))


def next_state(before: State, points: int) -> tuple[Any, ...]:
    """`(state after, rule, swap, gained side, gain)` of a deal from `before` (S2–S5)."""
    rule, swap, gain = BAND_OF[points // POINTS_STEP]
    declarer = OTHER_SIDE[before.declarer] if swap else before.declarer
    if declarer == "NS":
        return State(declarer, before.ns + gain, before.ew), rule, swap, declarer, gain
    return State(declarer, before.ns, before.ew + gain), rule, swap, declarer, gain


def _work_out(before: State, points: int) -> tuple[Any, ...]:
    """What a deal from `before` gives, but the absolute levels: (declarer after, NS's and
    EW's gains, swap, rule, NS's and EW's notes, NS's and EW's ranks after)."""
    after, rule, swap, gainer, gain = next_state(before, points)
    was_on, was_off = NOTES[rule]
    notes = {}
    for side, old, new in (("NS", before.ns, after.ns), ("EW", before.ew, after.ew)):
        template = was_on if side == before.declarer else was_off
        notes[side] = template.format(p=points, old=rank(old), new=rank(new))
        if new > old and (old - 1) % KING + (new - old) >= KING:  # past K: "K→2" is not back to 2
            notes[side] += PAST_KING
    gains = (gain if gainer == "NS" else 0, gain if gainer == "EW" else 0)
    return (after.declarer, *gains, swap, rule, notes["NS"], notes["EW"], rank(after.ns), rank(after.ew))


# Outcomes by (declarer, NS's rank, EW's rank, points): at most 2 × 13 × 13 × 41, filled as met.
_OUTCOMES = {}


def result(declarer: str, ns: int, ew: int, points: int) -> dict[str, Any]:
    """The result of a deal from `declarer` on 台上 at levels `ns`, `ew` in which the 台下 side
    captured `points`: scores, breakdown, state after, ranks and swap (§2.3)."""
    key = (declarer, (ns - 1) % 13, (ew - 1) % 13, points)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        outcome = _OUTCOMES[key] = _work_out(State(declarer, ns, ew), points)
    declarer, ns_gain, ew_gain, swap, rule, ns_note, ew_note, ns_rank, ew_rank = outcome
    return {
        "game": GAME_ID,
        "scores": {"N": ns_gain, "E": ew_gain, "S": ns_gain, "W": ew_gain},
        "breakdown": {
            "N": [{"rule": rule, "value": ns_gain, "note": ns_note}],
            "E": [{"rule": rule, "value": ew_gain, "note": ew_note}],
            "S": [{"rule": rule, "value": ns_gain, "note": ns_note}],
            "W": [{"rule": rule, "value": ew_gain, "note": ew_note}],
        },
        "state": {"declarer": declarer, "levels": {"NS": ns + ns_gain, "EW": ew + ew_gain}},
        "ranks": {"NS": ns_rank, "EW": ew_rank},
        "swap": swap,
    }


def score_valid_deal(deal: ValidDeal) -> dict[str, Any]:
    """The result of a `ValidDeal`."""
    before = deal.before
    return result(before.declarer, before.ns, before.ew, deal.points)


def score_deal(raw: dict[str, Any], rules: Rules | None = None) -> dict[str, Any] | None:
    """Deal JSON in, result JSON out; raises `DealError` on an invalid deal. `rules` (an
    event's) give a first deal's start level instead of the deal's own option."""
    read = quick_read(raw, START_LEVEL.default if rules is None else rules.start_level)
    if read is None:
        return score_valid_deal(validate_deal(raw, rules))
    return result(*read)
