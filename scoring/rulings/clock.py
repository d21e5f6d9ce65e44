"""The round clock: the organiser starts, pauses, resumes and extends a round's
clock and finally calls time, from the round's console; each action is a `ClockEntry` (who,
when) written in its own transaction, and the clock is what the entries add up to
(`scoring.engine.clock.clock_at`, pure).

Calling time records, at every table, the boards not started as not played under the event's
rule (`scoring.rulings.not_played`), one transaction per table; calling it again records nothing
twice. Boards entered after time was called are late (`late_boards`): the referee may apply the
event's late-play penalty through a call of kind slow play (`late_play_penalty`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from scoring.engine.clock import (
    CALL_TIME,
    EXTEND,
    EXTEND_MINUTES_LIMIT,
    START,
    Entry,
    allowed_actions,
    boards_due,
    clock_at,
    clock_settings,
)
from scoring.engine.not_played import MARK_KEY
from scoring.engine.vocabulary import SEATS, MatchMode
from scoring.entry.errors import EntryError
from scoring.events.permissions import is_organiser, may_enter
from scoring.games import game_of
from scoring.games.refusals import Text, _
from scoring.games.stored import carries_state
from scoring.models import ClockEntry, Deal, DealHistory, RefereeCall, Round, Table
from scoring.rulings.calls import call_open, call_rule
from scoring.rulings.not_played import TIME_CALLED, board_not_played

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.engine.clock import Clock, ClockSettings
    from scoring.models import Event

# What a late-play penalty's call says (stored in Chinese; pages show it through gettext).
LATE_FACTS = _("时间到之后才录入这一副")
LATE_RULING = _("迟打：按赛事规定罚分")


def event_clock(event: Event) -> ClockSettings:
    """The event's `ClockSettings` (minutes per round and per board, late-play penalty)."""
    return clock_settings(event.extra)


def round_minutes(event: Event) -> int:
    """The minutes a round of the event runs (0: untimed)."""
    boards = event.match_length if event.match_mode == MatchMode.BOARDS else None
    return event_clock(event).minutes_for(boards)


def _entries(rnd: Round) -> list[Entry]:
    return [
        Entry(action, at, minutes)
        for action, at, minutes in ClockEntry.objects.filter(round=rnd)
        .order_by("at", "id")
        .values_list("action", "at", "minutes")
    ]


def round_clock(rnd: Round, now: datetime | None = None) -> Clock:
    """The round's clock now (`scoring.engine.clock.Clock`)."""
    return clock_at(_entries(rnd), round_minutes(rnd.event), now or timezone.now())


def clock_log(rnd: Round) -> list[ClockEntry]:
    """The clock's entries with who made them, for the round's console."""
    return list(ClockEntry.objects.filter(round=rnd).select_related("user").order_by("at", "id"))


def pace(rnd: Round, clock: Clock) -> None:
    """With minutes per board: the boards a table should have played by now (else None)."""
    event = rnd.event
    boards = event.match_length if event.match_mode == MatchMode.BOARDS else None
    return boards_due(clock, event_clock(event).board_minutes, boards)


def clock_act(
    *, rnd: Round, user: User, action: str, minutes: int = 0, finish_in_play: bool = True, now: datetime | None = None
) -> tuple[Clock, int]:
    """An organiser acts on the round's clock. Returns `(clock, boards recorded not played)`.

    `minutes`: the extension (1 … EXTEND_MINUTES_LIMIT). Calling time with `finish_in_play`
    leaves each table the board it is playing (the first after its last result) to finish."""
    event = rnd.event
    if not is_organiser(user, event):
        raise EntryError("forbidden", _("只有组织者可以掌握本轮计时"))
    if action not in ClockEntry.Action.values:
        raise EntryError("bad_action", _("计时操作无效"))
    if action == EXTEND and (type(minutes) is not int or not 1 <= minutes <= EXTEND_MINUTES_LIMIT):
        raise EntryError("bad_minutes", _("延长的分钟数必须是 1 到 {limit} 的整数"), limit=EXTEND_MINUTES_LIMIT)
    with transaction.atomic():
        # The round's row locked: two organisers pressing at once act one after the other.
        status = Round.objects.select_for_update().filter(pk=rnd.pk).values_list("status", flat=True).first()
        if status in Round.PUBLISHED:
            raise EntryError("round_published", _("本轮成绩已公布：计时已结束"))
        now = now or timezone.now()
        clock = clock_at(_entries(rnd), round_minutes(event), now)
        if action == START and not clock.total:
            raise EntryError("untimed", _("本赛事不计时：先在赛事设置里填每轮分钟数"))
        if action not in allowed_actions(clock):
            raise EntryError(
                "clock_refused",
                _("计时现在是“{state}”：不能{action}"),
                state=Text(CLOCK_STATES[clock.state]),
                action=ClockEntry.Action(action).label,
            )
        ClockEntry.objects.create(
            round=rnd,
            action=action,
            minutes=clock.total // 60 if action == START else minutes if action == EXTEND else 0,
            at=now,
            user=user,
            detail={"finish_in_play": bool(finish_in_play)} if action == CALL_TIME else {},
        )
    recorded = time_call(rnd, user, finish_in_play=finish_in_play) if action == CALL_TIME else 0
    return round_clock(rnd, now), recorded


def boards_not_started(event: Event | type[Any], boards_with_results: set[int], finish_in_play: bool) -> list[int]:
    """The boards of a table (boards mode) not started when time is called: those after its
    last result (`boards_with_results`: not counting the records calling time made), less the
    first of them — the one in play — when it may be finished. Boards without a result before
    its last one were played (or skipped) and are the referees' to look at: they stay missing."""
    if event.match_mode != MatchMode.BOARDS:
        return []  # games mode: a match is its deals; the unfinished 局 is decided as it stands
    if carries_state(game_of(event)):
        # A match that carries a state (升级) cannot skip a deal or score one not played: it is
        # its deals, and the chief arbiter rules on an unfinished one (`scoring.rulings.match_ruling`).
        return []
    after = max(boards_with_results, default=0)
    waiting = list(range(after + 1, event.match_length + 1))
    return waiting[1:] if finish_in_play else waiting


def time_call(rnd: Round, user: User, *, finish_in_play: bool = True) -> int:
    """Record the boards not started at every table as not played (one transaction per table;
    a board entered meanwhile is left as entered). Returns how many were recorded."""
    event = rnd.event
    recorded = 0
    for table_id in rnd.tables.order_by("number").values_list("id", flat=True):
        with transaction.atomic():
            # Read afresh: the first board recorded puts the round in play (its status is checked).
            table = Table.objects.select_related("round__event").get(pk=table_id)
            have, results = set(), set()
            for board, extra in Deal.objects.filter(table=table).values_list("board", "extra"):
                have.add(board)
                if not (isinstance(extra, dict) and (extra.get(MARK_KEY) or {}).get("time")):
                    results.add(board)
            for board in boards_not_started(event, results, finish_in_play):
                if board in have:
                    continue
                try:
                    board_not_played(table=table, board=board, user=user, reason=TIME_CALLED, time=True)
                except EntryError as failure:
                    if failure.code != "version_required":  # entered at this moment: it stands
                        raise
                else:
                    recorded += 1
    return recorded


def late_boards(rnd: Round, called_at: Any = None) -> set[tuple[int, int]]:
    """{(table id, board)} of the boards whose result was entered after time was called
    (none before it is called): a first entry after it, or a result replacing the not-played
    record after it. Boards recorded not played are not late."""
    if called_at is None:
        called_at = ClockEntry.objects.filter(round=rnd, action=CALL_TIME).aggregate(first=Min("at"))["first"]
    if called_at is None:
        return set()
    history = DealHistory.objects.filter(table__round=rnd)
    first = history.values_list("table_id", "board").annotate(first=Min("at")).order_by()
    late = {(table_id, board) for table_id, board, at in first if at > called_at}
    replaced = (
        history.filter(at__gt=called_at, before__has_key=MARK_KEY)
        .exclude(after__has_key=MARK_KEY)
        .values_list("table_id", "board")
    )
    late |= set(replaced)
    if late:
        marked = set(Deal.objects.filter(table__round=rnd, extra__has_key=MARK_KEY).values_list("table_id", "board"))
        late -= marked
    return late


def late_play_penalty(*, table: Table, board: int, user: User, seat: str, ip: str | None = None) -> RefereeCall | None:
    """The event's late-play penalty on `seat` for a board entered after time was called: a
    call of kind slow play at the table, ruled at once with that penalty (onto the deal, a new
    version in its history, like any penalty). Once per board."""
    event = table.round.event
    points = event_clock(event).late_penalty
    if not may_enter(user, event, table.round):
        raise EntryError("forbidden", _("你不是本赛事的裁判或组织者"))
    if not points:
        raise EntryError("no_late_penalty", _("本赛事没有规定迟打罚分"))
    if seat not in SEATS:
        raise EntryError("unknown_seat", _("罚分需要指定座位"))
    if (table.pk, board) not in late_boards(table.round):
        raise EntryError("not_late", _("这一副不是在时间到之后录入的"))
    ruled = RefereeCall.objects.filter(
        table=table, board=board, kind=RefereeCall.Kind.SLOW_PLAY, outcome=RefereeCall.Outcome.PENALTY, note=LATE_FACTS
    )
    with transaction.atomic():
        # Two referees giving it at once: the table's row is locked (SQLite's write lock is taken
        # at BEGIN), so the second one reads the first one's call and is refused.
        Table.objects.select_for_update().filter(pk=table.pk).first()
        if ruled.exists():
            raise EntryError("already_ruled", _("这一副的迟打罚分已经给过"))
        call = call_open(
            table=table, user=user, kind=RefereeCall.Kind.SLOW_PLAY, board=board, seats=seat, facts=LATE_FACTS
        )
        return call_rule(
            call=call, user=user, outcome=RefereeCall.Outcome.PENALTY, ruling=LATE_RULING, penalty_seat=seat,
            penalty=points, ip=ip,
        )  # fmt: skip


def state_words(clock: Clock) -> Text:
    """The clock's state in words (a `Text`): 计时中, 暂停, 时间到…"""
    return Text(CLOCK_STATES[clock.state])


CLOCK_STATES = {
    "untimed": _("不计时"),
    "not_started": _("未开始计时"),
    "running": _("计时中"),
    "paused": _("暂停"),
    "time_up": _("时间到"),
}
