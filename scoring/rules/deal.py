"""Reading a deal: spelling, structure and the five acceptance rules of README §3.

`read_deal` returns every problem it finds (the entry page lists them all at
once); `validate_deal` raises the first, for callers that only need yes or no.
"""

from dataclasses import dataclass, field

from .cards import (
    CARD_BY_SPELLING,
    EXPOSABLE,
    POINT_CARD_SET,
    POINT_CARDS,
    SEAT_NAMES,
    SEATS,
    card_label,
    parse_card,
)
from .errors import DealError
from .rulesets import DEFAULT_RULESET, RULESETS

EXPOSURES = {"shown": "明", "first": "首明"}
SEAT_SET = frozenset(SEATS)
EXPOSABLE_SET = frozenset(EXPOSABLE)


@dataclass(slots=True)
class Deal:
    """A valid deal in canonical form: only point cards, canonical codes."""

    ruleset: str
    captured: dict  # seat -> set of point cards
    holders: dict = field(default_factory=dict)  # exposable card -> seat
    exposed: dict = field(default_factory=dict)  # exposable card -> "shown" | "first"
    penalties: dict = field(default_factory=dict)  # seat -> int (<= 0)

    def as_json(self):
        return {
            "ruleset": self.ruleset,
            "captured": {seat: [card for card in POINT_CARDS if card in self.captured[seat]] for seat in SEATS},
            "holders": {card: self.holders[card] for card in EXPOSABLE if card in self.holders},
            "exposed": {card: self.exposed[card] for card in EXPOSABLE if card in self.exposed},
            "penalties": {seat: self.penalties[seat] for seat in SEATS if seat in self.penalties},
        }


def _seat_label(seat):
    return f"{SEAT_NAMES[seat]}({seat})"


def _mapping(raw, key, problems):
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append(DealError("bad_deal", f"“{key}” 必须是对象 / “{key}” must be an object"))
        return {}
    return value


def _seat(value, problems, where):
    if value in SEAT_SET:
        return value
    if isinstance(value, str) and value.strip().upper() in SEAT_NAMES:
        return value.strip().upper()
    problems.append(DealError("unknown_seat", f"{where}：座位 {value!r} 无效 / {where}: unknown seat {value!r}"))
    return None


def _exposable(code, problems, where):
    if code in EXPOSABLE_SET:
        return code
    card = parse_card(code)
    if card is None:
        problems.append(DealError("unknown_card", f"{where}：牌 {code!r} 无效 / {where}: unknown card {code!r}"))
        return None
    if card not in EXPOSABLE:
        problems.append(
            DealError(
                "not_exposable",
                f"{card_label(card)} 不能亮牌，只有 ♠Q ♦J ♣10 ♥A 可以 / {card} is not exposable (only SQ DJ C10 HA)",
            )
        )
        return None
    return card


def read_deal(raw, default_ruleset=DEFAULT_RULESET):
    """Return `(deal, problems)`: a `Deal` when `problems` is empty, else None."""
    if not isinstance(raw, dict):
        return None, [DealError("bad_deal", "牌局必须是 JSON 对象 / a deal must be a JSON object")]
    problems = []

    ruleset = raw.get("ruleset") or default_ruleset
    if ruleset not in RULESETS:
        problems.append(DealError("unknown_ruleset", f"未知规则 {ruleset!r} / unknown rule set {ruleset!r}"))

    captured_raw = raw.get("captured")
    captured = {seat: set() for seat in SEATS}
    taker = {}
    if not isinstance(captured_raw, dict):
        problems.append(DealError("bad_deal", "缺少“captured”（四个座位的得分牌）/ “captured” is required"))
        captured_raw = {}
    for seat_code, cards in captured_raw.items():
        seat = _seat(seat_code, problems, "captured")
        if seat is None:
            continue
        if not isinstance(cards, list):
            problems.append(
                DealError(
                    "bad_deal",
                    f"{_seat_label(seat)} 的得分牌必须是列表 / captured {seat} must be a list",
                )
            )
            continue
        seat_cards = captured[seat]
        for code in cards:
            # Inlined fast path of parse_card: this loop runs 16 times a deal.
            card = CARD_BY_SPELLING.get(code) if type(code) is str else None
            if card is None:
                card = parse_card(code)
            if card is None:
                problems.append(
                    DealError(
                        "unknown_card",
                        f"{_seat_label(seat)}：牌 {code!r} 无效 / {seat}: unknown card {code!r}",
                    )
                )
            elif card in POINT_CARD_SET:
                if card in taker:
                    problems.append(
                        DealError(
                            "duplicate_card",
                            f"{card_label(card)} 记了两次（{_seat_label(taker[card])}、"
                            f"{_seat_label(seat)}）/ {card} recorded twice ({taker[card]}, {seat})",
                        )
                    )
                else:
                    taker[card] = seat
                    seat_cards.add(card)
    if isinstance(raw.get("captured"), dict) and captured_raw.keys() != SEAT_SET:
        seats_given = {str(code).strip().upper() for code in captured_raw}
        for seat in SEATS:
            if seat not in seats_given:
                problems.append(
                    DealError(
                        "missing_seat",
                        f"captured 缺少座位 {_seat_label(seat)} / captured has no seat {seat}",
                    )
                )
    if captured_raw and len(taker) != len(POINT_CARDS):
        for card in POINT_CARDS:
            if card not in taker:
                problems.append(
                    DealError("missing_card", f"{card_label(card)} 未分配 / {card} is not captured by any seat")
                )

    holders = {}
    for code, seat_code in _mapping(raw, "holders", problems).items():
        card = _exposable(code, problems, "holders")
        seat = _seat(seat_code, problems, f"holders {code}")
        if card and seat:
            holders[card] = seat

    exposed = {}
    for code, kind in _mapping(raw, "exposed", problems).items():
        card = _exposable(code, problems, "exposed")
        if card is None:
            continue
        if kind not in EXPOSURES:
            problems.append(
                DealError(
                    "bad_exposure",
                    f"{card_label(card)} 的亮牌方式 {kind!r} 无效（shown 明 / first 首明）"
                    f' / {card}: exposure must be "shown" or "first"',
                )
            )
            continue
        exposed[card] = kind
        if card not in holders:
            problems.append(
                DealError(
                    "exposure_without_holder",
                    f"{card_label(card)} 已亮牌但未记录持牌人 / {card} is exposed but has no holder",
                )
            )

    first_by_seat = {}
    for card, kind in exposed.items():
        if kind == "first" and card in holders:
            seat = holders[card]
            if seat in first_by_seat:
                problems.append(
                    DealError(
                        "two_first_exposures",
                        f"{_seat_label(seat)} 不能首明两张牌（{card_label(first_by_seat[seat])}、"
                        f"{card_label(card)}）/ {seat} has two first exposures",
                    )
                )
            first_by_seat[seat] = card

    penalties = {}
    for seat_code, points in _mapping(raw, "penalties", problems).items():
        seat = _seat(seat_code, problems, "penalties")
        if seat is None:
            continue
        if isinstance(points, bool) or not isinstance(points, int) or points > 0:
            problems.append(
                DealError(
                    "bad_penalty",
                    f"{_seat_label(seat)} 的罚分必须是负整数 / penalty for {seat} must be a negative integer",
                )
            )
            continue
        if points:
            penalties[seat] = points

    if problems:
        return None, problems
    return (
        Deal(
            ruleset=ruleset,
            captured=captured,
            holders=holders,
            exposed=exposed,
            penalties=penalties,
        ),
        [],
    )


def validate_deal(raw, default_ruleset=DEFAULT_RULESET):
    deal, problems = read_deal(raw, default_ruleset)
    if problems:
        raise problems[0]
    return deal
