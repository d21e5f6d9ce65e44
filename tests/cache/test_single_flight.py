"""One computes, the others wait (scoring/cache/flight.py): the helper every cached read uses."""

import threading

from django.core.cache import cache

from scoring.cache import flight
from scoring.cache.flight import alone, computed_once


def _stored(key):
    return lambda: cache.get(key)


def test_one_caller_computes_while_the_others_wait_for_its_answer():
    cache.delete("answer")
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    computations = []

    def slow_compute():
        computations.append(threading.current_thread().name)
        started.set()
        release.wait(5)
        cache.set("answer", 42)
        return 42

    def fetch_and_say_so():
        if threading.current_thread().name == "second":
            waiting.set()
        return cache.get("answer")

    answers = {}

    def ask():
        answers[threading.current_thread().name] = computed_once("answer", fetch=fetch_and_say_so, compute=slow_compute)

    first = threading.Thread(target=ask, name="first")
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=ask, name="second")
    second.start()
    assert waiting.wait(5)  # the second found the lock taken and is looking for the answer
    release.set()
    first.join(5)
    second.join(5)
    assert computations == ["first"]
    assert answers == {"first": 42, "second": 42}


def test_a_waiter_computes_itself_when_the_one_computing_failed(monkeypatch):
    cache.delete("answer")
    cache.add("computing:answer", "someone", 60)  # another caller holds the lock ...
    polls = []

    def fetch():
        polls.append(1)
        if len(polls) == 2:
            cache.delete("computing:answer")  # ... and gives up without storing anything
        return None

    assert computed_once("answer", fetch=fetch, compute=lambda: "mine") == "mine"
    assert cache.get("computing:answer") is None  # the waiter's own lock is released too


def test_a_waiter_takes_the_previous_version_at_once_when_there_is_one(monkeypatch):
    cache.add("computing:page-v2", "someone", 60)
    monkeypatch.setattr(flight, "WAIT_SECONDS", 0.0)  # it must not need to wait at all
    answer = computed_once("page-v2", fetch=lambda: None, fallback=lambda: "page v1", compute=lambda: "rendered again")
    assert answer == "page v1"
    cache.delete("computing:page-v2")


def test_the_lock_holder_does_not_compute_what_another_stored_meanwhile():
    cache.set("done", "stored by another")
    assert computed_once("done", fetch=_stored("done"), compute=lambda: "computed twice") == "stored by another"
    cache.delete("done")


def test_work_done_alone_is_skipped_by_a_second_caller_and_released_after():
    with alone("warming:7") as first, alone("warming:7") as second:
        assert (first, second) == (True, False)
    with alone("warming:7") as again:
        assert again
