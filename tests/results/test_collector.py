"""The garbage collector paused while standings are built (scoring/collector.py)."""

import gc
import threading

import pytest

from scoring.collector import collector_paused, without_collection


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_a_pause_holds_the_collector_off_and_turns_it_back_on(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_pauses_nest_and_the_collector_comes_back_after_the_last(collector_on):
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_that_fails_still_ends(collector_on):
    @without_collection
    def failing():
        assert not gc.isenabled()
        raise ValueError("no")

    with pytest.raises(ValueError):
        failing()
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off():
    was = gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_one_threads_pause_ending_leaves_anothers_in_force(collector_on):
    inside, release = threading.Event(), threading.Event()

    def other():
        with collector_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(5)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the other thread's pause still holds
    release.set()
    thread.join(5)
    assert gc.isenabled()
