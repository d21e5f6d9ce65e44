"""An entrant withdrawn while the next round is being paired is never seated in a round it
withdrew before: the withdrawal waits for the pairing, or the pairing is refused. Real
threads and connections; on PostgreSQL (make test's second run) this raced without a lock."""

import threading
import time

import pytest
from django.db import connection

from scoring.archive.database import import_archive
from scoring.events.entrants import entrant_withdraw
from scoring.models import Entrant, Table
from scoring.rounds import creation
from tests.archives import four_pairs_two_rounds


def blocked_by_this_transaction_or_done(backend, done, seconds=10):
    """Return once the other thread's write is done (nothing held it back) or waits for a lock
    this transaction holds — PostgreSQL names the backends that block another
    (`pg_blocking_pids`). On SQLite, one writer at a time: its transaction cannot begin before
    this one ends, whatever the timing, so there is nothing to wait for."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    while not done.wait(0.01) and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid() = ANY(pg_blocking_pids(%s))", [backend])
            if cursor.fetchone()[0]:
                return


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_during_pairing_waits_for_the_pairing_and_counts_the_new_round(monkeypatch):
    event = import_archive(four_pairs_two_rounds())
    inside_pairing, withdrawal_started, withdrawal_done = threading.Event(), threading.Event(), threading.Event()
    write_tables = creation.create_tables
    withdrawn = {}

    def slow_create_tables(*args, **kwargs):
        inside_pairing.set()  # round 3 exists in this (uncommitted) transaction
        withdrawal_started.wait(10)
        # An unlocked withdrawal commits first (reading round 2 as the last paired); a locked
        # one waits for this transaction: go on only once one or the other has happened.
        blocked_by_this_transaction_or_done(withdrawn.get("backend"), withdrawal_done)
        return write_tables(*args, **kwargs)

    monkeypatch.setattr(creation, "create_tables", slow_create_tables)

    def withdraw_pair_a():
        try:
            connection.ensure_connection()
            if connection.vendor == "postgresql":
                withdrawn["backend"] = connection.connection.info.backend_pid
            inside_pairing.wait(10)
            withdrawal_started.set()
            withdrawn["after"] = entrant_withdraw(Entrant.objects.get(event=event, code="A")).withdrawn_after_round
        finally:
            withdrawal_done.set()
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
