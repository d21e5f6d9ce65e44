"""Concurrent referees against a live server (real threads, real connections; SQLite or PostgreSQL)."""

import json
import threading
import urllib.error
import urllib.request

import pytest

from scoring.events.accounts import token_for
from scoring.models import Deal, DealHistory
from tests.archives import EXAMPLES
from tests.referee_setup import board_url, make_user

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def live_event(live_server):
    from scoring.archive.database import import_archive
    from scoring.rounds.creation import round_pair
    from tests.archives import pairs_archive

    codes = [f"A{i}" for i in range(1, 17)]
    event = import_archive(pairs_archive(codes, [], slug="live"))
    round_pair(event, "swiss")  # round 1: 8 tables
    tokens = [token_for(make_user(f"ref{i}", "referee", event)) for i in range(8)]
    return live_server.url, tokens


def request(url, token, method="PUT", body=None, version=None):
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    if version is not None:
        headers["If-Match"] = str(version)
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as failure:
        return failure.code, json.loads(failure.read() or b"{}")


def run_together(jobs):
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def worker(index, job):
        barrier.wait()
        results[index] = job()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def deal(name):
    body = dict(EXAMPLES[name]["deal"])
    body.pop("ruleset", None)
    return body


def test_many_referees_writing_different_deals_lose_nothing(live_event):
    base, tokens = live_event
    names = ["T1", "T2", "T7", "T9"]

    def table_job(table, token):
        def job():
            return [
                request(base + board_url("live", 1, table, board), token, body=deal(names[board % 4]))[0]
                for board in range(1, 9)
            ]

        return job

    results = run_together([table_job(table, tokens[table - 1]) for table in range(1, 9)])
    assert all(status == 201 for statuses in results for status in statuses)
    stored = Deal.objects.filter(table__round__event__slug="live")
    assert stored.count() == 64
    for stored_deal in stored:
        expected = EXAMPLES[names[stored_deal.board % 4]]["expected"]["sides"]
        assert {"NS": stored_deal.ns_score, "EW": stored_deal.ew_score} == expected
    assert DealHistory.objects.filter(event__slug="live").count() == 64


def test_writers_on_the_same_deal_get_exactly_one_winner(live_event):
    base, tokens = live_event
    url = base + board_url("live", 1, 1, 1)
    assert request(url, tokens[0], body=deal("T1"))[0] == 201
    names = ["T2", "T7", "T9", "T10", "T11", "T12", "T13", "T14"]
    results = run_together(
        [lambda t=t, n=n: request(url, t, body=deal(n), version=1) for t, n in zip(tokens, names, strict=True)]
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [412] * 7
    winner = next(body for status, body in results if status == 200)
    stored = Deal.objects.get(table__round__event__slug="live", table__number=1, board=1)
    assert stored.version == 2
    assert {"NS": stored.ns_score, "EW": stored.ew_score} == winner["sides"]
    assert DealHistory.objects.filter(event__slug="live", table__number=1, board=1).count() == 2


def test_simultaneous_first_entries_of_one_board_create_it_once(live_event):
    base, tokens = live_event
    url = base + board_url("live", 1, 2, 3)
    results = run_together([lambda t=t: request(url, t, body=deal("T1")) for t in tokens])
    statuses = sorted(status for status, _ in results)
    # The others find an existing deal and sent no If-Match: 428, nothing overwritten.
    assert statuses == [201] + [428] * 7
    assert Deal.objects.filter(table__round__event__slug="live", table__number=2, board=3).count() == 1
