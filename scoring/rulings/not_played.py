"""Boards not played: a referee records one from the board's entry page or as the
outcome of a call (a wrong card count that ends in no play), and calling time records the
boards not started (`scoring.rulings.clock`). The event's rule decides the score
(`scoring.engine.not_played`: zero, the average of the other tables, or the chief arbiter's
adjusted score); `scoring.entry.not_played_deal.deal_not_played` writes it — a stored deal with an
adjusted score, marked not played, a ruling in the board's history.

A result that arrives later replaces the record through the normal correction path (the entry
page, or the referee API, with the version): the mark goes with the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count

from scoring.engine.not_played import (
    ADJUSTED,
    AVERAGE,
    MARK_KEY,
    ZERO,
    average_scores,
    mark_words,
    new_mark,
    rule_of,
    zero_scores,
)
from scoring.engine.vocabulary import SEATS, MatchMode
from scoring.entry.hot_sql import deal_at
from scoring.entry.not_played_deal import deal_not_played
from scoring.entry.selectors import check_board
from scoring.entry.versioned import UNREAD, not_played_mark
from scoring.games import game_of
from scoring.games.refusals import Text, _
from scoring.models import Deal

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Event, RefereeCall, Round, Table

# The reason calling time writes (stored in Chinese; pages show it through gettext).
TIME_CALLED = _("时间到时这一副还没有开始")


def event_rule(event: Event) -> str:
    """The event's rule for a board not played (its settings; `zero` unless set)."""
    return rule_of(event.extra)


def _other_tables(table: Table, board: int) -> list[dict[str, int]]:
    """The board's seat scores without their penalties at the round's other tables where it
    was played and confirmed."""
    rows = (
        Deal.objects.counted()
        .filter(table__round_id=table.round_id, board=board)
        .exclude(table_id=table.pk)
        .exclude(extra__has_key=MARK_KEY)
        .values_list("score_n", "score_e", "score_s", "score_w", "penalties")
    )
    found = []
    for *scores, penalties in rows:
        penalties = penalties if isinstance(penalties, dict) else {}
        found.append({seat: score - penalties.get(seat, 0) for seat, score in zip(SEATS, scores, strict=True)})
    return found


def not_played_score(
    table: Table, board: int, *, reason: str, time: bool = False
) -> tuple[dict[str, int], dict[str, Any]]:
    """`(adjusted score, mark)` of the board not played at `table`, under the event's rule now,
    on the game's seats (跑胡子's E S W: its adjusted score has no North)."""
    rule = event_rule(table.round.event)
    seats = game_of(table.round.event).seats
    if rule == AVERAGE:
        rows = _other_tables(table, board)
        scores = average_scores(rows) or zero_scores()
        return _on(seats, scores), new_mark(AVERAGE, reason, tables=len(rows), time=time)
    if rule == ADJUSTED:
        return _on(seats, zero_scores()), new_mark(ADJUSTED, reason, awaiting=True, time=time)
    return _on(seats, zero_scores()), new_mark(ZERO, reason, time=time)


def _on(seats: tuple[str, ...], scores: dict[str, int]) -> dict[str, int]:
    """The scores of the table's seats only (a seat the game lacks scores nothing)."""
    return {seat: scores.get(seat, 0) for seat in seats}


def board_not_played(
    *,
    table: Table,
    board: int,
    user: User,
    reason: str,
    expected_version: int | None = None,
    ip: str | None = None,
    time: bool = False,
    existing: Any = UNREAD,
    call: RefereeCall | None = None,
) -> tuple[Deal, bool] | None:
    """A referee records the board not played at `table`, with a reason (a deal already there is
    replaced at `expected_version`); `call` is the call whose ruling this is, if any. Returns
    `(deal, created)`."""
    check_board(table.round.event, table, board)
    if existing is UNREAD:
        existing = deal_at(table, board)
    adjusted, mark = not_played_score(table, board, reason=reason, time=time)
    return deal_not_played(
        table=table,
        board=board,
        user=user,
        adjusted=adjusted,
        mark=mark,
        reason=reason,
        expected_version=expected_version,
        ip=ip,
        existing=existing,
        call=call,
    )


def not_played_text(deal: Deal) -> Text | None:
    """The words for a deal recorded not played (a `Text`), or None for a board played."""
    mark = not_played_mark(deal)
    return mark_words(mark) if mark else None


def not_played_boards(rnd: Round, table_ids: set[int] | None = None) -> dict[tuple[int, int], dict[str, bool | str]]:
    """{(table id, board): mark} of the round's boards recorded not played (at `table_ids` only,
    when given)."""
    deals = Deal.objects.filter(table__round=rnd, extra__has_key=MARK_KEY)
    if table_ids is not None:
        deals = deals.filter(table_id__in=table_ids)
    return {
        (table_id, board): extra[MARK_KEY] for table_id, board, extra in deals.values_list("table_id", "board", "extra")
    }


def stale_averages(rnd: Round) -> list[Text]:
    """Boards scored by the average whose count of other tables has changed since (results
    arrived or were corrected after): `Text` warnings for the publication checklist. The
    referee records the board again to recompute it."""
    event = rnd.event
    if event.match_mode != MatchMode.BOARDS:
        return []
    marked = list(
        Deal.objects.filter(table__round=rnd, extra__has_key=MARK_KEY)
        .select_related("table")
        .order_by("table__number", "board")
    )
    averaged = [d for d in marked if (not_played_mark(d) or {}).get("rule") == AVERAGE]
    if not averaged:
        return []
    boards = {d.board for d in averaged}
    counts = dict(
        Deal.objects.counted()
        .filter(table__round=rnd, board__in=boards)
        .exclude(extra__has_key=MARK_KEY)
        .values_list("board")
        .annotate(n=Count("id"))
        .order_by()
    )
    warnings = []
    for deal in averaged:
        now = counts.get(deal.board, 0)
        if now != not_played_mark(deal).get("tables", 0):
            warnings.append(
                Text(
                    _("{table}号桌第 {board} 副未打，按 {then} 桌的平均分计算，现在有 {now} 桌：请重新记录以重算"),
                    table=deal.table.number,
                    board=deal.board,
                    then=not_played_mark(deal).get("tables", 0),
                    now=now,
                )
            )
    return warnings


def awaiting_boards(rnd: Round) -> list[Text]:
    """Blocking sentences for boards recorded not played that wait for the chief arbiter's score."""
    found = []
    for deal in (
        Deal.objects.filter(table__round=rnd, extra__has_key=MARK_KEY, status=Deal.Status.DRAFT)
        .select_related("table")
        .order_by("table__number", "board")
    ):
        mark = not_played_mark(deal)
        if mark and mark.get("awaiting"):
            found.append(
                Text(_("{table}号桌第 {board} 副未打：等裁判长给调整分"), table=deal.table.number, board=deal.board)
            )
    return found
