"""The page cache and the public views agree on the shared parameters (`page`, `per_page`,
`after`: `scoring.cache.page_query`): a value the cache keeps in its address is one the view
reads, and a value the cache drops (a redirect to the page's canonical address) is one the view
ignores or refuses — so a visitor the cache serves and one it lets through (a search, `q`) see
the same page."""

import re
from urllib.parse import quote

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.cache import pages
from scoring.cache.page_query import PageQuery, is_shared_value
from tests.archives import deal, pairs_archive

pytestmark = pytest.mark.django_db

CODES = [f"P{i:02d}" for i in range(1, 31)]  # 30 rows: two pages of 25
STANDINGS = "/events/t-big/standings/"
VALUES = [
    *("1", "2", "3", "25", "50", "100", "500", "999"),
    *("", "0", "7", "1000", "01", "+1", " 1", "1_0", "１", "²", "-5", "1.0", "abc", "\x00"),
    *("99999999999999999999", "9" * 5000),
]


@pytest.fixture
def thirty_pairs():
    names = ["T1", "T2", "T7"]
    rounds = [
        {
            "number": number,
            "status": status,
            "matches": [
                {"table": t + 1, "ns": CODES[ns], "ew": CODES[ew], "deals": [deal(names[t % 3], 1)]}
                for t, (ns, ew) in enumerate(seats)
            ],
        }
        for number, status, seats in (
            (1, "official", [(t, t + 15) for t in range(15)]),
            (2, "provisional", [(2 * t, 2 * t + 1) for t in range(15)]),
        )
    ]
    return import_archive(pairs_archive(CODES, rounds, slug="t-big"))


def shown(response):
    """What a standings answer shows: its status, heading and the entrants of its rows in order."""
    if response.status_code != 200:
        return response.status_code, None, None
    text = response.content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", text, re.S).group(1)
    return 200, heading, re.findall(r'href="/events/t-big/entrants/(P\d\d)/"', text)


def address(name, value):
    base = "" if name == "per_page" else "per_page=25&"
    return f"{STANDINGS}?{base}{name}={quote(value)}"


def through_the_cache(url):
    """`(kept, what an anonymous visitor ends up seeing)`: kept when the cache answers the
    address itself, not a redirect to its canonical one."""
    response = Client().get(url)
    if response.status_code == 302:
        return False, shown(Client().get(response["Location"]))
    return True, shown(response)


def past_the_cache(url):
    """What a visitor the cache lets through sees: a search (here for everything) is the view's alone."""
    return shown(Client().get(f"{url}&q="))


@pytest.mark.parametrize("name", ["page", "per_page", "after"])
def test_a_value_the_cache_keeps_the_view_reads_and_one_it_drops_the_view_ignores_or_refuses(thirty_pairs, name):
    without = past_the_cache(address(name, ""))
    for value in VALUES:
        url = address(name, value)
        kept, cached = through_the_cache(url)
        seen = past_the_cache(url)
        # A page past the last (two pages here) is redirected to the last, never stored (issue 37).
        past_the_last = name == "page" and is_shared_value(name, value) and int(value) > 2
        assert kept == (is_shared_value(name, value) and not past_the_last), (name, value)
        if kept or past_the_last:
            assert seen == cached, (name, value)
        else:
            # Dropped: the view reads it as absent (the page the cache redirected to), or refuses it.
            assert seen in (without, (404, None, None)), (name, value)
            assert cached == without, (name, value)


def test_what_each_value_shows(thirty_pairs):
    first = past_the_cache(address("page", "1"))
    second = past_the_cache(address("page", "2"))
    assert len(first[2]) == 25 and len(second[2]) == 5
    # A page past the last is the last (a redirect to it, or a search's own page); a page the cache
    # drops is the first, for every visitor.
    for value, page in [("2", second), ("999", second), ("0", first), ("1000", first), ("02", first)]:
        assert past_the_cache(address("page", value)) == through_the_cache(address("page", value))[1] == page
    assert len(past_the_cache(address("per_page", "25"))[2]) == 25
    assert len(past_the_cache(address("per_page", "7"))[2]) == 30  # the default, 100
    assert "第 1 轮后" in past_the_cache(address("after", "1"))[1]
    # A round number spelt otherwise is a bad round to the view, and dropped by the cache.
    assert past_the_cache(address("after", "01"))[0] == 404
    assert through_the_cache(address("after", "01")) == (False, past_the_cache(STANDINGS + "?per_page=25"))
    assert past_the_cache(address("after", "3"))[0] == 404  # not published (no such round)


def test_the_cache_keeps_exactly_what_the_form_reads(rf):
    for name in ("page", "per_page", "after", "sort", "q"):
        for value in VALUES:
            request = rf.get(STANDINGS, {name: value})
            kept = pages.canonical_query(request) == f"{name}={quote(value)}"
            read = PageQuery.read(request.GET).value(name)
            assert kept == (read is not None) == is_shared_value(name, value), (name, value)


def test_a_page_past_the_last_is_a_redirect_to_the_last_and_never_stored(thirty_pairs):
    from django.core.cache import cache

    Client().get(f"{STANDINGS}?page=2&per_page=25")  # the last page, stored
    stored = len(cache._cache)
    for number in (3, 4, 50, 999):
        answer = Client().get(f"{STANDINGS}?page={number}&per_page=25")
        assert answer.status_code == 302 and answer["Location"] == f"{STANDINGS}?page=2&per_page=25"
    assert len(cache._cache) == stored  # no page past the last took a cache entry
    # One page in all at a larger size: the redirect drops `page`.
    assert Client().get(f"{STANDINGS}?page=2&per_page=100")["Location"] == f"{STANDINGS}?per_page=100"
    statistics = Client().get("/events/t-big/statistics/?page=7")
    assert statistics.status_code == 302 and statistics["Location"] == "/events/t-big/statistics/"
