"""Waiting for another request's work: the pause grows, the wait ends at its limit."""

import scoring.cache.waiting
from scoring.cache.waiting import wait_for


def test_the_pause_between_looks_grows_to_a_tenth_of_a_second_and_the_answer_ends_the_wait(monkeypatch):
    clock = {"now": 0.0}
    pauses = []

    def sleep(seconds):
        pauses.append(round(seconds, 4))
        clock["now"] += seconds

    monkeypatch.setattr(scoring.cache.waiting.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(scoring.cache.waiting.time, "sleep", sleep)
    answers = iter([None] * 8 + ["page"])
    assert wait_for(lambda: next(answers), 10) == "page"
    assert pauses == [0.01, 0.015, 0.0225, 0.0338, 0.0506, 0.0759, 0.1, 0.1]

    pauses.clear()
    clock["now"] = 0.0
    assert wait_for(lambda: None, 0.5) is None
    assert abs(sum(pauses) - 0.5) < 1e-9 and max(pauses) == 0.1  # never past the limit
