"""Scoring a valid deal: seat scores with a breakdown, normalisation, penalties.

Follows `shared/rules/README.md` §4–§6. Each breakdown entry is
`{"rule", "points", "text"}`; a seat's entries add up to its score, so the
breakdown is an explanation that can be checked, not a second opinion.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from scoring.games.refusals import pgettext

from .cards import (
    EXPOSABLE,
    GOAT,
    HEART_ACE,
    HEART_VALUES,
    HEARTS,
    PIG,
    POINT_CARDS,
    SEATS,
    SIDES,
    TRANSFORMER,
)
from .deal import EXPOSURES, validate_deal
from .rulesets import DEFAULT_RULESET

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from scoring.games.huapai.deal import ValidDeal
    from scoring.games.huapai.rulesets import RuleSet

# Every word the breakdown texts are made of, for translation (the site renders them in the
# page's language with `scoring.messages.term_text`).
BREAKDOWN_TERMS = (
    pgettext("breakdown", "变压器单得"),
    pgettext("breakdown", "猪（变正）"),
    pgettext("breakdown", "首明+明"),
    pgettext("breakdown", "双首明"),
    pgettext("breakdown", "双明"),
    pgettext("breakdown", "首明"),
    pgettext("breakdown", "明"),
    pgettext("breakdown", "自得"),
    pgettext("breakdown", "张"),
    pgettext("breakdown", "亮牌"),
    pgettext("breakdown", "满贯"),
    pgettext("breakdown", "全红"),
    pgettext("breakdown", "满红"),
    pgettext("breakdown", "红桃"),
    pgettext("breakdown", "猪"),
    pgettext("breakdown", "羊"),
    pgettext("breakdown", "变压器"),
    pgettext("breakdown", "归一化"),
    pgettext("breakdown", "罚分"),
    pgettext("breakdown", "调整分"),
    pgettext("breakdown", "（"),
    pgettext("breakdown", "）"),
    pgettext("breakdown", "；"),
    pgettext("breakdown", "、"),
)

SELF_CAPTURE_TEXT = " ×2 自得"
# Read once here rather than per seat: a deck's point cards and hearts, and ♥A's value.
POINT_CARDS_A_DECK = len(POINT_CARDS)
HEARTS_A_DECK = len(HEARTS)
HEART_ACE_VALUE = HEART_VALUES[HEART_ACE]
TWO_COPIES_TEXT = " ×2张"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _copy_factor(kind: str, first_exposure_recognised: bool) -> int:
    return 4 if kind == "first" and first_exposure_recognised else 2


@lru_cache(maxsize=256)  # few combinations, asked per seat with a 变压器
def _exposure_text(kinds: tuple[str, ...], first_exposure_recognised: bool) -> tuple[int, str]:
    """How exposed copies multiply, in a referee's words: ×2 明, ×4 首明, ×4 双明, ×8 首明+明."""
    if not kinds:
        return 1, ""
    labels = ["首明" if _copy_factor(kind, first_exposure_recognised) == 4 else "明" for kind in kinds]
    factor = 1
    for kind in kinds:
        factor *= _copy_factor(kind, first_exposure_recognised)
    words = labels[0] if len(labels) == 1 else "双" + labels[0] if labels[0] == labels[1] else "首明+明"
    return factor, f" ×{factor} {words}"


def _exposures(deal: ValidDeal, rules: RuleSet) -> Mapping:
    """Per exposable card: E(X) with its words, and the exposed copies (strongest first).

    E(X) is the product over exposed copies of 2 (明) or 4 (首明): 1/2/4 with one
    deck, 2^x with two (README §4, §8). The table depends only on the exposures and
    two rule fields, and a tournament has few distinct exposures, so it is built
    once per combination: building it was a third of scoring a deal. Read-only.
    """
    return _exposure_table(rules.first_exposure_recognised, rules.auto_expose_fourth, tuple(deal.exposed.items()))


@lru_cache(maxsize=4096)
def _exposure_table(
    first_exposure_recognised: bool, auto_expose_fourth: bool, exposed_items: tuple[tuple[str, Any], ...]
) -> Mapping:
    exposed = dict(exposed_items)
    if auto_expose_fourth and len(exposed) == 3:
        (fourth,) = (card for card in EXPOSABLE if card not in exposed)
        exposed[fourth] = ("shown",)
    factors = {}
    for card in EXPOSABLE:
        kinds = tuple(sorted(exposed.get(card, ()), key=lambda kind: -_copy_factor(kind, first_exposure_recognised)))
        factor, text = _exposure_text(kinds, first_exposure_recognised)
        factors[card] = (factor, text, kinds)
    return MappingProxyType(factors)


def _self_captured_by_seat(deal: ValidDeal) -> dict[str, dict[str, int]]:
    """Seat → {exposable card: copies it both held and captured} (自得), for the seats with any.

    Most holders do not take their own card back, so this asks only what each holder captured
    of the card it held, rather than building every seat's holdings first."""
    found = {}
    captured = deal.captured
    for card, holders in deal.holders.items():
        for seat in holders if len(holders) == 1 else dict.fromkeys(holders):
            took = captured[seat].get(card)
            if took:
                found.setdefault(seat, {})[card] = min(holders.count(seat), took)
    return found


def _count_text(copies: int) -> str:
    return TWO_COPIES_TEXT if copies == 2 else ""


def _self_text(copies: int) -> str:
    return SELF_CAPTURE_TEXT if copies == 1 else f" ×{2**copies} 自得" if copies else ""


def score_seat(
    deal: ValidDeal, rules: RuleSet, seat: str, exposure: Mapping, self_captured: dict[str, int] | None = None
) -> tuple[int, list[Any]]:
    """The 基础分 (原始分) of one seat before normalisation and penalties, with its breakdown.

    `self_captured` is what the seat took of the exposable cards it held
    (`_self_captured_by_seat`); None: read from the deal."""
    cards = deal.captured[seat]
    entries = []
    if not cards:
        return 0, entries
    decks = rules.decks
    copies = sum(cards.values()) if decks > 1 else len(cards)
    grand_slam = copies == POINT_CARDS_A_DECK * decks

    if grand_slam and rules.grand_slam_fixed is not None:
        value = rules.grand_slam_fixed
        if rules.grand_slam_exposed == "doubled":
            factor = 1
            for kinds in deal.exposed.values():
                for kind in kinds:
                    factor *= _copy_factor(kind, rules.first_exposure_recognised)
            text = f"满贯 {_signed(value)}" + (f" ×{factor} 亮牌" if factor > 1 else "")
            return value * factor, [{"rule": "grand_slam", "points": value * factor, "text": text}]
        if not deal.exposed:
            return value, [{"rule": "grand_slam", "points": value, "text": f"满贯 {_signed(value)}"}]

    if not rules.self_capture_doubles:
        self_captured = {}
    elif self_captured is None:
        self_captured = _self_captured_by_seat(deal).get(seat, {})
    subtotal = 0
    base = 0
    heart_count = 0
    heart_value = HEART_VALUES.get
    for card, count in cards.items():
        value = heart_value(card)
        if value is not None:
            base += value * count
            heart_count += count
    if heart_count:
        all_hearts = heart_count == HEARTS_A_DECK * decks
        e_heart, e_heart_text, _ = exposure[HEART_ACE]
        ace_self = self_captured.get(HEART_ACE, 0) if self_captured else 0
        ace_extra = HEART_ACE_VALUE * ace_self
        ace_text = f"（♥A{_self_text(ace_self)}" if ace_self else ""
        if all_hearts:
            name = "全红" if decks == 1 else "满红"
            if rules.all_hearts_fixed is None:
                points = -(base + ace_extra) * e_heart
                text = f"{name} {_signed(-base)}{e_heart_text}" + (f"{ace_text}）" if ace_text else "")
            else:
                points = rules.all_hearts_fixed * e_heart
                text = f"{name} {_signed(rules.all_hearts_fixed)}{e_heart_text}"
            rule = "all_hearts"
        else:
            points = (base + ace_extra) * e_heart
            text = f"红桃 {_signed(base)}{e_heart_text}"
            if ace_text:
                text += f"{ace_text} {_signed(ace_extra * e_heart)}）"
            rule = "hearts"
        entries.append({"rule": rule, "points": points, "text": text})
        subtotal += points
    else:
        all_hearts = False

    pigs = cards.get(PIG)
    if pigs:
        e, e_text, _ = exposure[PIG]
        own = self_captured.get(PIG, 0)
        positive = grand_slam or (all_hearts and rules.pig_positive_with == "all_hearts")
        value = 100 if positive else -100
        # Each copy counts once, a self-captured copy twice.
        points = value * e * (pigs + own)
        label = "猪（变正）" if positive else "猪"
        text = f"{label} {_signed(value)}{_count_text(pigs)}{e_text}{_self_text(own)}"
        entries.append({"rule": "pig", "points": points, "text": text})
        subtotal += points

    goats = cards.get(GOAT)
    if goats:
        e, e_text, _ = exposure[GOAT]
        own = self_captured.get(GOAT, 0)
        points = rules.goat_value * e * (goats + own)
        text = f"羊 {_signed(rules.goat_value)}{_count_text(goats)}{e_text}{_self_text(own)}"
        entries.append({"rule": "goat", "points": points, "text": text})
        subtotal += points

    transformers = cards.get(TRANSFORMER)
    if transformers:
        # M = 2^t × (the factors of at most t exposed copies) × 2^自得 (README §4 step 6, §8 rule 4):
        # one deck 2 × E × Z; two decks 2^(t + min(x, t)).
        _, _, kinds = exposure[TRANSFORMER]
        counted, e_text = _exposure_text(kinds[:transformers], rules.first_exposure_recognised)
        own = self_captured.get(TRANSFORMER, 0)
        multiplier = 2**transformers * counted * 2**own
        z_text = _self_text(own)
        if copies == transformers:
            points = 25 * multiplier
            base_text = "+50" if transformers == 1 else f"{transformers}张 +{25 * 2**transformers}"
            entries.append({"rule": "transformer", "points": points, "text": f"变压器单得 {base_text}{e_text}{z_text}"})
            subtotal = points
        else:
            points = subtotal * (multiplier - 1)
            base_text = "×2" if transformers == 1 else f"{transformers}张 ×{2**transformers}"
            why = f"（{base_text}{e_text}{z_text}）" if multiplier != 2 else ""
            entries.append({"rule": "transformer", "points": points, "text": f"变压器 ×{multiplier}{why}"})
            subtotal += points
    if grand_slam:
        entries.insert(0, {"rule": "grand_slam", "points": 0, "text": "满贯"})
    return subtotal, entries


def _divide_rounding_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator (denominator > 0) rounded half away from zero (README §6),
    unlike Python's banker's round; in integers, which is exact and several times
    quicker than Fraction."""
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


def normalise(raw: dict[str, int], rules: RuleSet) -> dict[str, int]:
    """Apply the rule set's normalisation (README §6) to the four raw seat scores.

    Each normalised score is rounded to a whole number before the scale, as the
    source's worked example does (−293 × 12 = −3516, not −3520).
    """
    if not rules.normalises:
        return dict(raw)
    scale = rules.normalisation_scale
    if rules.normalisation == "zero_sum":
        # raw − (total − raw) / 3 = (4·raw − total) / 3
        total = sum(raw.values())
        return {seat: _divide_rounding_half_away(4 * raw[seat] - total, 3) * scale for seat in SEATS}
    if rules.normalisation == "partnership":
        side_total = {side: raw[a] + raw[b] for side, (a, b) in SIDES.items()}
        result = {}
        for side, (a, b) in SIDES.items():
            other = side_total["EW" if side == "NS" else "NS"]
            result[a] = result[b] = _divide_rounding_half_away(side_total[side] - other, 2) * scale
        return result
    raise ValueError(f"unknown normalisation {rules.normalisation!r}")


def score_valid_deal(deal: ValidDeal, rules: RuleSet | None = None) -> dict[str, dict[str, Any] | str]:
    """Score a `ValidDeal`. `rules` overrides the rules the deal was read with."""
    rules = rules or deal.rules
    exposure = _exposures(deal, rules)
    self_captured = _self_captured_by_seat(deal) if deal.holders and rules.self_capture_doubles else {}
    raw = {}
    breakdown = {}
    for seat in SEATS:
        raw[seat], breakdown[seat] = score_seat(deal, rules, seat, exposure, self_captured.get(seat, {}))
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
        "raw": raw,
        "sides": {side: scores[a] + scores[b] for side, (a, b) in SIDES.items()},
        "breakdown": breakdown,
    }


def exposures_read(deal: ValidDeal, rules: RuleSet, seat: str) -> frozenset[Any] | set[str] | None:
    """The exposable cards whose exposure `score_seat` reads for `seat`: ♥A's for any heart, and
    each special card's own; None for a grand slam, which may read the deal's exposures
    themselves (a fixed grand slam doubled per exposed copy counts none exposed by itself)."""
    cards = deal.captured[seat]
    if not cards:
        return frozenset()
    copies = sum(cards.values()) if rules.decks > 1 else len(cards)
    if copies == rules.point_card_copies:
        return None
    read = {card for card in (PIG, GOAT, TRANSFORMER) if card in cards}
    if any(card in HEART_VALUES for card in cards):
        read.add(HEART_ACE)
    return read


def sides_with_other_exposures(
    deal: ValidDeal, rules: RuleSet, raw: dict[str, int], changed: ValidDeal
) -> dict[str, int]:
    """The side scores (`score_valid_deal`'s "sides") of `changed`: `deal` with other exposures,
    the same cards, penalties and cards held by each seat (players' statistics score each deal
    again without one seat's exposures). `raw` is `deal`'s raw seat scores; a seat whose score
    reads no exposure that changed (`exposures_read`) keeps its own, the others are scored again."""
    rules = rules or deal.rules
    before, after = _exposures(deal, rules), _exposures(changed, rules)
    differs = {card for card in EXPOSABLE if before[card] != after[card]}
    self_captured = None
    changed_raw = {}
    for seat in SEATS:
        read = exposures_read(changed, rules, seat)
        if read is None or not read.isdisjoint(differs):
            if self_captured is None:
                self_captured = (
                    _self_captured_by_seat(changed) if changed.holders and rules.self_capture_doubles else {}
                )
            changed_raw[seat] = score_seat(changed, rules, seat, after, self_captured.get(seat, {}))[0]
        else:
            changed_raw[seat] = raw[seat]
    scores = normalise(changed_raw, rules)
    for seat, penalty in changed.penalties.items():
        scores[seat] += penalty
    return {side: scores[a] + scores[b] for side, (a, b) in SIDES.items()}


def score_deal(
    raw: dict[str, Any], default_ruleset: str = DEFAULT_RULESET, rules: Any = None
) -> dict[str, dict[str, Any] | str] | None:
    """Deal JSON in, result JSON out (deal-json.md); raises `DealError` on an invalid deal."""
    return score_valid_deal(validate_deal(raw, default_ruleset, rules))


__all__ = ["EXPOSURES", "normalise", "score_deal", "score_seat", "score_valid_deal"]
