"""Only canonical addresses reach the page cache (issue 20): random parameters or values are
redirected to the page's own address, parameters in another order share one entry, the
standings picture is bounded, a withdrawn draw is not handed out again, and a cached page is
never answered to a Host the site does not serve."""

import random
import string

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from scoring.archive.database import import_archive
from scoring.cache import pages
from scoring.rounds.creation import round_pair, round_release_draw, round_repair
from scoring.web.public import views
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    return import_archive(four_pairs_two_rounds())


def stored_keys():
    return len(cache._cache)  # the tests' local-memory cache


def random_word(rng):
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 12)))


def test_random_sort_values_are_redirected_and_store_nothing(imported):
    Client().get("/events/t-pairs/standings/")
    before = stored_keys()
    rng = random.Random(20)
    for _ in range(60):
        response = Client().get(f"/events/t-pairs/standings/?sort={random_word(rng)}")
        assert response.status_code == 302 and response["Location"] == "/events/t-pairs/standings/"
    assert stored_keys() == before


def test_unknown_parameters_and_values_go_to_the_canonical_address(imported):
    for junk, canonical in [
        ("?per_page=7", ""),
        ("?after=1&utm=x", "?after=1"),
        ("?page=0", ""),
        ("?sort=-match_points&sort=rank", "?sort=rank"),
        ("?after=1&after=1", "?after=1"),
    ]:
        response = Client().get(f"/events/t-pairs/standings/{junk}")
        assert response.status_code == 302 and response["Location"] == f"/events/t-pairs/standings/{canonical}"


def test_the_same_parameters_in_another_order_are_one_entry(imported):
    first = Client().get("/events/t-pairs/standings/?sort=-total_score&after=1")
    stored = stored_keys()
    second = Client().get("/events/t-pairs/standings/?after=1&sort=-total_score")
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert stored_keys() == stored


def test_a_search_is_rendered_for_its_asker_and_not_stored(imported):
    Client().get("/events/t-pairs/standings/")
    before = stored_keys()
    rng = random.Random(3)
    for _ in range(20):
        assert Client().get(f"/events/t-pairs/standings/?q={random_word(rng)}").status_code == 200
    assert stored_keys() == before


def test_the_standings_picture_has_at_most_a_hundred_rows_and_random_addresses_redirect(imported, monkeypatch):
    drawn = []
    monkeypatch.setattr(views.image, "write_public_standings", lambda out, *a, **k: drawn.append(a[1]) or None)
    assert Client().get("/events/t-pairs/standings.png?per_page=500&sort=zzz")["Location"] == (
        "/events/t-pairs/standings.png?per_page=500"
    )
    assert Client().get("/events/t-pairs/standings.png?per_page=500")["Location"].endswith("per_page=100")
    assert Client().get("/events/t-pairs/standings.png?per_page=100").status_code == 200
    assert Client().get("/events/t-pairs/standings.png?per_page=100").status_code == 200  # from the cache
    assert len(drawn) == 1


@override_settings(PUBLIC_URL="https://huapai.example.org", ALLOWED_HOSTS=["testserver", "mirror.example"])
def test_the_picture_prints_the_sites_own_address_never_the_askers_host(imported, monkeypatch):
    addresses = []
    monkeypatch.setattr(views.image, "write_public_standings", lambda out, *a, **k: addresses.append(k["address"]))
    Client().get("/events/t-pairs/standings.png", HTTP_HOST="mirror.example")
    assert addresses == ["https://huapai.example.org/events/t-pairs/standings/"]


def test_a_withdrawn_draw_is_not_handed_out_again(imported):
    rnd = round_pair(imported, "swiss")[0]
    round_release_draw(rnd)
    url = f"/events/t-pairs/rounds/{rnd.number}/draw/"
    assert Client().get(url).status_code == 200
    round_repair(rnd, "swiss")  # the draw is hidden again
    assert Client().get(url).status_code == 404
    # A request waiting for another's render is no longer handed the old draw.
    _key, latest = pages._keys("t-pairs", "zh-hans", url)
    assert cache.get(f"{latest}:identity") is None
    assert Client().get(url).status_code == 404


def test_random_addresses_of_missing_pages_store_nothing(imported):
    Client().get("/events/t-pairs/")
    before = stored_keys()
    rng = random.Random(9)
    for _ in range(40):
        code = "".join(rng.choice(string.ascii_uppercase) for _ in range(8))
        assert Client().get(f"/events/t-pairs/entrants/{code}/").status_code == 404
    assert stored_keys() == before


@override_settings(ALLOWED_HOSTS=["testserver"])
def test_a_cached_page_is_not_answered_to_a_host_the_site_does_not_serve(imported):
    assert Client().get("/events/t-pairs/standings/").status_code == 200  # now stored
    assert Client().get("/events/t-pairs/standings/", HTTP_HOST="evil.example").status_code == 400
