"""跑胡子's entry page by keyboard on a phone (the director's report): Enter follows the fields in
the order the page shows them — 王霸 of E, then S, then W, then 胡息 — so no key lands one field
late; 王霸 left empty is 0 (nobody holds one) and is never asked for again. Expected scores are
the law's worked example PHZ01 (shared/rules/games/examples.json)."""

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from tests.archives import PAOHUZI, game_examples, paohuzi_archive
from tests.conftest import new_page, signed_in
from tests.referee_setup import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PHZ01 = game_examples(PAOHUZI)["PHZ01"]  # S wins 21 胡息, 5 红字, turned by W, 3 省; nobody holds 王霸


def test_enter_walks_the_fields_in_the_pages_order(live_server, browser):
    event = import_archive(paohuzi_archive(tables={1: (), 2: ()}))
    make_user("referee1", "referee", event)
    page = new_page(browser, **PHONE)
    signed_in(page, live_server.url, "referee1")
    page.goto(f"{live_server.url}/referee/{event.slug}/rounds/1/tables/1/boards/1/")
    expect(page.locator("#fields-progress")).to_have_text("还要填：胡牌者")  # not 王霸: empty is 0
    expect(page.locator('.field-row[data-key="winner"] input').first).to_be_focused()
    page.keyboard.press("s")  # the winner by its seat letter; the focus moves on
    for seat in ("E", "S", "W"):  # 王霸 of each seat in turn: Enter leaves it empty (0)
        expect(page.locator(f'input[name="wangba-{seat}"]')).to_be_focused()
        page.keyboard.press("Enter")
    expect(page.locator('input[name="huxi"]')).to_be_focused()
    page.keyboard.type("21")
    page.keyboard.press("Enter")
    expect(page.locator('input[name="red"]')).to_be_focused()
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    page.keyboard.press("f")  # 他家翻出
    page.keyboard.press("w")  # turned by W
    page.keyboard.press("Enter")  # 王钓: none, the law's default
    expect(page.locator('input[name="xing"]')).to_be_focused()
    page.keyboard.type("3")
    for seat, score in PHZ01["expected"]["scores"].items():
        expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text(str(score))
    expect(page.locator("#problems li")).to_have_count(0)
    for seat in ("E", "S", "W"):
        expect(page.locator(f'input[name="wangba-{seat}"]')).to_have_value("")
    expect(page.locator('input[name="huxi"]')).to_have_value("21")
