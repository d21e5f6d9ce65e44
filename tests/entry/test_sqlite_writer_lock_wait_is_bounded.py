"""A writer waiting for another process's `flock` gives up after the database's timeout
(huapai/sqlite/base.py), with the error SQLite itself gives, instead of waiting for ever."""

import fcntl
import time

import pytest
from django.db import OperationalError, connection, transaction

from scoring.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def sqlite_only():
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        pytest.skip("the writer queue is SQLite's, on a database file")


def test_a_writer_behind_another_process_lock_gets_database_is_locked_after_the_timeout(monkeypatch):
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.3)
    # Another open file description of the lock file conflicts like another process would.
    with open(f"{connection.settings_dict['NAME']}.writers", "a") as other_process:
        fcntl.flock(other_process, fcntl.LOCK_EX)
        started = time.monotonic()
        with pytest.raises(OperationalError, match="database is locked"), transaction.atomic():
            Event.objects.create(slug="blocked", name="等")
        waited = time.monotonic() - started
        fcntl.flock(other_process, fcntl.LOCK_UN)
    assert 0.25 <= waited < 3
    with transaction.atomic():  # the failed wait left no lock behind
        Event.objects.create(slug="after", name="后")
    assert Event.objects.filter(slug="after").exists()
