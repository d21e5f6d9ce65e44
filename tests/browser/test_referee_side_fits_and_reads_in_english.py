"""The referee side at a tablet's size, and in English (issue 21, items 10 and 11): every link on
the round dashboard is a finger's size, the dashboard and the whole-table check show no Chinese
but names in English, and the statistics page fits a phone."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.models import Player
from tests.conftest import new_page, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAN = re.compile(r"[\u3400-\u9fff]+")
DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo-event.json"


def test_every_link_on_the_round_dashboard_is_at_least_44_pixels(live_server, browser, people):
    from scoring.entry.services import deal_save
    from scoring.models import Table
    from tests.archives import EXAMPLES

    # A 满贯 at table 1 raises a ⚑ flag there: its link to the board is tapped too.
    slam = next(e["deal"] for e in EXAMPLES.values() if any(len(c) == 16 for c in e["deal"]["captured"].values()))
    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    deal_save(table=table, board=1, deal_json=slam, user=people["referee2"])
    page = new_page(browser, viewport={"width": 1024, "height": 768})
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + "/referee/t-pairs/rounds/3/")
    links = page.locator(".dashboard a")
    expect(links.first).to_be_visible()
    expect(page.locator(".dashboard a.grid-flag")).to_have_count(1)
    sizes = [
        (links.nth(index).get_attribute("class"), links.nth(index).inner_text(), links.nth(index).bounding_box())
        for index in range(links.count())
    ]
    small = [(kind, text, box) for kind, text, box in sizes if box["width"] < 44 or box["height"] < 44]
    assert sizes and not small, small[:3]
    page.context.close()


def test_the_referee_side_in_english_shows_no_chinese_but_names(live_server, browser, people):
    from scoring.entry.services import deal_save
    from scoring.models import Table
    from tests.archives import EXAMPLES

    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    exposed = {
        **EXAMPLES["N3"]["deal"],
        "penalties": {"E": -50},
    }
    deal_save(table=table, board=1, deal_json=exposed, user=people["referee1"])
    page = new_page(browser, viewport={"width": 1024, "height": 768})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    signed_in(page, live_server.url, "referee2")
    names = set(Player.objects.filter(event__slug="t-pairs").values_list("name", flat=True))
    names |= {"测试双人赛", "简体中文"}  # the language menu names Chinese in Chinese
    for address in ("/referee/t-pairs/rounds/3/", "/referee/t-pairs/rounds/3/tables/1/confirm/"):
        page.goto(live_server.url + address)
        text = page.locator("body").inner_text()
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        assert HAN.findall(text) == [], (address, HAN.findall(text))
    page.context.close()


def test_the_statistics_page_fits_a_phone_and_names_people_with_pinyin_in_english(live_server, browser):
    event = import_archive(json.loads(DEMO.read_text(encoding="utf-8")))
    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/statistics/")
    expect(page.locator("#statistics tbody tr").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    first = page.locator("#statistics tbody tr .names").first.inner_text()
    assert re.search(r"\([A-Z][a-z]+ [A-Z][a-z]+\)", first), first
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
