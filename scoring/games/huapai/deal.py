"""Reading a deal: spelling, structure and the acceptance rules of README §3 and §8.

`read_deal` returns every problem it finds (the entry page lists them all at
once); `validate_deal` raises the first, for callers that only need yes or no.
Any JSON value of the wrong type is a problem with a code, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING

from scoring.games.refusals import DealError, Text, _, listed

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
from .rulesets import DEFAULT_RULESET, RULESETS, RuleSet, read_options

if TYPE_CHECKING:
    from typing import Any

EXPOSURES = {"shown": "明", "first": "首明"}
EXPOSURE_SET = frozenset(EXPOSURES)
SEAT_SET = frozenset(SEATS)
EXPOSABLE_SET = frozenset(EXPOSABLE)
# deal-json.md: a penalty is a negative integer no lower than this.
PENALTY_MIN = -100_000


@dataclass(slots=True)
class ValidDeal:
    """A valid deal in canonical form: only point cards, canonical codes.

    `captured[seat]` counts the copies of each point card the seat took (always 1
    with one deck); `holders[card]` and `exposed[card]` are tuples with one entry
    per copy: the seat that held (and, for the first `len(exposed[card])` entries,
    exposed) it, and "shown" (明) or "first" (首明).
    """

    rules: RuleSet
    captured: dict  # seat -> {card: copies}
    holders: dict = field(default_factory=dict)  # exposable card -> (seat, …)
    exposed: dict = field(default_factory=dict)  # exposable card -> ("shown" | "first", …)
    penalties: dict = field(default_factory=dict)  # seat -> int (< 0)

    @property
    def ruleset(self) -> Any:
        return self.rules.name

    def as_json(self) -> dict[str, dict[str, Any] | str]:
        """deal-json.md form: one deck writes one seat / one exposure per card, two decks lists."""
        if self.rules.decks == 1:
            captured = {seat: [card for card in POINT_CARDS if card in self.captured[seat]] for seat in SEATS}
            holders = {card: self.holders[card][0] for card in EXPOSABLE if card in self.holders}
            exposed = {card: self.exposed[card][0] for card in EXPOSABLE if card in self.exposed}
        else:
            captured = {
                seat: [card for card in POINT_CARDS for _ in range(self.captured[seat].get(card, 0))] for seat in SEATS
            }
            holders = {card: list(self.holders[card]) for card in EXPOSABLE if card in self.holders}
            exposed = {card: list(self.exposed[card]) for card in EXPOSABLE if card in self.exposed}
        return {
            "ruleset": self.rules.name,
            "captured": captured,
            "holders": holders,
            "exposed": exposed,
            "penalties": {seat: self.penalties[seat] for seat in SEATS if seat in self.penalties},
        }


def from_canonical(canonical: dict[str, dict[str, Any] | str], rules: RuleSet) -> ValidDeal:
    """The `ValidDeal` whose `as_json` is `canonical`, built without reading it again: for a
    deal the engine has already read and written in canonical form (cards in canonical codes,
    one item per copy), and changed only in ways that keep it valid (players' statistics score
    each deal again without one seat's exposures). Anything else goes through `read_deal`."""
    captured = {}
    for seat in SEATS:
        counts = {}
        for card in canonical["captured"][seat]:
            counts[card] = counts.get(card, 0) + 1
        captured[seat] = counts
    return ValidDeal(
        rules=rules,
        captured=captured,
        holders={
            card: tuple(seats) if type(seats) is list else (seats,) for card, seats in canonical["holders"].items()
        },
        exposed={
            card: tuple(kinds) if type(kinds) is list else (kinds,) for card, kinds in canonical["exposed"].items()
        },
        penalties={seat: points for seat, points in canonical["penalties"].items() if points},
    )


def _seat_label(seat: str) -> Text:
    """A seat named in a message: 北(N), or North(N) in English."""
    return Text(_("{name}({seat})"), name=Text(SEAT_NAMES[seat]), seat=seat)


def _all_in(allowed: frozenset[str], values: list[list[bool | None] | str]) -> bool:
    """Every item of `values` is one of the strings in `allowed` (unhashable items: no)."""
    try:
        return allowed.issuperset(values)
    except TypeError:
        return False


def _mapping(raw: dict[str, Any], key: str, problems: list[DealError]) -> dict[str, Any]:
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append(DealError("bad_deal", _("“{key}” 必须是对象"), key=key))
        return {}
    return value


def _seat(value: Any, problems: list[DealError], where: str) -> str | None:
    """A seat code: N E S W, any case, surrounding spaces ignored (documented in docs/rules.md)."""
    if type(value) is str:
        if value in SEAT_SET:
            return value
        seat = value.strip().upper()
        if seat in SEAT_SET:
            return seat
    problems.append(DealError("unknown_seat", _("{where}：座位 {value!r:.40} 无效"), where=where, value=value))
    return None


def _exposable(code: str, problems: list[DealError], where: str) -> str | None:
    card = parse_card(code)
    if card is None:
        problems.append(DealError("unknown_card", _("{where}：牌 {value!r:.40} 无效"), where=where, value=code))
        return None
    if card not in EXPOSABLE_SET:
        problems.append(
            DealError(
                "not_exposable",
                _("{card} 不能亮牌，只有 ♠Q ♦J ♣10 ♥A 可以"),
                card=card_label(card),
            )
        )
        return None
    return card


def _copies(value: Any, card: str, decks: int, problems: list[DealError], where: str) -> list[Any] | None:
    """A per-card value: one item, or (README §8) a list with one item per copy."""
    if isinstance(value, list):
        if len(value) > decks:
            problems.append(
                DealError(
                    "bad_deal",
                    _("{where} {card}：最多 {decks} 张"),
                    where=where,
                    card=card_label(card),
                    decks=decks,
                )
            )
            return None
        return value
    return [value]


def _exposure_kinds(card: str, copies: list[Any], problems: list[Any]) -> tuple[str, ...] | None:
    """The kinds of exposure of a card's copies, or None with the first kind that is not one."""
    for kind in copies:
        if type(kind) is not str or kind not in EXPOSURES:
            problems.append(
                DealError(
                    "bad_exposure",
                    _("{card} 的亮牌方式 {kind!r:.40} 无效（shown 明 / first 首明）"),
                    card=card_label(card),
                    kind=kind,
                )
            )
            return None
    return tuple(copies)


def _rules(raw: dict[str, Any], default_ruleset: str, problems: list[Any]) -> RuleSet:
    name = raw.get("ruleset")
    if name is None:
        name = default_ruleset
    if type(name) is not str or name not in RULESETS:
        problems.append(
            DealError(
                "unknown_ruleset",
                _("未知规则 {name!r:.40}（可用：{known}）"),
                name=name,
                known=listed(list(RULESETS)),
            )
        )
        return RULESETS[DEFAULT_RULESET]
    fields, option_problems = read_options(raw.get("options"))
    problems.extend(option_problems)
    rules = RULESETS[name]
    return rules.with_options(**fields) if fields else rules


def read_deal(
    raw: dict[str, Any], default_ruleset: str = DEFAULT_RULESET, rules: RuleSet | None = None
) -> tuple[ValidDeal | None, list[Any]]:
    """Return `(deal, problems)`: a `ValidDeal` when `problems` is empty, else None.

    `rules` (the event's) overrides the deal's own `ruleset` and `options`.
    """
    if not isinstance(raw, dict):
        return None, [DealError("bad_deal", _("牌局必须是 JSON 对象"))]
    problems = []
    if rules is None:
        rules = _rules(raw, default_ruleset, problems)
    decks = rules.decks

    captured_raw = raw.get("captured")
    captured = _captured_as_written(captured_raw, decks)
    if captured is None:
        captured = _captured(raw, captured_raw, decks, problems)

    holders = {}
    for code, value in _mapping(raw, "holders", problems).items():
        # The usual entries, a canonical card and its seats, without the general path.
        if code in EXPOSABLE_SET:
            if type(value) is str and value in SEAT_SET:
                holders[code] = (value,)
                continue
            if type(value) is list and 0 < len(value) <= decks and _all_in(SEAT_SET, value):
                holders[code] = tuple(value)
                continue
        card = _exposable(code, problems, "holders")
        copies = _copies(value, card or code, decks, problems, "holders") if card else None
        if copies is None:
            continue
        seats = tuple(_seat(item, problems, f"holders {card}") for item in copies)
        if None not in seats and seats:
            holders[card] = seats

    exposed = {}
    for code, value in _mapping(raw, "exposed", problems).items():
        if code in EXPOSABLE_SET and type(value) is str and value in EXPOSURES:
            card, kinds = code, (value,)  # the usual entries, without the general path
        elif code in EXPOSABLE_SET and type(value) is list and 0 < len(value) <= decks and _all_in(EXPOSURE_SET, value):
            card, kinds = code, tuple(value)
        else:
            card = _exposable(code, problems, "exposed")
            copies = _copies(value, card or code, decks, problems, "exposed") if card else None
            kinds = _exposure_kinds(card, copies, problems) if copies is not None else None
            if not kinds:
                continue
        exposed[card] = kinds
        if len(holders.get(card, ())) < len(kinds):
            problems.append(
                DealError(
                    "exposure_without_holder",
                    _("{card} 已亮牌但未记录持牌人"),
                    card=card_label(card),
                )
            )

    first_by_seat = {}
    for card, kinds in exposed.items():
        if "first" not in kinds:
            continue
        for seat, kind in zip(holders.get(card, ()), kinds, strict=False):
            if kind != "first":
                continue
            if seat in first_by_seat:
                problems.append(
                    DealError(
                        "two_first_exposures",
                        _("{seat} 不能首明两张牌（{first}、{second}）"),
                        seat=_seat_label(seat),
                        first=card_label(first_by_seat[seat]),
                        second=card_label(card),
                    )
                )
            first_by_seat[seat] = card

    penalties = {}
    for seat_code, points in _mapping(raw, "penalties", problems).items():
        seat = _seat(seat_code, problems, "penalties")
        if seat is None:
            continue
        if type(points) is not int or points > 0 or points < PENALTY_MIN:
            problems.append(
                DealError(
                    "bad_penalty",
                    _("{seat} 的罚分必须是 {lowest} 到 −1 的整数"),
                    seat=_seat_label(seat),
                    lowest=PENALTY_MIN,
                )
            )
            continue
        if points:
            penalties[seat] = penalties.get(seat, 0) + points

    if problems:
        return None, problems
    return ValidDeal(rules=rules, captured=captured, holders=holders, exposed=exposed, penalties=penalties), []


def _captured_as_written(
    captured_raw: dict[str, dict[str, Any] | list[Any] | None] | list[str] | None, decks: int
) -> dict[str, dict[str, int]] | None:
    """The captured cards of a deal as deal-json.md writes it (the four seats, canonical codes,
    every point card `decks` times and nothing else) counted per seat; None for any other deal,
    which `_captured` reads code by code with its messages. Most deals are written so, and one
    sort in C decides it: reading the captured cards was the largest part of scoring a deal."""
    if type(captured_raw) is not dict or captured_raw.keys() != SEAT_SET:
        return None
    lists = [captured_raw[seat] for seat in SEATS]
    if any(type(cards) is not list for cards in lists):
        return None
    try:
        every = sorted(chain.from_iterable(lists))
    except TypeError:  # a code that is not a string: `_captured` names it
        return None
    if every != _every_point_card(decks):
        return None
    captured = {}
    for seat, cards in zip(SEATS, lists, strict=True):
        counts = captured[seat] = dict.fromkeys(cards, 1)
        if len(counts) < len(cards):  # both copies of a card (two decks): counted again
            counts.update(dict.fromkeys(cards, 0))
            for card in cards:
                counts[card] += 1
    return captured


@cache
def _every_point_card(decks: int) -> list[str]:
    return sorted(POINT_CARDS * decks)


def _captured(
    raw: dict[str, Any],
    captured_raw: dict[str, dict[str, Any] | list[Any] | None] | list[str] | None,
    decks: int,
    problems: list[DealError],
) -> dict[str, dict[str, int]]:
    """Seat → {card: copies} of the captured cards, code by code, each problem in words."""
    captured = {seat: {} for seat in SEATS}
    first_taker = {}  # card -> the seat that took its first copy
    more_takers = {}  # card -> [seat, …] for further copies (two decks, or a duplicate)
    seats_given = set()
    if not isinstance(captured_raw, dict):
        problems.append(DealError("bad_deal", _("缺少“captured”（四个座位的得分牌）")))
        captured_raw = {}
    for seat_code, cards in captured_raw.items():
        seat = _seat(seat_code, problems, "captured")
        if seat is None:
            continue
        if seat in seats_given:
            problems.append(DealError("bad_deal", _("座位 {seat} 出现两次"), seat=_seat_label(seat)))
            continue
        seats_given.add(seat)
        if not isinstance(cards, list):
            problems.append(DealError("bad_deal", _("{seat} 的得分牌必须是列表"), seat=_seat_label(seat)))
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
                        _("{where}：牌 {value!r:.40} 无效"),
                        where=_seat_label(seat),
                        value=code,
                    )
                )
            elif card in POINT_CARD_SET:
                seat_cards[card] = seat_cards.get(card, 0) + 1
                if card not in first_taker:
                    first_taker[card] = seat
                elif card in more_takers:
                    more_takers[card].append(seat)
                else:
                    more_takers[card] = [seat]
    if captured_raw and len(seats_given) < len(SEATS) and isinstance(raw.get("captured"), dict):
        for seat in SEATS:
            if seat not in seats_given:
                problems.append(DealError("missing_seat", _("captured 缺少座位 {seat}"), seat=_seat_label(seat)))
    _check_copies(first_taker, more_takers, decks, bool(captured_raw), problems)
    return captured


def _check_copies(
    first_taker: dict[str, str],
    more_takers: dict[str, list[str]],
    decks: int,
    anything_captured: bool,
    problems: list[DealError],
) -> None:
    """Every point card exactly `decks` times across the seats (README §3 rule 1, §8)."""
    complete = len(first_taker) == len(POINT_CARDS) and len(more_takers) == (decks - 1) * len(POINT_CARDS)
    if complete and (decks == 1 or all(len(seats) == decks - 1 for seats in more_takers.values())):
        return  # the common case, decided without building a message
    takers = {card: [seat, *more_takers.get(card, ())] for card, seat in first_taker.items()}
    for card in POINT_CARDS:
        seats = takers.get(card, ())
        if len(seats) > decks:
            if decks == 1:
                template = _("{card} 记了 {times} 次（{seats}）")
            else:
                template = _("{card} 记了 {times} 次（{seats}），应为 {decks} 次")
            problems.append(
                DealError(
                    "duplicate_card",
                    template,
                    card=card_label(card),
                    times=len(seats),
                    seats=listed([_seat_label(seat) for seat in seats]),
                    decks=decks,
                )
            )
    if not anything_captured:
        return
    for card in POINT_CARDS:
        seats = takers.get(card, ())
        if not seats:
            problems.append(DealError("missing_card", _("{card} 未分配"), card=card_label(card)))
        elif len(seats) < decks:
            problems.append(
                DealError(
                    "missing_card",
                    _("{card} 只记了 {times} 次，应为 {decks} 次"),
                    card=card_label(card),
                    times=len(seats),
                    decks=decks,
                )
            )


def validate_deal(raw: dict[str, Any], default_ruleset: str = DEFAULT_RULESET, rules: Any = None) -> ValidDeal:
    deal, problems = read_deal(raw, default_ruleset, rules)
    if problems:
        raise problems[0]
    return deal
