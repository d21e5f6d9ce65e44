"""Players score a 升级 and a 跑胡子 table from a phone, in Chromium: 升级's 台上 is asked on the
table's first deal only (the later ones carry the match's state), and a 跑胡子 deal first begun
as a win then recorded as a 黄庄 is sent without the win's fields. Scores are worked by hand from
the law (§2.3 and §3.4) or are its worked examples (examples.json)."""

import re

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.models import Deal, Entrant, Table
from tests.archives import PAOHUZI, game_examples, paohuzi_archive, shengji_archive
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def players_event(archive):
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def pick(page, key, word):
    page.locator(f'.field-row[data-key="{key}"] label').filter(has_text=re.compile(f"^{re.escape(word)}$")).click()


def save(page, board, code):
    page.fill("#entry-code", code)
    page.click("#save")
    expect(page.locator(f'#boards button[data-board="{board}"]')).to_have_class(re.compile("draft"))


def test_a_shengji_table_asks_the_side_on_top_on_its_first_deal_only(live_server, browser):
    event = players_event(shengji_archive(table_one=[], table_two=[], status="in_play"))
    table = Table.objects.get(round__event=event, number=1)
    code = Entrant.objects.get(event=event, code="A").access_code
    page = new_page(browser, **PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.click('#boards button[data-board="1"]')
    expect(page.locator('.field-row[data-key="declarer"]')).to_be_visible()
    pick(page, "declarer", "南北(NS)")
    page.fill('input[name="points"]', "40")
    # §2.3 S2, from A: 40 points to 台下 is under 50, NS on 台上 go up two levels: 2 to each NS seat.
    expect(page.locator("#preview-scores [data-seat]")).to_have_text(["2", "0", "2", "0"])
    save(page, 1, code)
    page.click('#boards button[data-board="2"]')
    expect(page.locator('.field-row[data-key="declarer"]')).to_be_hidden()
    page.fill('input[name="points"]', "60")
    expect(page.locator("#preview-scores [data-seat]")).to_have_text(["1", "0", "1", "0"])  # S3: NS 3→4
    save(page, 2, code)
    stored = Deal.objects.get(table=table, board=2)
    assert stored.game_data["state"] == {"declarer": "NS", "levels": {"NS": 3, "EW": 1}}
    page.context.close()


def test_a_paohuzi_deal_recorded_as_huang_sends_no_win_fields(live_server, browser):
    examples = game_examples(PAOHUZI)
    event = players_event(paohuzi_archive(tables={1: (), 2: ()}, status="in_play"))
    table = Table.objects.get(round__event=event, number=1)
    code = Entrant.objects.get(event=event, code="p01").access_code
    page = new_page(browser, **PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.click('#boards button[data-board="1"]')
    pick(page, "winner", "S")
    page.fill('input[name="huxi"]', "21")
    # PHZ13: a 黄庄 with both 王霸 in East's hand; East pays each other seat 10.
    pick(page, "winner", "黄庄")
    page.fill('input[name="wangba-E"]', "2")
    scores = examples["PHZ13"]["expected"]["scores"]
    expect(page.locator("#preview-scores [data-seat]")).to_have_text([str(scores[s]) for s in "ESW"])
    save(page, 1, code)
    stored = Deal.objects.get(table=table, board=1)
    assert stored.game_data["winner"] is None and "huxi" not in stored.game_data
    assert stored.scores == {"N": 0, **scores}
    page.context.close()
