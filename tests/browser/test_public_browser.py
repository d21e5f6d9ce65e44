"""Players on a phone: event, standings, their record, a round and a board traveller, in Chromium."""

import re

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from tests.archives import four_pairs_two_rounds
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(browser):
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield page
    page.context.close()


def test_a_player_finds_their_ranking_and_record_on_a_phone(live_server, phone):
    import_archive(four_pairs_two_rounds())
    phone.goto(live_server.url + "/")
    phone.get_by_role("link", name="测试双人赛").click()
    phone.get_by_role("link", name="排名").first.click()
    phone.fill("input[name=q]", "C")
    phone.get_by_role("button", name="查看").click()
    rows = phone.locator("#standings tbody tr")
    expect(rows).to_have_count(1)
    # The row fits the phone: no horizontal scrolling of the page itself.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    rows.first.locator("a").first.click()
    phone.wait_for_url("**/entrants/C/")
    assert "第 1 轮" in phone.locator("main").inner_text()


def test_round_results_and_board_traveller_compare_tables(live_server, phone):
    import_archive(four_pairs_two_rounds(length=1))
    phone.goto(live_server.url + "/events/t-pairs/rounds/1/")
    results = phone.locator("#round-results tbody tr")
    assert results.count() == 2
    assert "-270" in results.nth(0).inner_text() and "300" in results.nth(1).inner_text()
    phone.get_by_role("link", name="1", exact=True).click()
    phone.wait_for_url("**/rounds/1/boards/1/")
    traveller = phone.locator("#traveller tbody tr")
    assert traveller.count() == 2
    assert "♥A ♥K ♥8 ♥7 ♠Q" in traveller.nth(0).inner_text()


def test_the_english_switch_translates_the_page(live_server, page):
    import_archive(four_pairs_two_rounds())
    page.goto(live_server.url + "/events/t-pairs/standings/")
    page.click(".lang a[hreflang=en]")  # named in its own language: "English"
    # The same address before and after: wait for the English page itself.
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url.endswith("/events/t-pairs/standings/")
    expect(page.locator("h1")).to_contain_text("Standings")
    expect(page.locator("#standings thead")).to_contain_text("Rank")


def test_the_standings_update_on_a_phone_without_a_reload(live_server, browser, settings):
    """A correction of a published round reaches an open standings page by itself."""
    from scoring.entry.services import deal_save
    from scoring.models import Deal
    from tests.referee_setup import example_deal, make_user

    settings.HUAPAI_LIVE_POLL_SECONDS = 1
    event = import_archive(four_pairs_two_rounds())
    organiser = make_user("chief", "organiser", event)
    phone = new_page(browser, viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + "/events/t-pairs/standings/")
    before = phone.locator("#standings tbody").inner_text()
    phone.evaluate("window.stillTheSamePage = true")
    deal = Deal.objects.filter(table__round__event=event, table__round__number=2).order_by("id").first()
    changed = example_deal("T2")
    deal_save(
        table=deal.table,
        board=deal.board,
        deal_json=changed,
        user=organiser,
        expected_version=deal.version,
        reason="更正",
    )
    from scoring.entry.services import deal_confirm

    deal.refresh_from_db()
    deal_confirm(deal=deal, user=make_user("chief2", "organiser", event), expected_version=deal.version)
    expect(phone.locator("#standings tbody")).not_to_have_text(before)  # the next poll brings it
    assert phone.evaluate("window.stillTheSamePage") is True  # swapped in place, not reloaded
    phone.context.close()


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1024, "height": 768}])
def test_player_statistics_and_the_standings_image_on_a_phone_and_a_tablet(live_server, browser, viewport):
    """From the standings to everyone's statistics, sorted by pigs taken, to one's own."""
    import json
    from pathlib import Path

    demo = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "demo-event.json").read_text("utf-8"))
    event = import_archive(demo)
    page = new_page(browser, viewport=viewport, has_touch=True)
    context = page.context
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    image = context.request.get(live_server.url + page.locator("#standings-image").get_attribute("href"))
    assert image.ok and image.headers["content-type"] == "image/png" and image.body()[:4] == b"\x89PNG"
    page.get_by_role("link", name="选手统计").first.click()
    page.get_by_role("link", name="猪").click()
    page.wait_for_url(re.compile(r"\?sort=pigs$"))
    expect(page.get_by_role("link", name="猪")).to_have_attribute("aria-current", "true")
    pigs = page.locator("#statistics tbody tr td:nth-child(3)").all_inner_texts()
    assert pigs == sorted(pigs, key=int, reverse=True) and len(pigs) == 32
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    name_cell = page.locator("#statistics tbody tr").first.locator(".names")
    box = name_cell.bounding_box()
    assert box["height"] < 30  # a name on one line, never broken
    name_cell.locator("a").click()
    page.wait_for_url("**/entrants/**")
    assert page.locator("#player-statistics tbody tr").count() == 2
    context.close()
