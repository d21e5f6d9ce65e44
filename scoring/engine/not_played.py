"""Boards not played (pure): the event's rule, a not-played board's score, and its words.

A board not played is stored as a deal with no cards and an adjusted score (调整分) — the
engine's own path for a deal scored by an arbiter — marked not played in the deal's `extra`
(`{"not_played": mark}`), so everything that reads deals (match completeness, publication,
standings, travellers, records, exports, archives) sees it. What the adjusted score is depends
on the event's rule:

- `zero` (the default): no score, 0 to every seat — nobody gains or loses by a board nobody
  played, the rule needs no other result and is the same whenever it is applied;
- `average`: the average of that board's side scores at the other tables of the round where it
  was played and confirmed (their penalties left out: those were theirs), each side's average
  rounded to an integer (halves away from zero) and split between its two seats by their own
  averages, so the deal stays consistent (seats add up to sides; a zero-sum event stays
  zero-sum). With no such table it is 0, and the mark says so;
- `adjusted`: the chief arbiter gives the adjusted score on the board's entry page; until then
  the board is a draft that cannot be confirmed.

Penalties ruled on the board are added to whichever score it gets, as on any deal.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from scoring.games.refusals import Text, _

if TYPE_CHECKING:
    from typing import Any

ZERO, AVERAGE, ADJUSTED = "zero", "average", "adjusted"
RULES = (ZERO, AVERAGE, ADJUSTED)
DEFAULT_RULE = ZERO
SEATS = ("N", "E", "S", "W")
SIDES = (("N", "S"), ("E", "W"))
MARK_KEY = "not_played"  # the key in a deal's `extra` (and so in an archive's deal)
REASON_LIMIT = 500


def rule_of(raw: dict[str, int | str] | None) -> str:
    """The event's rule from its stored settings (`event.extra`); anything unknown reads as the default."""
    rule = raw.get(MARK_KEY) if isinstance(raw, dict) else None
    return rule if rule in RULES else DEFAULT_RULE


def rule_problems(raw: dict[str, Any]) -> list[str]:
    """The archive's `event.not_played`, when given, must name a rule."""
    if MARK_KEY in raw and raw[MARK_KEY] not in RULES:
        return [_("event.not_played 必须是 zero、average 或 adjusted")]
    return []


def mark_problems(raw_deal: dict[str, Any]) -> list[str]:
    """An archive deal's `not_played` mark, when given: a rule, a reason of at most 500
    characters, a count of tables for the average. Returns message templates."""
    mark = raw_deal.get(MARK_KEY)
    if mark is None:
        return []
    if not isinstance(mark, dict) or mark.get("rule") not in RULES:
        return [_("not_played 必须是带 rule（zero、average、adjusted）的对象")]
    reason = mark.get("reason", "")
    if not isinstance(reason, str) or len(reason) > REASON_LIMIT:
        return [_("not_played.reason 必须是不超过 500 个字的文字")]
    tables = mark.get("tables", 0)
    if type(tables) is not int or not 0 <= tables <= 100_000:
        return [_("not_played.tables 必须是非负整数")]
    if type(mark.get("awaiting", False)) is not bool or type(mark.get("time", False)) is not bool:
        return [_("not_played 的 awaiting 和 time 必须是 true 或 false")]
    captured = raw_deal.get("captured")
    if raw_deal.get("adjusted") is None or (isinstance(captured, dict) and any(captured.values())):
        return [_("未打的一副没有分牌，须有 adjusted（调整分）")]
    return []


def zero_scores() -> dict[str, int]:
    return dict.fromkeys(SEATS, 0)


def _round_half_away(value: Fraction) -> int:
    """A Fraction rounded to an integer, halves away from zero (so −x rounds to −(x rounded))."""
    sign = -1 if value < 0 else 1
    return sign * math.floor(abs(value) + Fraction(1, 2))


def average_scores(rows: list[dict[str, int]]) -> dict[str, int] | None:
    """The not-played board's seat scores from the same board at other tables: `rows` holds each
    table's seat scores without its penalties (`{seat: int}`). None when there is no row.

    Each side gets the average of its side scores rounded (halves away from zero); its two
    seats share it by their own averages, the unit left over going to the seat whose average
    lost more to rounding down (the first in N E S W order on a tie)."""
    if not rows:
        return None
    count = len(rows)
    averages = {seat: Fraction(sum(row[seat] for row in rows), count) for seat in SEATS}
    scores = {}
    for first, second in SIDES:
        side = _round_half_away(averages[first] + averages[second])
        floors = {seat: math.floor(averages[seat]) for seat in (first, second)}
        left = side - sum(floors.values())  # 0, 1 or 2
        by_remainder = sorted((first, second), key=lambda seat: (-(averages[seat] - floors[seat]), SEATS.index(seat)))
        for index, seat in enumerate(by_remainder):
            scores[seat] = floors[seat] + (1 if index < left else 0)
    return scores


def new_mark(rule: str, reason: str, *, tables: int = 0, awaiting: bool = False, time: bool = False) -> dict[str, Any]:
    """The mark a not-played deal carries. `tables`: how many tables the average came from
    (0 with the average rule: none had the board, scored 0); `awaiting`: the adjusted rule's
    board before the chief arbiter's score; `time`: recorded when time was called."""
    mark = {"rule": rule, "reason": reason}
    if rule == AVERAGE:
        mark["tables"] = tables
    if awaiting:
        mark["awaiting"] = True
    if time:
        mark["time"] = True
    return mark


def is_awaiting(mark: dict[str, Any] | None) -> bool:
    return bool(mark) and bool(mark.get("awaiting"))


def mark_words(mark: dict[str, Any]) -> Text:
    """A not-played mark in words: "未打：…" naming the rule applied (a `Text`, rendered in a
    page's language by `scoring.messages.message_text`; `str()` gives the Chinese)."""
    rule = mark.get("rule")
    if rule == AVERAGE:
        if mark.get("tables"):
            return Text(_("未打：按其他 {tables} 桌的平均分"), tables=mark["tables"])
        return Text(_("未打：其他桌都没有这一副的成绩，按 0 分"))
    if rule == ADJUSTED:
        if mark.get("awaiting"):
            return Text(_("未打：等裁判长给调整分"))
        return Text(_("未打：裁判长的调整分"))
    return Text(_("未打：无成绩（双方 0 分）"))


def rule_words(rule: str) -> str:
    """The event's rule in words, for its settings and the rules in force."""
    return {
        ZERO: _("无成绩（双方 0 分）"),
        AVERAGE: _("这一副在其他桌的平均分"),
        ADJUSTED: _("裁判长给调整分"),
    }.get(rule, _("无成绩（双方 0 分）"))
