"""Two referees giving the same late-play penalty at the same moment: one penalty, the other
told it was given. Real threads and connections, on both databases."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

import scoring.rulings.clock
from scoring.entry.errors import EntryError
from scoring.entry.services import deal_save
from scoring.models import Deal, RefereeCall, Round, Table
from scoring.rulings.clock import clock_act, late_play_penalty
from tests.referee_setup import example_deal


@pytest.mark.django_db(transaction=True)
def test_a_late_play_penalty_given_twice_at_once_is_given_once(event, people, monkeypatch):
    event.extra = {**event.extra, "round_minutes": 90, "late_penalty": -50}
    event.save()
    rnd = Round.objects.select_related("event").get(event=event, number=3)
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=100))
    clock_act(rnd=rnd, user=people["organiser"], action="call_time")
    table = Table.objects.select_related("round__event").get(round=rnd, number=1)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])

    # Both referees have found the board late before either gives the penalty.
    both_checked = threading.Barrier(2, timeout=10)
    real_late_boards = scoring.rulings.clock.late_boards

    def late_boards_then_wait(*args, **kwargs):
        late = real_late_boards(*args, **kwargs)
        both_checked.wait()
        return late

    monkeypatch.setattr(scoring.rulings.clock, "late_boards", late_boards_then_wait)
    outcomes = {}

    def give(name):
        try:
            late_play_penalty(table=table, board=1, user=people[name], seat="E")
            outcomes[name] = "given"
        except EntryError as refused:
            outcomes[name] = refused.code
        finally:
            if threading.current_thread() is not threading.main_thread():
                connection.close()

    other = threading.Thread(target=give, args=("referee2",))
    other.start()
    give("referee1")
    other.join(30)
    assert sorted(outcomes.values()) == ["already_ruled", "given"]
    assert RefereeCall.objects.filter(table=table, board=1, kind="slow_play").count() == 1
    deal = Deal.objects.get(table=table, board=1)
    assert deal.penalties == {"E": -50}
