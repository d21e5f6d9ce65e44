"""16 simultaneous wrong passwords for one account from one address: only the first five are
checked (scoring.web.login_throttle.OneLoginAttemptAtATime), the rest are refused unchecked. Real
threads, each with its own database connection; `make test` runs it on PostgreSQL too."""

import threading

import pytest
from axes.models import AccessAttempt
from django.db import connection
from django.db.models import Sum
from django.test import Client

from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db(transaction=True)

GUESSES = 16


def together(job, count):
    barrier = threading.Barrier(count)
    answers = [None] * count

    def worker(index):
        try:
            barrier.wait()
            answers[index] = job()
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


@pytest.mark.parametrize("door", ["/accounts/login/", "/admin/login/"])
def test_simultaneous_wrong_passwords_are_checked_no_more_than_the_limit(door):
    make_user("target")

    def guess():
        return Client().post(door, {"username": "target", "password": "wrong"}, REMOTE_ADDR="198.51.100.9").status_code

    answers = together(guess, GUESSES)
    checked = AccessAttempt.objects.aggregate(total=Sum("failures_since_start"))["total"]
    assert checked == 5, (connection.vendor, answers)
    assert sorted(answers) == [200] * 4 + [429] * (GUESSES - 4)
