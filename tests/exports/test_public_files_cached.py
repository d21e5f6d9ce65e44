"""Public files are bounded like public pages (issue 37): rendered once per public version and
served from the cache to everyone after, one render at a time (the others get the previous
version, or a 503 with Retry-After), and a round's travellers cost in proportion to its rows."""

import io

import pytest
from django.core.cache import cache
from django.test import Client
from reportlab.platypus import paragraph

from scoring.archive.database import import_archive
from scoring.cache import files as file_cache
from scoring.cache import flight, waiting
from scoring.cache.announce import announce_results_changed
from scoring.exports import files, pdf
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db

PUBLIC_FILES = [
    ("/events/t-pairs/rounds/1/travellers.pdf", "write_travellers"),
    ("/events/t-pairs/rounds/1/results.pdf", "write_round_results"),
    ("/events/t-pairs/standings.pdf", "write_standings"),
]


@pytest.fixture
def published():
    return import_archive(four_pairs_two_rounds())


def _body(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


def _counting(monkeypatch, name):
    calls = []
    original = getattr(pdf, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(pdf, name, counted)
    return calls


@pytest.mark.parametrize(("url", "writer"), PUBLIC_FILES)
def test_a_public_file_is_rendered_once_per_public_version(published, monkeypatch, url, writer):
    renders = _counting(monkeypatch, writer)
    first = Client().get(url)
    second = Client().get(url)
    assert first.status_code == second.status_code == 200
    assert _body(first) == _body(second) and len(renders) == 1
    assert "public" in second["Cache-Control"] and second["ETag"]
    assert Client().get(url, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304
    announce_results_changed(published, public=True)  # a correction published: a new version
    third = Client().get(url)
    assert third.status_code == 200 and len(renders) == 2


def test_while_a_process_renders_all_it_may_a_file_not_stored_is_a_503_with_retry_after(published):
    url = "/events/t-pairs/rounds/1/travellers.pdf"
    taken = [file_cache._renders.acquire(blocking=False) for _ in range(file_cache.RENDERS_AT_ONCE)]
    try:
        assert all(taken)
        busy = Client().get(url)
        assert busy.status_code == 503 and int(busy["Retry-After"]) > 0
        assert "no-store" in busy["Cache-Control"]
    finally:
        for _ in taken:
            file_cache._renders.release()
    assert Client().get(url).status_code == 200


def test_while_a_new_version_is_rendered_the_others_get_the_previous_one(published, monkeypatch):
    url = "/events/t-pairs/rounds/1/travellers.pdf"
    old = _body(Client().get(url))
    announce_results_changed(published, public=True)
    # Another request is rendering the new version (it holds the file's lock): this one waits
    # for nothing and renders nothing.
    key, _latest = file_cache.file_keys("t-pairs", files.travellers_pdf(published, published.rounds.get(number=1)))
    cache.add(f"computing:{key}", "another request", 60)
    monkeypatch.setattr(flight, "FILE_WAIT_SECONDS", 0.0)
    renders = _counting(monkeypatch, "write_travellers")
    try:
        answer = Client().get(url)
    finally:
        cache.delete(f"computing:{key}")
    assert not renders
    assert answer.status_code == 200 and _body(answer) == old


def test_a_file_another_request_renders_is_a_503_at_once_and_no_thread_waits_for_it(published, monkeypatch):
    """No previous version to give: the asker is told to come back at once. A 2 s wait held a
    thread per asker, and a flood of them took a host's threads from the players
    (tests/deploy/test_two_hosts.py, the flood)."""
    url = "/events/t-pairs/rounds/1/travellers.pdf"
    key, _latest = file_cache.file_keys("t-pairs", files.travellers_pdf(published, published.rounds.get(number=1)))
    cache.add(f"computing:{key}", "another request", 60)
    slept = []
    monkeypatch.setattr(waiting.time, "sleep", slept.append)
    renders = _counting(monkeypatch, "write_travellers")
    try:
        answer = Client().get(url)
    finally:
        cache.delete(f"computing:{key}")
    assert answer.status_code == 503 and int(answer["Retry-After"]) > 0
    assert not slept and not renders


def test_an_officials_own_file_is_never_taken_from_the_public_cache(published, client, monkeypatch):
    from scoring.events.accounts import role_grant

    renders = _counting(monkeypatch, "write_travellers")
    Client().get("/events/t-pairs/rounds/1/travellers.pdf")
    user = role_grant(username="org-files", role="organiser", event=published)[0]
    client.force_login(user)
    staff = client.get("/events/t-pairs/rounds/1/travellers.pdf")
    assert staff.status_code == 200 and "staff" in staff["Content-Disposition"]
    assert "no-store" in staff["Cache-Control"] and len(renders) == 2


def test_a_rounds_travellers_build_no_paragraph_per_row(published, monkeypatch):
    """Each reportlab Paragraph parsed its text as markup (~1 ms a cell, six cells a row, wrapped
    again at every page split): 4,800 rows took half a minute. The cells are plain now; the
    paragraphs left are the title lines, one per board and two per file."""
    made = []
    original = paragraph.Paragraph.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(paragraph.Paragraph, "__init__", counted)
    from scoring.models import Deal

    rnd = published.rounds.get(number=1)
    deals = Deal.objects.counted().filter(table__round=rnd)
    boards = deals.values("board").distinct().count()
    assert deals.count() > boards  # more than one table a board: a cell per row would show
    files.travellers_pdf(published, rnd).write(io.BytesIO())
    assert len(made) <= boards + 3


def test_the_travellers_of_a_round_read_its_deals_in_a_bounded_number_of_queries(
    published, django_assert_max_num_queries
):
    from scoring.results.travellers import round_travellers

    rnd = published.rounds.get(number=1)
    with django_assert_max_num_queries(6):  # the tables with their people, the deals, the rules
        boards = round_travellers(published, rnd)
    assert boards and all(len(found) == rnd.tables.count() for _board, found in boards)
