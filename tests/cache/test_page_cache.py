"""Public pages cached whole and validated (issue 13): never stale, 304 for a phone that
refreshes, compressed once, personal pages never shared."""

import gzip

import pytest
from django.test import Client

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Table
from scoring.rounds.creation import round_pair
from tests.archives import four_pairs_two_rounds
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db

PAGES = [
    "/events/t-pairs/",
    "/events/t-pairs/standings/",
    "/events/t-pairs/entrants/A/",
    "/events/t-pairs/rounds/1/",
    "/events/t-pairs/rounds/1/boards/1/",
    "/events/t-pairs/changes/",
]


@pytest.fixture
def imported():
    from scoring.archive.database import import_archive

    return import_archive(four_pairs_two_rounds())


@pytest.mark.parametrize("url", PAGES)
def test_a_second_visitor_gets_the_same_page_from_the_cache(imported, url, django_assert_max_num_queries):
    first = Client().get(url)
    assert first.status_code == 200 and first["ETag"]
    with django_assert_max_num_queries(1):  # the version and the rounds' states in one statement, no render
        second = Client().get(url)
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert "public" in second["Cache-Control"]


@pytest.mark.parametrize("url", PAGES)
def test_a_phone_that_refreshes_gets_a_304(imported, url):
    etag = Client().get(url)["ETag"]
    again = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""


def test_a_page_is_compressed_once_for_those_who_accept_gzip(imported):
    plain = Client().get("/events/t-pairs/standings/")
    packed = Client().get("/events/t-pairs/standings/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3
    assert "Accept-Encoding" in packed["Vary"]


def test_a_correction_to_a_published_round_changes_the_page_at_once(event, people):
    url = "/events/t-pairs/rounds/1/boards/1/"
    before = Client().get(url)
    deal = Deal.objects.get(table__round__event=event, table__round__number=1, table__number=1, board=1)
    changed = example_deal("T2")
    deal_save(
        table=deal.table,
        board=1,
        deal_json=changed,
        user=people["organiser"],
        expected_version=deal.version,
        reason="更正",
    )
    after = Client().get(url)
    assert after.content != before.content
    assert Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200


def test_pairing_and_starting_a_round_change_the_event_page(imported):
    from tests.referee_setup import make_user

    before = Client().get("/events/t-pairs/").content.decode()
    rnd, _pairing = round_pair(imported, "swiss")
    paired = Client().get("/events/t-pairs/").content.decode()
    assert paired != before and "未开始" in paired
    table = Table.objects.filter(round=rnd).first()
    referee = make_user("ref-x", "referee", imported)
    deal_save(table=table, board=1, deal_json=example_deal(), user=referee)
    assert "进行中" in Client().get("/events/t-pairs/").content.decode()


def test_unpublished_results_never_reach_the_cached_pages(event, people):
    """Round 3 is entered and confirmed but not published: the public pages do not move."""

    def standings_table(response):  # the standings themselves (the page's own version tag moves with round 3's state)
        text = response.content.decode()
        return text[text.index("<table") : text.index("</table>")]

    standings = standings_table(Client().get("/events/t-pairs/standings/"))
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    deal, _ = deal_save(table=table, board=1, deal_json=example_deal(), user=people["referee1"])
    deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    assert standings_table(Client().get("/events/t-pairs/standings/")) == standings
    assert Client().get("/events/t-pairs/rounds/3/").status_code == 404


def test_signed_in_users_and_searches_are_never_served_from_the_shared_cache(event, people):
    anonymous = Client().get("/events/t-pairs/standings/").content.decode()
    organiser = Client()
    organiser.force_login(people["organiser"])
    own = organiser.get("/events/t-pairs/standings/")
    assert "organiser" in own.content.decode() and "organiser" not in anonymous
    assert "ETag" not in own
    search = Client().get("/events/t-pairs/standings/?q=A")
    assert "ETag" not in search


def test_each_language_has_its_own_page(imported):
    chinese = Client().get("/events/t-pairs/standings/")
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/events/t-pairs/standings/")
    assert chinese["ETag"] != english["ETag"]
    assert "Standings" in english.content.decode() and "Standings" not in chinese.content.decode()


def test_the_language_link_keeps_the_page_and_refuses_other_sites(imported):
    client = Client()
    response = client.get("/language/en/?next=/events/t-pairs/standings/")
    assert response.status_code == 302 and response["Location"] == "/events/t-pairs/standings/"
    assert client.cookies["django_language"].value == "en"
    assert Client().get("/language/en/?next=https://evil.example/").headers["Location"] == "/"
    assert Client().get("/language/xx/").status_code == 404


def test_a_stored_page_is_answered_before_sessions_with_the_security_headers(imported, django_assert_max_num_queries):
    from scoring.cache.pages import PublicPageMiddleware

    url = "/events/t-pairs/standings/"
    first = Client().get(url)
    calls = []
    original = PublicPageMiddleware._answer

    def recording(self, request):
        answer = original(self, request)
        calls.append(answer is not None)
        return answer

    PublicPageMiddleware._answer = recording
    try:
        with django_assert_max_num_queries(1):
            second = Client().get(url)
    finally:
        PublicPageMiddleware._answer = original
    assert calls == [True]  # answered by the middleware, the view never ran
    assert second.content == first.content
    assert second["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in second["Content-Security-Policy"]


def test_an_entrant_page_shows_its_public_rank_and_totals(imported):
    from scoring.results.standings import event_standings

    rows = event_standings(imported, published_only=True)
    page = Client().get(f"/events/t-pairs/entrants/{rows[1].id}/")
    standing = page.context["standing"]
    assert (standing.id, standing.rank, page.context["count"]) == (rows[1].id, rows[1].rank, len(rows))
    assert f"<dd>{rows[1].match_points}</dd>" in page.content.decode()


def test_a_worker_reads_the_public_version_at_most_once_a_second(imported, settings, django_assert_num_queries):
    from scoring.cache import pages as page_cache

    settings.HUAPAI_PAGE_STAMP_SECONDS = 60
    page_cache._recent_stamps.clear()
    Client().get("/events/t-pairs/standings/")
    with django_assert_num_queries(0):  # the stored page, and this process's recent reading of the version
        again = Client().get("/events/t-pairs/standings/")
    assert again.status_code == 200
    page_cache._recent_stamps.clear()


def test_the_public_penalty_list_shows_published_rulings_only(client, event, people):
    from scoring.entry.services import deal_save, irregularity_record
    from scoring.models import Deal, Table
    from tests.referee_setup import example_deal

    deal = Deal.objects.get(table__round__event=event, table__round__number=1, table__number=1, board=1)
    irregularity_record(
        deal=deal,
        user=people["organiser"],
        seat="E",
        kind="revoke",
        ruling="东家藏牌，罚 50",
        penalty=-50,
        expected_version=deal.version,
    )
    hidden = Table.objects.get(round__event=event, round__number=3, number=1)
    unpublished = example_deal()
    unpublished["penalties"] = {"N": -30}
    deal_save(table=hidden, board=1, deal_json=unpublished, user=people["referee1"])
    rows = client.get("/events/t-pairs/penalties/").context["rows"]
    assert [(r["round"], r["board"], r["seat"], r["points"], r["ruling"]) for r in rows] == [
        (1, 1, "E", -50, "东家藏牌，罚 50")
    ]
    assert rows[0]["kind"] == "藏牌" and rows[0]["player"]
