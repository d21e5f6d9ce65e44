"""Two referees entering the same board blind at the same moment, with the same cards, make
one confirmed deal. Each once saw only its own (uncommitted) entry and both were told to wait
for the other (18 of 28 tries on PostgreSQL). Real threads and connections."""

import threading

import pytest
from django.db import connection
from django.db.models.query import QuerySet

from scoring.entry.blind import blind_entry_submit
from scoring.models import BlindEntry, Deal, Event, Table
from tests.referee_setup import example_deal


@pytest.mark.django_db(transaction=True)
def test_identical_blind_entries_at_the_same_moment_make_one_confirmed_deal(event, people, monkeypatch):
    Event.objects.filter(pk=event.pk).update(double_entry=True)
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    first_stored, second_stored = threading.Event(), threading.Event()
    store = QuerySet.update_or_create

    def stored_then_paused(self, *args, **kwargs):
        result = store(self, *args, **kwargs)
        if self.model is BlindEntry:
            if threading.current_thread() is threading.main_thread():
                first_stored.set()
                second_stored.wait(1)  # an unlocked second entry stores and reads meanwhile
            else:
                second_stored.set()
        return result

    monkeypatch.setattr(QuerySet, "update_or_create", stored_then_paused)
    outcomes = {}

    def second_referee():
        try:
            first_stored.wait(10)
            outcomes["second"] = blind_entry_submit(
                table=table, board=1, deal_json=example_deal("T1"), user=people["referee2"]
            )[0]
        finally:
            connection.close()

    other = threading.Thread(target=second_referee)
    other.start()
    outcomes["first"] = blind_entry_submit(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])[
        0
    ]
    other.join(30)
    assert sorted(outcomes.values()) == ["confirmed", "waiting"]
    deal = Deal.objects.get(table=table, board=1)
    assert deal.status == Deal.Status.CONFIRMED
