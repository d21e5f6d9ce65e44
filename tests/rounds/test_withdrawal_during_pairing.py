"""An entrant withdrawn while the next round is being paired is never seated in a round it
withdrew before: the withdrawal waits for the pairing, or the pairing is refused. Real
threads and connections; on PostgreSQL (make test's second run) this raced without a lock."""

import threading
import time

import pytest

from scoring.archive.database import import_archive
from scoring.events.entrants import entrant_withdraw
from scoring.models import Entrant, Table
from scoring.rounds import creation
from tests.archives import four_pairs_two_rounds


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_during_pairing_waits_for_the_pairing_and_counts_the_new_round(monkeypatch):
    event = import_archive(four_pairs_two_rounds())
    inside_pairing, withdrawal_started = threading.Event(), threading.Event()
    write_tables = creation.create_tables

    def slow_create_tables(*args, **kwargs):
        inside_pairing.set()  # round 3 exists in this (uncommitted) transaction
        withdrawal_started.wait(10)
        time.sleep(0.5)  # time enough for an unlocked withdrawal to commit first
        return write_tables(*args, **kwargs)

    monkeypatch.setattr(creation, "create_tables", slow_create_tables)
    withdrawn = {}

    def withdraw_pair_a():
        from django.db import connection

        inside_pairing.wait(10)
        withdrawal_started.set()
        withdrawn["after"] = entrant_withdraw(Entrant.objects.get(event=event, code="A")).withdrawn_after_round
        connection.close()

    other = threading.Thread(target=withdraw_pair_a)
    other.start()
    rnd, _pairing = creation.round_pair(event, "swiss")
    other.join(20)
    assert not other.is_alive()
    seated = (
        Table.objects.filter(round=rnd, ns_entrant__code="A").exists()
        or Table.objects.filter(round=rnd, ew_entrant__code="A").exists()
    )
    assert seated, "the pairing, which won the race, seated A in round 3"
    assert withdrawn["after"] == 3, "so A withdraws after round 3, not after round 2"
