"""A 跑胡子 event run through the pages in Chromium at tablet size (issue 24): tables of three.

From one superuser (the shell's one step): create the event from the console choosing the
game, add two referees and seven players, pair round 1 (two tables of three, E S W, and one
player sitting out), enter each table's two deals by keyboard on the game's entry page with the
live score shown (a win and a 黄庄), confirm as the second referee, publish, read the public
standings and download the standings workbook. Expected figures are the law's worked examples
(shared/rules/games/examples.json), each seat's score going to whoever the draw seated there;
the player sitting out scores 0 (docs/games/paohuzi.md).
"""

import io
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from openpyxl import load_workbook
from playwright.sync_api import expect

from scoring.models import Deal, Event, Match, Table
from tests.archives import PAOHUZI, game_examples
from tests.browser.test_event_from_scratch_browser import add_players, add_referees, new_page, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_PASSWORD = "Pao-hu-zi-admin-2026"
REFEREE_PASSWORD = "Yong-zhou-wang-ba-7"
NAME = "2026 永州扯胡子公开赛"
PLAYERS = ["唐志明", "蒋秀英", "邓建华", "黄桂兰", "欧阳军", "蒋红霞", "邓文杰"]
EXAMPLES = game_examples(PAOHUZI)
SHOTS = os.environ.get("HUAPAI_SCREENSHOTS")  # a folder: the entry page's screenshots are saved there
# Each table's two deals: the worked example, and the keys a referee types for it, field by field
# (winner; 王霸 E S W; 胡息; 红字数; 来源; 放炮/翻牌者; 王钓; 省). "" leaves a field as it is (Enter).
TABLE_DEALS = {
    1: [
        ("PHZ01", {"winner": "s", "wangba": ("", "", ""), "huxi": "21", "red": "5", "source": "f", "from": "w",
                   "wang": "", "xing": "3"}),
        ("PHZ13", {"winner": "h", "wangba": ("2", "", "")}),
    ],
    2: [
        ("PHZ07", {"winner": "w", "wangba": ("", "", ""), "huxi": "20", "red": "0", "source": "z", "from": "",
                   "wang": "", "xing": "2"}),
        ("PHZ14", {"winner": "h", "wangba": ("1", "", "1")}),
    ],
}  # fmt: skip


def create_event(page, base):
    page.goto(base + "/organiser/")
    page.click("text=创建赛事")
    page.fill("#id_name", NAME)
    page.select_option("#id_game", PAOHUZI)
    page.click("#event-form button[type=submit]")  # another game: its own fields, nothing saved
    expect(page.locator("#id_option_min_huxi")).to_be_visible()
    expect(page.locator("#id_first_exposure")).to_have_count(0)
    expect(page.locator("#id_kind")).to_have_value("individual")
    page.fill("#id_option_deals_per_match", "2")  # two deals a match keeps the test short
    page.fill("#id_correction_minutes", "0")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/organiser/*/")
    expect(page.locator("#rules-in-force")).to_contain_text("跑胡子 (paohuzi)")
    expect(page.locator("#rules-in-force")).to_contain_text("每场 2 副")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def add_people(page):
    add_referees(page, REFEREE_PASSWORD)
    add_players(page, PLAYERS, "Z", "永州")


def type_deal(page, keys):
    """The deal by keyboard, field after field, as the page moves the focus on."""
    expect(page.locator('.field-row[data-key="winner"] input').first).to_be_focused()
    page.keyboard.press(keys["winner"])  # a seat by its letter, or H for 黄庄; the focus moves on
    expect(page.locator('input[name="wangba-E"]')).to_be_focused()
    for index, count in enumerate(keys["wangba"]):
        if count:
            page.keyboard.type(count)
        if index < 2:
            page.keyboard.press("Tab")
    if keys["winner"] == "h":  # 黄庄: the fields only a winner has are off
        expect(page.locator('input[name="huxi"]')).to_be_disabled()
        return
    page.keyboard.press("Enter")
    expect(page.locator('input[name="huxi"]')).to_be_focused()
    for field in ("huxi", "red"):
        page.keyboard.type(keys[field])
        page.keyboard.press("Enter")
    page.keyboard.press(keys["source"])  # Z 自摸, F 他家翻出, P 放炮: the focus moves on
    expect(page.locator('.field-row[data-key="from"] input').first).to_be_focused()
    page.keyboard.press(keys["from"] or "Enter")
    expect(page.locator('.field-row[data-key="wang"] input:checked')).to_be_focused()  # 无, the law's default
    page.keyboard.press("Enter")
    expect(page.locator('input[name="xing"]')).to_be_focused()
    page.keyboard.type(keys["xing"])


def enter_deals(browser, base, slug, table):
    """referee1 enters the table's deals by keyboard; the engine's score shows as they type."""
    page = new_page(browser)
    sign_in(page, base, "referee1", REFEREE_PASSWORD)
    page.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/1/")
    expect(page.locator('input[name="wangba-N"]')).to_have_count(0)  # North stays empty
    totals = dict.fromkeys("ESW", 0)
    for board, (name, keys) in enumerate(TABLE_DEALS[table], start=1):
        type_deal(page, keys)
        expected = EXAMPLES[name]["expected"]["scores"]
        for seat, score in expected.items():  # the live score: the engine's, through the preview
            expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text(str(score))
            totals[seat] += score
        for seat, total in totals.items():  # the table's running total, this deal included
            expect(page.locator(f'#preview-scores [data-total="{seat}"]')).to_have_text(str(total))
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / f"paohuzi-entry-{table}-{board}.png"), full_page=True)
        if board == 1:
            page.keyboard.press("Control+Enter")  # save and open the next board
            page.wait_for_url(f"**/tables/{table}/boards/2/")
        else:
            page.keyboard.press("Control+s")
            page.wait_for_selector("#deal-status:has-text('v1')")
    page.context.close()


def test_a_paohuzi_event_of_tables_of_three_from_the_console(live_server, browser):
    base = live_server.url
    get_user_model().objects.create_superuser("admin", password=ADMIN_PASSWORD)
    director = new_page(browser)
    sign_in(director, base, "admin", ADMIN_PASSWORD, lands="organiser")
    slug = create_event(director, base)
    event = Event.objects.get(slug=slug)
    assert event.game == PAOHUZI and event.kind == "individual" and event.match_length == 2
    add_people(director)

    director.click("nav >> text=编排")
    director.wait_for_selector("#pairing-form")
    director.click("#pairing-form button[type=submit]")
    director.wait_for_url("**/rounds/1/")
    expect(director.locator("#byes")).to_contain_text("Z07")  # seven players: the last sits out
    tables = {t.number: t.seat_players() for t in Table.objects.filter(round__event=event).select_related(
        "north", "east", "south", "west")}  # fmt: skip
    assert sorted(tables) == [1, 2] and all(seats["N"] is None for seats in tables.values())
    out = [m.bye.code for m in Match.objects.filter(round__event=event, bye__isnull=False).select_related("bye")]
    assert out == ["Z07"]

    for table in TABLE_DEALS:
        enter_deals(browser, base, slug, table)
    assert Deal.objects.filter(table__round__event=event, status="draft").count() == 4
    second = new_page(browser)
    sign_in(second, base, "referee2", REFEREE_PASSWORD)
    for table in TABLE_DEALS:
        for board in (1, 2):
            second.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/{board}/")
            second.click("#confirm")
            second.wait_for_selector("#deal-status:has-text('已确认')")
    second.context.close()
    assert Deal.objects.filter(table__round__event=event, status="confirmed").count() == 4

    director.goto(f"{base}/organiser/{slug}/rounds/1/")
    director.click("#publish-round")
    director.wait_for_selector("h1 .badge.provisional")

    # Each player's total: the worked examples' scores of the seat the draw gave them; Z07 sat out.
    expected = {"Z07": 0}
    for table, deals in TABLE_DEALS.items():
        for seat, player in tables[table].items():
            if player is not None:
                expected[player.code] = sum(EXAMPLES[name]["expected"]["scores"][seat] for name, _keys in deals)
    public = new_page(browser)
    public.goto(f"{base}/events/{slug}/standings/")
    rows = public.locator("#standings tbody tr")
    expect(rows).to_have_count(7)
    shown = {}
    for index in range(7):
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
