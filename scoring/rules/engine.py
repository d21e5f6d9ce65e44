"""Scoring a valid deal: seat scores with a breakdown, normalisation, penalties.

Follows `shared/rules/README.md` §4–§6. Each breakdown entry is
`{"rule", "points", "text"}`; a seat's entries add up to its score, so the
breakdown is an explanation that can be checked, not a second opinion.
"""

from .cards import (
    EXPOSABLE,
    GOAT,
    HEART_ACE,
    HEART_VALUES,
    HEARTS,
    PIG,
    POINT_CARD_SET,
    SEATS,
    SIDES,
    TRANSFORMER,
)
from .deal import EXPOSURES, validate_deal
from .rulesets import RULESETS

SELF_CAPTURE_TEXT = " ×2 自得"


def _signed(n):
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _exposures(deal, rules):
    """E(X) per exposable card and the words that explain it."""
    exposed = dict(deal.exposed)
    if rules.auto_expose_fourth and len(exposed) == 3:
        (fourth,) = (card for card in EXPOSABLE if card not in exposed)
        exposed[fourth] = "shown"
    factors = {}
    for card in EXPOSABLE:
        kind = exposed.get(card)
        if kind is None:
            factors[card] = (1, "")
        elif kind == "first" and rules.first_exposure_recognised:
            factors[card] = (4, " ×4 首明")
        else:
            factors[card] = (2, " ×2 明")
    return factors, exposed


def score_seat(deal, rules, seat, exposure):
    """The 基础分 of one seat before normalisation and penalties, with its breakdown."""
    cards = deal.captured[seat]
    entries = []
    if not cards:
        return 0, entries
    grand_slam = len(cards) == len(POINT_CARD_SET)

    if grand_slam and rules.grand_slam_fixed_unexposed is not None and not deal.exposed:
        value = rules.grand_slam_fixed_unexposed
        return value, [{"rule": "grand_slam", "points": value, "text": f"满贯 {_signed(value)}"}]

    # 自得: Z(X) = 2 for the cards this seat both held and captured.
    self_captured = (
        {card for card, holder in deal.holders.items() if holder == seat and card in cards}
        if rules.self_capture_doubles
        else ()
    )
    subtotal = 0
    base = 0
    heart_count = 0
    for card in cards:
        value = HEART_VALUES.get(card)
        if value is not None:
            base += value
            heart_count += 1
    all_hearts = heart_count == len(HEARTS)
    if heart_count:
        e_heart, e_heart_text = exposure[HEART_ACE]
        ace_extra = HEART_VALUES[HEART_ACE] if HEART_ACE in self_captured else 0
        if all_hearts:
            if rules.all_hearts_fixed is None:
                points = -(base + ace_extra) * e_heart
                text = f"全红 {_signed(-base)}{e_heart_text}"
                if ace_extra:
                    text += f"（♥A{SELF_CAPTURE_TEXT}）"
            else:
                points = rules.all_hearts_fixed * e_heart
                text = f"全红 {_signed(rules.all_hearts_fixed)}{e_heart_text}"
            rule = "all_hearts"
        else:
            points = (base + ace_extra) * e_heart
            text = f"红桃 {_signed(base)}{e_heart_text}"
            if ace_extra:
                text += f"（♥A{SELF_CAPTURE_TEXT} {_signed(ace_extra * e_heart)}）"
            rule = "hearts"
        entries.append({"rule": rule, "points": points, "text": text})
        subtotal += points

    if PIG in cards:
        e, e_text = exposure[PIG]
        z, z_text = (2, SELF_CAPTURE_TEXT) if PIG in self_captured else (1, "")
        positive = grand_slam or (all_hearts and rules.pig_positive_with == "all_hearts")
        value = 100 if positive else -100
        points = value * e * z
        label = "猪（变正）" if positive else "猪"
        entries.append({"rule": "pig", "points": points, "text": f"{label} {_signed(value)}{e_text}{z_text}"})
        subtotal += points

    if GOAT in cards:
        e, e_text = exposure[GOAT]
        z, z_text = (2, SELF_CAPTURE_TEXT) if GOAT in self_captured else (1, "")
        points = rules.goat_value * e * z
        entries.append({"rule": "goat", "points": points, "text": f"羊 {_signed(rules.goat_value)}{e_text}{z_text}"})
        subtotal += points

    if TRANSFORMER in cards:
        e, e_text = exposure[TRANSFORMER]
        z, z_text = (2, SELF_CAPTURE_TEXT) if TRANSFORMER in self_captured else (1, "")
        if len(cards) == 1:
            points = 50 * e * z
            entries.append({"rule": "transformer", "points": points, "text": f"变压器单得 +50{e_text}{z_text}"})
            subtotal = points
        else:
            multiplier = 2 * e * z
            points = subtotal * (multiplier - 1)
            why = f"（×2{e_text}{z_text}）" if multiplier > 2 else ""
            entries.append({"rule": "transformer", "points": points, "text": f"变压器 ×{multiplier}{why}"})
            subtotal += points
    if grand_slam:
        entries.insert(0, {"rule": "grand_slam", "points": 0, "text": "满贯"})
    return subtotal, entries


def _divide_rounding_half_away(numerator, denominator):
    """numerator / denominator (denominator > 0) rounded half away from zero (README §6),
    unlike Python's banker's round; in integers, which is exact and several times
    quicker than Fraction."""
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


def normalise(raw, rules):
    """Apply the rule set's normalisation (README §6) to the four raw seat scores."""
    if rules.normalisation is None:
        return raw
    scale = rules.normalisation_scale
    if rules.normalisation == "zero_sum":
        # (raw − (total − raw) / 3) × scale = (4·raw − total) × scale / 3
        total = sum(raw.values())
        return {seat: _divide_rounding_half_away((4 * raw[seat] - total) * scale, 3) for seat in SEATS}
    if rules.normalisation == "partnership":
        side_total = {side: raw[a] + raw[b] for side, (a, b) in SIDES.items()}
        result = {}
        for side, (a, b) in SIDES.items():
            other = side_total["EW" if side == "NS" else "NS"]
            result[a] = result[b] = _divide_rounding_half_away((side_total[side] - other) * scale, 2)
        return result
    raise ValueError(f"unknown normalisation {rules.normalisation!r}")


def score_valid_deal(deal, rules=None):
    """Score a `Deal` (already validated). `rules` overrides the deal's named rule set."""
    rules = rules or RULESETS[deal.ruleset]
    exposure, _ = _exposures(deal, rules)
    raw = {}
    breakdown = {}
    for seat in SEATS:
        raw[seat], breakdown[seat] = score_seat(deal, rules, seat, exposure)
    scores = normalise(raw, rules)
    for seat in SEATS:
        if scores[seat] != raw[seat]:
            delta = scores[seat] - raw[seat]
            breakdown[seat].append({"rule": "normalisation", "points": delta, "text": f"归一化 {_signed(delta)}"})
        penalty = deal.penalties.get(seat)
        if penalty:
            scores[seat] += penalty
            breakdown[seat].append({"rule": "penalty", "points": penalty, "text": f"罚分 {_signed(penalty)}"})
    return {
        "ruleset": rules.name,
        "scores": scores,
        "sides": {side: scores[a] + scores[b] for side, (a, b) in SIDES.items()},
        "breakdown": breakdown,
    }


def score_deal(raw, default_ruleset="huapai", rules=None):
    """Deal JSON in, result JSON out (deal-json.md); raises `DealError` on an invalid deal."""
    return score_valid_deal(validate_deal(raw, default_ruleset), rules)


__all__ = ["EXPOSURES", "normalise", "score_deal", "score_seat", "score_valid_deal"]
