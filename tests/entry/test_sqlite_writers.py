"""SQLite writers queue on a lock instead of sleeping in SQLite's busy handler (huapai/sqlite/base.py)."""

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from scoring.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the writer queue is SQLite's")


def in_thread(target):
    errors = []

    def run():
        try:
            target()
        except Exception as error:  # reported to the test below
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def test_a_second_writer_waits_for_the_first_to_commit_and_then_writes():
    order = []
    first_has_lock, release_first = threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            Event.objects.create(slug="first", name="一")
            first_has_lock.set()
            release_first.wait(10)
            order.append("first commits")

    def second():
        first_has_lock.wait(10)
        with transaction.atomic():
            order.append("second writes")
            Event.objects.create(slug="second", name="二")

    one, errors_one = in_thread(first)
    two, errors_two = in_thread(second)
    first_has_lock.wait(10)
    two.join(0.3)
    assert two.is_alive(), "the second writer must wait while the first holds the lock"
    release_first.set()
    one.join(10)
    two.join(10)
    assert errors_one == errors_two == []
    assert order == ["first commits", "second writes"]
    assert set(Event.objects.values_list("slug", flat=True)) >= {"first", "second"}


def test_a_writer_that_waits_too_long_gets_an_error_and_a_rollback_releases_the_lock(monkeypatch):
    holder_ready, release_holder = threading.Event(), threading.Event()
    rolled_back, checked = threading.Event(), threading.Event()

    def holder():
        try:
            with transaction.atomic():
                holder_ready.set()
                release_holder.wait(10)
                raise RuntimeError("rolled back")
        finally:
            rolled_back.set()
            checked.wait(10)  # keep the connection open: only the rollback may have let go

    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.2)  # shared by every thread

    def waiter():
        holder_ready.wait(10)
        with transaction.atomic():
            pass

    one, errors_one = in_thread(holder)
    two, errors_two = in_thread(waiter)
    two.join(10)
    release_holder.set()
    rolled_back.wait(10)
    try:
        with transaction.atomic():
            Event.objects.create(slug="after", name="后")
    finally:
        checked.set()
        one.join(10)
    assert [type(e) for e in errors_two] == [OperationalError]
    assert [str(e) for e in errors_one] == ["rolled back"]
    assert Event.objects.filter(slug="after").exists()
