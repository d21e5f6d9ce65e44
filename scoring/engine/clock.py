"""The round clock's arithmetic (pure): what a round's clock shows at a moment.

An event may run its rounds to a time: minutes per round, or minutes per board times the
boards of a match (`ClockSettings`). The organiser starts, pauses, resumes and extends a
round's clock and finally calls time; each of those is an `Entry` (action, when, minutes), and
`clock_at(entries, minutes, now)` is the whole of what they mean:

- before the start the clock shows the round's time (and any extension given already);
- running, the time left falls one second a second; paused, it stands still;
- an extension of N minutes adds exactly N × 60 seconds (after the time ran out too: the
  overtime already used counts against it);
- the time left is never shown below zero; at zero, or once time is called, it is time.

The time a round runs is fixed when its clock starts (the start entry carries it): a later
change of the event's settings does not move a running round. Plain data in and out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from scoring.games.refusals import _

if TYPE_CHECKING:
    from typing import Any

START, PAUSE, RESUME, EXTEND, CALL_TIME = "start", "pause", "resume", "extend", "call_time"
ACTIONS = (START, PAUSE, RESUME, EXTEND, CALL_TIME)

# The settings' bounds (the event form and the archive refuse anything else).
ROUND_MINUTES_LIMIT = 600
BOARD_MINUTES_LIMIT = 60
EXTEND_MINUTES_LIMIT = 120
LATE_PENALTY_LIMIT = 100_000
SETTING_KEYS = ("round_minutes", "board_minutes", "late_penalty")

# The clock's states at a moment.
UNTIMED, NOT_STARTED, RUNNING, PAUSED, TIME_UP = "untimed", "not_started", "running", "paused", "time_up"


@dataclass(frozen=True)
class ClockSettings:
    """An event's clock: minutes per round (0: untimed), minutes per board (0: none) and the
    late-play penalty (points, ≤ 0; 0: none)."""

    round_minutes: int = 0
    board_minutes: int = 0
    late_penalty: int = 0

    def minutes_for(self, boards: int | None) -> int:
        """The minutes a round runs: minutes per round, else minutes per board × the boards of a
        match (`boards`, None in games mode); 0 when the event is untimed."""
        if self.round_minutes:
            return self.round_minutes
        if self.board_minutes and boards:
            return self.board_minutes * boards
        return 0


def _whole(value: bool | int | str | None, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def settings_problems(raw: dict[str, Any]) -> list[str]:
    """The clock keys of an event's settings (`event.extra`, the archive's event object) that are
    not what the site stores: a list of message templates, empty when all is well."""
    problems = []
    if "round_minutes" in raw and not _whole(raw["round_minutes"], 0, ROUND_MINUTES_LIMIT):
        problems.append(_("event.round_minutes 必须是 0 到 600 的整数（0：不计时）"))
    if "board_minutes" in raw and not _whole(raw["board_minutes"], 0, BOARD_MINUTES_LIMIT):
        problems.append(_("event.board_minutes 必须是 0 到 60 的整数"))
    if "late_penalty" in raw and not _whole(raw["late_penalty"], -LATE_PENALTY_LIMIT, 0):
        problems.append(_("event.late_penalty 必须是 −100000 到 0 的整数"))
    return problems


def clock_settings(raw: dict[str, int | str]) -> ClockSettings:
    """An event's `ClockSettings` from its stored settings; a value out of bounds reads as unset."""
    raw = raw if isinstance(raw, dict) else {}
    values = {}
    for key, low, high in (
        ("round_minutes", 0, ROUND_MINUTES_LIMIT),
        ("board_minutes", 0, BOARD_MINUTES_LIMIT),
        ("late_penalty", -LATE_PENALTY_LIMIT, 0),
    ):
        if _whole(raw.get(key), low, high):
            values[key] = raw[key]
    return ClockSettings(**values)


@dataclass(frozen=True)
class Entry:
    """One action on a round's clock. `minutes`: the round's time for a start, the minutes
    added for an extension."""

    action: str
    at: datetime
    minutes: int = 0


@dataclass(frozen=True)
class Clock:
    """A round's clock at a moment.

    `phase` depends on the entries only (untimed, not_started, running, paused, or time_up once
    time is called); `state` is the phase at `now` — running or paused with nothing left is
    time_up. `remaining` (seconds, never negative) and `elapsed` are at `now`. `ends_at` is when
    a running clock reaches zero and `remaining` stands still while it is not running, so a
    client can count down from what a server sent without asking again."""

    phase: str
    state: str
    remaining: int
    elapsed: int
    total: int
    started_at: datetime | None = None
    ends_at: datetime | None = None
    called_at: datetime | None = None

    @property
    def timed(self) -> bool:
        return self.phase != UNTIMED

    @property
    def time_up(self) -> bool:
        return self.state == TIME_UP

    def face(self) -> dict[str, int | str | None] | None:
        """What a table's phone or the referees' grid needs to show the clock, independent of the
        moment it is read (a cached answer stays right): None when untimed."""
        if self.phase == UNTIMED:
            return None
        return {
            "state": self.phase,
            "ends_at": self.ends_at.isoformat() if self.ends_at else None,
            "remaining": None if self.phase == RUNNING else self.remaining,
            "total": self.total,
            "called_at": self.called_at.isoformat() if self.called_at else None,
        }


def _seconds(delta: timedelta) -> float:
    return delta / timedelta(seconds=1)


def clock_at(entries: list[Entry], minutes: int, now: datetime) -> Clock:
    """The clock of a round at `now` from its entries (in the order they were made) and the
    round's time in minutes from the event's settings (used until the clock starts)."""
    started_at = called_at = running_since = None
    paused = False
    extensions = 0
    used = 0.0  # seconds run before `running_since`
    for entry in entries:
        if called_at is not None:
            break
        if entry.action == START and started_at is None:
            started_at = running_since = entry.at
            minutes = entry.minutes
        elif entry.action == PAUSE and running_since is not None:
            used += max(0.0, _seconds(entry.at - running_since))
            running_since, paused = None, True
        elif entry.action == RESUME and paused:
            running_since, paused = entry.at, False
        elif entry.action == EXTEND:
            extensions += entry.minutes
        elif entry.action == CALL_TIME:
            if running_since is not None:
                used += max(0.0, _seconds(entry.at - running_since))
                running_since = None
            called_at = entry.at
    total = max(0, (minutes + extensions) * 60)
    if called_at is not None:
        return Clock(TIME_UP, TIME_UP, 0, int(used), total, started_at, None, called_at)
    if started_at is None:
        phase = UNTIMED if total == 0 else NOT_STARTED
        return Clock(phase, phase, total, 0, total)
    if running_since is not None:
        elapsed = used + max(0.0, _seconds(now - running_since))
        left = total - elapsed
        ends_at = running_since + timedelta(seconds=total - used)
        state = RUNNING if left > 0 else TIME_UP
        return Clock(RUNNING, state, max(0, math.ceil(left)), int(elapsed), total, started_at, ends_at)
    left = total - used
    state = PAUSED if left > 0 else TIME_UP
    return Clock(PAUSED, state, max(0, math.ceil(left)), int(used), total, started_at)


def allowed_actions(clock: Clock) -> tuple[str, ...]:
    """What an organiser may do with the clock now. Calling time again after it was called only
    records boards still empty (it is idempotent); nothing else follows it."""
    if clock.called_at is not None:
        return (CALL_TIME,)
    return {
        UNTIMED: (CALL_TIME,),
        NOT_STARTED: (START, EXTEND, CALL_TIME),
        RUNNING: (PAUSE, EXTEND, CALL_TIME),
        PAUSED: (RESUME, EXTEND, CALL_TIME),
    }[clock.phase]


def boards_due(clock: Clock, board_minutes: int, boards: int) -> int | None:
    """With minutes per board, how many boards a table should have played by now (at most
    `boards`); None without a pace."""
    if not board_minutes or clock.started_at is None:
        return None
    due = clock.elapsed // (board_minutes * 60)
    return min(due, boards) if boards else due
