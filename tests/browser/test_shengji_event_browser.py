"""A 升级 pairs event run through the pages in Chromium at tablet size (issue 24).

From one superuser (the shell's one step): create the event from the console choosing 升级
(matches of two deals, no target: law §2.1 M3), add two referees and four pairs, pair round 1,
enter each table's two deals by keyboard on the game's entry page — 台上 on the first deal only,
台下's points — with the live score and the level state before and after shown, confirm as the
second referee, publish, read the public standings and download the standings workbook.

Expected figures are the law's worked examples (shared/rules/games/examples.json): table 1
plays SJM5 (60 then 130: equal levels, a draw), table 2 plays SJ01 then SJ02 (40 then 80 from
NS on 台上: NS at 4, EW at A, NS win). 场分 win 2, draw 1, loss 0; the level difference is the
first tie-break (§2.1 Standings).
"""

import io
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from openpyxl import load_workbook
from playwright.sync_api import expect

from scoring.games.shengji import rank
from scoring.models import Deal, Event, Table
from tests.archives import SHENGJI, game_examples
from tests.browser.test_event_from_scratch_browser import add_referees, new_page, sign_in
from tests.conftest import new_page as conftest_new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_PASSWORD = "Sheng-ji-admin-2026"
REFEREE_PASSWORD = "Da-guo-A-ji-7"
NAME = "2026 升级双人公开赛"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PAIRS = [("林国平", "何美玲"), ("高志强", "罗春华"), ("梁永红", "宋建华"), ("唐晓东", "许丽萍")]
EXAMPLES = game_examples(SHENGJI)
SHOTS = os.environ.get("HUAPAI_SCREENSHOTS")  # a folder: the entry page's screenshots are saved there


def worked(names):
    """A table's deals from worked examples: [(台上 key on the first deal, points, seat scores,
    levels after)], and its final levels."""
    deals = []
    for name in names:
        example = EXAMPLES[name]
        deal = example["deal"]
        key = deal.get("declarer", "")[:1].lower()
        deals.append((key, deal["points"], example["expected"]["scores"], example["expected"]["state"]["levels"]))
    return deals


def match_example(name):
    """SJM5's deals with each one's scores and state, worked from the match's own list: the state
    after each deal is §2.3 applied to the one before (checked at the end against the example)."""
    example = EXAMPLES[name]
    first, second = example["match"]
    # 60 from NS on 台上 at A (S3): NS up one. 130 (S5): the sides swap, EW up one.
    deals = [
        ("n", first["points"], {"N": 1, "E": 0, "S": 1, "W": 0}, {"NS": 2, "EW": 1}),
        ("", second["points"], {"N": 0, "E": 1, "S": 0, "W": 1}, {"NS": 2, "EW": 2}),
    ]
    assert deals[-1][3] == example["expected"]["state"]["levels"] and example["expected"]["winner"] == "draw"
    return deals


TABLE_DEALS = {1: match_example("SJM5"), 2: worked(("SJ01", "SJ02"))}


def create_event(page, base):
    page.goto(base + "/organiser/")
    page.click("text=创建赛事")
    page.fill("#id_name", NAME)
    page.select_option("#id_game", SHENGJI)
    page.click("#event-form button[type=submit]")  # another game: its own fields, nothing saved
    expect(page.locator("#id_option_target")).to_be_visible()
    expect(page.locator("#id_first_exposure")).to_have_count(0)
    expect(page.locator("#id_kind")).to_have_value("pairs")
    page.fill("#id_option_target", "")  # no target: the match is its two deals (M3)
    page.fill("#id_option_deals", "2")
    page.fill("#id_correction_minutes", "0")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/organiser/*/")
    expect(page.locator("#rules-in-force")).to_contain_text("升级 (shengji)")
    expect(page.locator("#rules-in-force")).to_contain_text("打满 2 副后级高者胜")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def add_people(page):
    add_referees(page, REFEREE_PASSWORD)
    page.click("nav >> text=参赛者")
    for number, (first, second) in enumerate(PAIRS, start=1):
        page.fill("#id_code", f"P{number}")
        page.fill("#id_name1", first)
        page.fill("#id_name2", second)
        page.fill("#id_club", "武汉")
        page.click("#entrant-form button[type=submit]")
        page.wait_for_selector(f'tr[data-code="P{number}"]')


def levels_words(levels):
    return f"NS 打{rank(levels['NS'])}（{levels['NS']}） · EW 打{rank(levels['EW'])}（{levels['EW']}）"


def enter_match(browser, base, slug, table):
    """referee1 enters the table's deals by keyboard; the engine's score and levels show as they type."""
    page = new_page(browser)
    sign_in(page, base, "referee1", REFEREE_PASSWORD)
    page.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/1/")
    for board, (key, points, scores, levels) in enumerate(TABLE_DEALS[table], start=1):
        expect(page.locator("h1")).to_contain_text(f"第 {board} 副")
        if board == 1:
            expect(page.locator("#match-lines")).to_contain_text("双方从 A 开始")
            expect(page.locator('.field-row[data-key="declarer"] input').first).to_be_focused()
            page.keyboard.press(key)  # N: 南北 on 台上; the focus moves on to the points
        else:
            expect(page.locator('.field-row[data-key="declarer"]')).to_have_count(0)  # the state says who
            before = TABLE_DEALS[table][board - 2][3]
            expect(page.locator("#match-lines")).to_contain_text("本副前：")
            expect(page.locator("#match-lines")).to_contain_text(levels_words(before))
        expect(page.locator('input[name="points"]')).to_be_focused()
        page.keyboard.type(str(points))
        for seat, score in scores.items():  # the live score: the engine's, through the preview
            expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text(str(score))
        expect(page.locator("#match-lines")).to_contain_text("本副后：")
        expect(page.locator("#match-lines")).to_contain_text(levels_words(levels))
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / f"shengji-entry-{table}-{board}.png"), full_page=True)
        if board < len(TABLE_DEALS[table]):
            page.keyboard.press("Control+Enter")  # save and open the next deal
            page.wait_for_url(f"**/boards/{board + 1}/")
        else:
            expect(page.locator("#match-lines")).to_contain_text("比赛结束")
            page.keyboard.press("Control+s")
            page.wait_for_selector("#deal-status:has-text('v1')")
    page.context.close()


def test_a_shengji_event_from_the_console(live_server, browser):
    base = live_server.url
    get_user_model().objects.create_superuser("admin", password=ADMIN_PASSWORD)
    director = new_page(browser)
    sign_in(director, base, "admin", ADMIN_PASSWORD, lands="organiser")
    slug = create_event(director, base)
    event = Event.objects.get(slug=slug)
    assert event.game == SHENGJI and event.kind == "pairs" and event.match_length == 2
    assert event.options == {"start_level": 1, "target": None, "deals": 2}
    add_people(director)

    director.click("nav >> text=编排")
    director.wait_for_selector("#pairing-form")
    director.click("#pairing-form button[type=submit]")
    director.wait_for_url("**/rounds/1/")
    sides = {
        t.number: (t.ns_entrant.code, t.ew_entrant.code)
        for t in Table.objects.filter(round__event=event).select_related("ns_entrant", "ew_entrant")
    }
    assert sorted(sides) == [1, 2]

    for table in TABLE_DEALS:
        enter_match(browser, base, slug, table)
    second = new_page(browser)
    sign_in(second, base, "referee2", REFEREE_PASSWORD)
    for table in TABLE_DEALS:
        for board in (1, 2):
            second.goto(f"{base}/referee/{slug}/rounds/1/tables/{table}/boards/{board}/")
            second.click("#confirm")
            second.wait_for_selector("#deal-status:has-text('已确认')")
    second.context.close()
    assert Deal.objects.filter(table__round__event=event, status="confirmed").count() == 4

    # On a phone: the second deal's page reads the level state and takes the points without sideways scrolling.
    phone = conftest_new_page(browser, **PHONE)
    sign_in(phone, base, "referee1", REFEREE_PASSWORD)
    phone.goto(f"{base}/referee/{slug}/rounds/1/tables/2/boards/2/")
    expect(phone.locator('input[name="points"]')).to_be_visible()
    expect(phone.locator("#match-lines")).to_contain_text(levels_words(TABLE_DEALS[2][0][3]))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], f"the entry page scrolls sideways on a phone ({width}px)"
    if SHOTS:
        phone.screenshot(path=str(Path(SHOTS) / "shengji-entry-phone.png"), full_page=True)
    phone.context.close()

    director.goto(f"{base}/organiser/{slug}/rounds/1/")
    director.click("#publish-round")
    director.wait_for_selector("h1 .badge.provisional")

    # Each pair's 场分 and level difference, from its table's final levels (§2.1 Standings).
    expected = {}
    for table, deals in TABLE_DEALS.items():
        levels = deals[-1][3]
        ns, ew = sides[table]
        points = (2, 0) if levels["NS"] > levels["EW"] else (0, 2) if levels["NS"] < levels["EW"] else (1, 1)
        expected[ns] = (points[0], levels["NS"] - levels["EW"])
        expected[ew] = (points[1], levels["EW"] - levels["NS"])
    public = new_page(browser)
    public.goto(f"{base}/events/{slug}/standings/")
    expect(public.locator("#standings thead")).to_contain_text("级差")
    rows = public.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    shown = {}
    for index in range(4):
        cells = rows.nth(index).locator("td")
        shown[cells.nth(1).inner_text().strip()] = (int(cells.nth(4).inner_text()), int(cells.nth(5).inner_text()))
    assert shown == expected
    winner = next(code for code, (points, _difference) in expected.items() if points == 2)
    assert rows.nth(0).locator("td").nth(1).inner_text().strip() == winner
    public.context.close()

    director.goto(f"{base}/organiser/{slug}/")
    with director.expect_download() as caught:
        director.click("text=排名表 Excel")
    sheet = load_workbook(io.BytesIO(Path(caught.value.path()).read_bytes())).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    rows = [dict(zip(header, row, strict=True)) for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert {row["编号"]: (row["场分"], row["级差"]) for row in rows} == expected
    assert rows[0]["编号"] == winner
    director.context.close()
