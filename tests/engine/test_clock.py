"""The round clock's arithmetic (scoring.engine.clock), pure: random sequences of actions at
random moments, against the properties an organiser relies on."""

import math
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.clock import (
    CALL_TIME,
    EXTEND,
    PAUSE,
    RESUME,
    START,
    ClockSettings,
    Entry,
    allowed_actions,
    boards_due,
    clock_at,
    clock_settings,
    settings_problems,
)

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def at(seconds):
    return T0 + timedelta(seconds=seconds)


# (action, seconds after the previous entry, minutes): any order, repeats and nonsense included.
steps = st.lists(
    st.tuples(
        st.sampled_from([START, PAUSE, RESUME, EXTEND, CALL_TIME]),
        st.integers(0, 4000),
        st.integers(1, 120),
    ),
    max_size=12,
)


def entries_of(steps_):
    entries, moment = [], 0
    for action, gap, minutes in steps_:
        moment += gap
        entries.append(Entry(action, at(moment), minutes if action == EXTEND else 0))
    return entries, moment


def with_start_minutes(entries, minutes):
    return [Entry(e.action, e.at, minutes) if e.action == START else e for e in entries]


@given(steps, st.integers(0, 600), st.integers(0, 20_000), st.integers(0, 20_000))
def test_the_time_left_never_shows_below_zero_or_above_the_rounds_time(steps_, minutes, later, more):
    entries, last = entries_of(steps_)
    entries = with_start_minutes(entries, minutes)
    clock = clock_at(entries, minutes, at(last + later))
    assert 0 <= clock.remaining <= clock.total
    assert clock.state in ("untimed", "not_started", "running", "paused", "time_up")
    assert (clock.remaining == 0) == (clock.state in ("time_up", "untimed"))


@given(steps, st.integers(1, 600), st.integers(0, 20_000), st.integers(0, 20_000))
def test_running_the_time_left_only_falls_and_falls_one_second_a_second(steps_, minutes, first, gap):
    entries, last = entries_of(steps_)
    entries = with_start_minutes(entries, minutes)
    earlier = clock_at(entries, minutes, at(last + first))
    later = clock_at(entries, minutes, at(last + first + gap))
    assert later.remaining <= earlier.remaining
    if earlier.phase == "running":
        assert earlier.remaining - later.remaining <= gap
        if later.remaining > 0:
            assert earlier.remaining - later.remaining == gap
        # What a phone counts down from: the end the server sent.
        assert later.remaining == max(0, math.ceil((later.ends_at - at(last + first + gap)).total_seconds()))


@given(steps, st.integers(1, 600), st.integers(0, 20_000), st.integers(0, 20_000))
def test_paused_or_not_started_the_clock_stands_still(steps_, minutes, first, gap):
    entries, last = entries_of(steps_)
    entries = with_start_minutes(entries, minutes)
    earlier = clock_at(entries, minutes, at(last + first))
    if earlier.phase in ("paused", "not_started", "time_up", "untimed"):
        later = clock_at(entries, minutes, at(last + first + gap))
        assert (later.remaining, later.elapsed, later.state) == (earlier.remaining, earlier.elapsed, earlier.state)


@given(steps, st.integers(1, 600), st.integers(1, 120), st.integers(0, 5000), st.integers(0, 20_000))
def test_an_extension_adds_exactly_its_minutes(steps_, minutes, extra, gap, later):
    entries, last = entries_of(steps_)
    entries = with_start_minutes(entries, minutes)
    now = at(last + gap + later)
    without = clock_at(entries, minutes, now)
    extended = clock_at([*entries, Entry(EXTEND, at(last + gap), extra)], minutes, now)
    if without.called_at is not None:
        assert extended == without  # nothing follows time called
        return
    assert extended.total == without.total + 60 * extra
    assert extended.elapsed == without.elapsed
    if without.remaining > 0:
        assert extended.remaining == without.remaining + 60 * extra
    if without.ends_at is not None:
        assert extended.ends_at == without.ends_at + timedelta(minutes=extra)


def test_a_round_of_ninety_minutes_paused_extended_and_called():
    entries = [
        Entry(START, at(0), 90),
        Entry(PAUSE, at(600), 0),  # 10 minutes run
        Entry(RESUME, at(900), 0),  # 5 minutes standing still
        Entry(EXTEND, at(1000), 5),
    ]
    clock = clock_at(entries, 90, at(1200))
    assert clock.state == "running" and clock.elapsed == 900 and clock.remaining == 95 * 60 - 900
    assert clock.ends_at == at(900 + 95 * 60 - 600)
    assert allowed_actions(clock) == (PAUSE, EXTEND, CALL_TIME)
    # The settings changed after the start: the round keeps the time it started with.
    assert clock_at(entries, 60, at(1200)) == clock
    over = clock_at(entries, 90, at(900 + 95 * 60))
    assert over.state == "time_up" and over.remaining == 0 and over.phase == "running"
    called = clock_at([*entries, Entry(CALL_TIME, at(7000), 0)], 90, at(9000))
    assert called.state == called.phase == "time_up" and called.called_at == at(7000)
    assert allowed_actions(called) == (CALL_TIME,)
    assert called.face()["called_at"] == at(7000).isoformat()


def test_before_the_start_and_untimed():
    assert clock_at([], 0, T0).state == "untimed" and clock_at([], 0, T0).face() is None
    ready = clock_at([Entry(EXTEND, T0, 10)], 90, at(5000))
    assert ready.state == "not_started" and ready.remaining == 100 * 60
    face = {"state": "not_started", "ends_at": None, "remaining": 6000, "total": 6000, "called_at": None}
    assert ready.face() == face
    assert allowed_actions(ready) == (START, EXTEND, CALL_TIME)


def test_settings_read_and_checked():
    assert clock_settings({"round_minutes": 90, "late_penalty": -50}) == ClockSettings(90, 0, -50)
    assert clock_settings({"round_minutes": 601, "board_minutes": "7", "late_penalty": 5}) == ClockSettings()
    assert ClockSettings(0, 8, 0).minutes_for(16) == 128 and ClockSettings(0, 8, 0).minutes_for(None) == 0
    assert ClockSettings(100, 8, 0).minutes_for(16) == 100
    assert settings_problems({"round_minutes": 90, "board_minutes": 0, "late_penalty": -100000}) == []
    assert len(settings_problems({"round_minutes": -1, "board_minutes": 61, "late_penalty": 1})) == 3
    assert len(settings_problems({"round_minutes": True})) == 1


def test_the_pace_of_minutes_per_board():
    clock = clock_at([Entry(START, T0, 64)], 64, at(17 * 60))
    assert boards_due(clock, 8, 8) == 2 and boards_due(clock, 0, 8) is None
    assert boards_due(clock_at([], 64, T0), 8, 8) is None
