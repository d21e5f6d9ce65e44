"""A 蚌埠斗地主 event run through the pages in Chromium at tablet size (issue 24).

From one superuser (the shell's one step): create the event from the console choosing the
game, add two referees and eight players, pair round 1, enter each table's deal by keyboard on
the game's entry page with the live score shown, confirm as the second referee, publish, read
the public standings and download the standings workbook. Expected figures are the law's
worked examples (shared/rules/games/examples.json: DDZ14 at table 1, DDZ22 at table 2), each
seat's score going to whoever the draw seated there.
"""

import io
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from openpyxl import load_workbook
from playwright.sync_api import expect

from scoring.models import Deal, Event, Table
from tests.archives import DOUDIZHU, game_examples
from tests.browser.test_event_from_scratch_browser import add_players, add_referees, new_page, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_PASSWORD = "Dou-di-zhu-admin-2026"
REFEREE_PASSWORD = "Bang-bu-fei-dan-7"
NAME = "2026 蚌埠斗地主公开赛"
PLAYERS = ["周建国", "吴秀珍", "郑海波", "王丽娟", "冯志刚", "陈晓燕", "褚文斌", "卫红梅"]
EXAMPLES = game_examples(DOUDIZHU)
SHOTS = os.environ.get("HUAPAI_SCREENSHOTS")  # a folder: the entry page's screenshots are saved there
# What each table enters, as keys on the entry page: the landlord, the bid, Enter past 明打,
# who went out first; then the 飞弹 typed into the seats' count boxes.
TABLE_DEALS = {1: ("DDZ14", "wg", "w", {"W": "1"}), 2: ("DDZ22", "n1", "n", {"N": "1", "W": "1"})}


def create_event(page, base):
    page.goto(base + "/organiser/")
    page.click("text=创建赛事")
    page.fill("#id_name", NAME)
    page.select_option("#id_game", DOUDIZHU)
    page.click("#event-form button[type=submit]")  # another game: its own fields, nothing saved
    expect(page.locator("#id_option_deals_per_match")).to_be_visible()
    expect(page.locator("#id_first_exposure")).to_have_count(0)
    expect(page.locator("#id_kind")).to_have_value("individual")
    page.fill("#id_option_deals_per_match", "1")  # one deal a match keeps the test short
    page.fill("#id_correction_minutes", "0")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/organiser/*/")
    expect(page.locator("#rules-in-force")).to_contain_text("蚌埠斗地主 (bengbu-doudizhu)")
    expect(page.locator("#rules-in-force")).to_contain_text("每场 1 副")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def add_people(page):
    add_referees(page, REFEREE_PASSWORD)
    add_players(page, PLAYERS, "D", "蚌埠")


def enter_deal(browser, base, slug, table):
    """referee1 enters the table's one deal by keyboard; the engine's score shows as they type."""
    name, keys, first_out, feidan = TABLE_DEALS[table]
    page = new_page(browser)
    sign_in(page, base, "referee1", REFEREE_PASSWORD)
    page.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/1/")
    expect(page.locator('.field-row[data-key="landlord"] input').first).to_be_focused()
    landlord, bid = keys
    page.keyboard.press(landlord)
    page.keyboard.press(bid)
    expect(page.locator('.field-row[data-key="open"] input')).to_be_focused()
    page.keyboard.press("Enter")  # 明打 left as it is (搶牌 is 明打 without saying so)
    page.keyboard.press(first_out)
    expect(page.locator('input[name="feidan-N"]')).to_be_focused()
    for seat in ("N", "E", "S", "W"):
        if seat in feidan:
            page.keyboard.type(feidan[seat])
        if seat != "W":
            page.keyboard.press("Tab")
    expected = EXAMPLES[name]["expected"]["scores"]
    for seat, score in expected.items():  # the live score: the engine's, through the preview
        expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text(str(score))
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"doudizhu-entry-table-{table}.png"), full_page=True)
    page.keyboard.press("Control+s")
    page.wait_for_selector("#deal-status:has-text('v1')")
    page.context.close()


def test_a_doudizhu_event_from_the_console(live_server, browser):
    base = live_server.url
    get_user_model().objects.create_superuser("admin", password=ADMIN_PASSWORD)
    director = new_page(browser)
    sign_in(director, base, "admin", ADMIN_PASSWORD, lands="organiser")
    slug = create_event(director, base)
    event = Event.objects.get(slug=slug)
    assert event.game == DOUDIZHU and event.kind == "individual" and event.match_length == 1
    add_people(director)

    director.click("nav >> text=编排")
    director.wait_for_selector("#pairing-form")
    director.click("#pairing-form button[type=submit]")
    director.wait_for_url("**/rounds/1/")
    tables = {t.number: t.seat_players() for t in Table.objects.filter(round__event=event).select_related(
        "north", "east", "south", "west")}  # fmt: skip
    assert sorted(tables) == [1, 2]

    for table in TABLE_DEALS:
        enter_deal(browser, base, slug, table)
    second = new_page(browser)
    sign_in(second, base, "referee2", REFEREE_PASSWORD)
    for table in TABLE_DEALS:
        second.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/1/")
        second.click("#confirm")
        second.wait_for_selector("#deal-status:has-text('已确认')")
    second.context.close()
    assert Deal.objects.filter(table__round__event=event, status="confirmed").count() == 2

    director.goto(f"{base}/organiser/{slug}/rounds/1/")
    director.click("#publish-round")
    director.wait_for_selector("h1 .badge.provisional")

    # Each player's total: the worked example's score of the seat the draw gave them.
    expected = {}
    for table, (name, *_rest) in TABLE_DEALS.items():
        for seat, player in tables[table].items():
            expected[player.code] = EXAMPLES[name]["expected"]["scores"][seat]
    public = new_page(browser)
    public.goto(f"{base}/events/{slug}/standings/")
    rows = public.locator("#standings tbody tr")
    expect(rows).to_have_count(8)
    shown = {}
    for index in range(8):
        cells = rows.nth(index).locator("td")
        shown[cells.nth(1).inner_text().strip()] = int(cells.nth(4).inner_text())
    assert shown == expected
    public.context.close()

    director.goto(f"{base}/organiser/{slug}/")
    with director.expect_download() as caught:
        director.click("text=排名表 Excel")
    sheet = load_workbook(io.BytesIO(Path(caught.value.path()).read_bytes())).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    rows = [dict(zip(header, row, strict=True)) for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert {row["编号"]: row["总得分"] for row in rows} == expected
    assert [row["总得分"] for row in rows] == sorted(expected.values(), reverse=True)
    director.context.close()
