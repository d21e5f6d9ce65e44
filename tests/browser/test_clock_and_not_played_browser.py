"""Boards not played and the round clock end to end at tablet size (issue 23): boards ruled "not
played" from calls and scored under each of the event's rules (the other tables' average, no
score, the chief arbiter's adjusted score, which holds the round back until given), shown so to
the referees and the public, counted in the round's totals; a timed round whose organiser
starts, extends and calls time, the time left on the tables' phones and the referees' grid, the
boards not started ending not played and a board entered late."""

import re

import pytest
from playwright.sync_api import expect

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Event, Table, table_token_digest
from tests.archives import EXAMPLES
from tests.conftest import new_page, signed_in
from tests.referee_setup import example_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ROUND = "/referee/t-pairs/rounds/3/"
T1 = EXAMPLES["T1"]["expected"]["scores"]
TOKEN = "clock-browser-token-of-round-3-table-1"


def rule_not_played(page, base, board, kind, seats, facts, ruling):
    """A call on table 1's `board` recorded and ruled "这一副未打" on the round's calls page."""
    page.goto(base + ROUND + "calls/")
    page.fill("#call-open input[name=table]", "1")
    page.fill("#call-open input[name=board]", str(board))
    page.select_option("#call-open select[name=kind]", label=kind)
    page.fill("#call-open input[name=seats]", seats)
    page.fill("#call-open input[name=facts]", facts)
    page.click("#call-open button[type=submit]")
    page.wait_for_url("**/calls/*/")
    page.check("#call-rule input[name=outcome][value=not_played]")
    page.fill("#call-rule input[name=ruling]", ruling)
    page.click("#call-rule button[type=submit]")
    expect(page.locator("#call-ruling")).to_contain_text("这一副未打")


def test_boards_ruled_not_played_from_calls_are_scored_under_each_events_rule(live_server, browser, people):
    """The rule is the event's setting (the organiser may change it; a board keeps the rule it was
    recorded under): board 5 by the other tables' average, board 6 by no score, board 7 by the
    chief arbiter's adjusted score — which holds the round back until he gives it."""
    event = Event.objects.get(slug="t-pairs")
    Event.objects.filter(pk=event.pk).update(extra={"not_played": "average"})
    one = Table.objects.get(round__event=event, round__number=3, number=1)
    other = Table.objects.get(round__event=event, round__number=3, number=2)
    # Every other board is played (T1) and confirmed, table 2's board 5 among them: its average is
    # board 5's score at table 1.
    for table, board in [(other, b) for b in range(1, 17)] + [(one, b) for b in range(1, 17) if b not in (5, 6, 7)]:
        played, _ = deal_save(table=table, board=board, deal_json=example_deal("T1"), user=people["referee1"])
        deal_confirm(deal=played, user=people["referee2"], expected_version=played.version)

    page = new_page(browser, **TABLET)
    signed_in(page, live_server.url, "referee1")
    rule_not_played(
        page, live_server.url, 5, "牌数错误", "S", "S 只有 12 张，E 14 张", "其他人不同意抽牌，时间不够重新发牌"
    )
    expect(page.locator("#call-not-played")).to_have_text("未打：按其他 1 桌的平均分")

    # The board's page: not played, with the rule, the average as its score, confirmed at once.
    page.click("#call-facts a")
    expect(page.locator("#not-played")).to_contain_text("未打：按其他 1 桌的平均分")
    expect(page.locator("#not-played")).to_contain_text("其他人不同意抽牌")
    expect(page.locator("#deal-status")).to_contain_text("已确认")
    # The page's scripts have settled (a live preview of the empty form once blanked the score).
    page.wait_for_load_state("networkidle")
    for seat in "NESW":
        expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text(str(T1[seat]))
    deal = Deal.objects.get(table=one, board=5)
    assert deal.scores == T1 and deal.extra["not_played"]["tables"] == 1
    # The grid shows the board not played.
    page.goto(live_server.url + ROUND)
    expect(page.locator('.cell.not_played[href$="tables/1/boards/5/"]')).to_be_visible()

    # No score (the default rule), ruled from a call: 0 to every seat, confirmed at once.
    Event.objects.filter(pk=event.pk).update(extra={"not_played": "zero"})
    rule_not_played(
        page, live_server.url, 6, "牌数错误", "N W", "N 12 张，W 14 张，W 不同意抽牌", "不同意抽牌，重新发牌来不及"
    )
    expect(page.locator("#call-not-played")).to_have_text("未打：无成绩（双方 0 分）")
    page.click("#call-facts a")
    expect(page.locator("#deal-status")).to_contain_text("已确认")
    # The page's scripts have settled (a live preview of the empty form once blanked the score).
    page.wait_for_load_state("networkidle")
    for seat in "NESW":
        expect(page.locator(f'#preview-scores [data-seat="{seat}"]')).to_have_text("0")

    # The chief arbiter's adjusted score: the board waits for it, and cannot be confirmed before.
    Event.objects.filter(pk=event.pk).update(extra={"not_played": "adjusted"})
    rule_not_played(page, live_server.url, 7, "不当行为", "E W", "EW 拒绝打这一副", "EW 拒绝打，记为未打")
    expect(page.locator("#call-not-played")).to_have_text("未打：等裁判长给调整分")
    page.click("#call-facts a")
    expect(page.locator("#not-played")).to_contain_text("等裁判长（组织者）在这一页给出调整分")
    expect(page.locator("#deal-status")).to_contain_text("草稿")
    expect(page.locator("#confirm")).to_have_count(0)

    # Nor can the round be published: the organiser's checklist names the board.
    chief = new_page(browser, **TABLET)
    signed_in(chief, live_server.url, "organiser")
    chief.goto(live_server.url + ROUND)
    expect(chief.locator(".checklist .blocking")).to_contain_text("1号桌第 7 副未打：等裁判长给调整分")
    expect(chief.locator("#publish-round")).to_be_disabled()
    # He gives the score on the board's page; a second referee confirms it.
    adjusted = {"N": 50, "E": -50, "S": 50, "W": -50}
    chief.goto(live_server.url + ROUND + "tables/1/boards/7/")
    for seat, points in adjusted.items():
        chief.fill(f"input[name=adjusted-{seat}]", str(points))
    chief.fill("input[name=adjusted_reason]", "EW 拒绝打：NS 各 +50，EW 各 −50")
    chief.click("#save")
    chief.wait_for_selector("#deal-status:has-text('v2')")
    expect(chief.locator("#not-played")).to_contain_text("未打：裁判长的调整分")
    confirmer = new_page(browser, **TABLET)
    signed_in(confirmer, live_server.url, "referee2")
    confirmer.goto(live_server.url + ROUND + "tables/1/boards/7/")
    confirmer.click("#confirm")
    confirmer.wait_for_selector("#deal-status:has-text('已确认')")
    chief.goto(live_server.url + ROUND)
    expect(chief.locator(".checklist")).to_contain_text("没有阻止公布的问题。")
    chief.click("#publish-round")
    expect(chief.locator(".messages")).to_contain_text("第 3 轮已临时公布")

    # It counts: table 1's totals, by hand — 14 boards of T1 (the average of board 5 among them),
    # 0 for board 6, and the adjusted score of board 7.
    sides = EXAMPLES["T1"]["expected"]["sides"]
    public = new_page(browser, **TABLET)
    public.goto(live_server.url + "/events/t-pairs/rounds/3/")
    row = public.locator("#round-results tbody tr").first
    expect(row.locator("td").nth(3)).to_have_text(str(14 * sides["NS"] + 0 + adjusted["N"] + adjusted["S"]))
    expect(row.locator("td").nth(4)).to_have_text(str(14 * sides["EW"] + 0 + adjusted["E"] + adjusted["W"]))

    # The public traveller and the rulings page say so, with each board's rule and its call.
    public.goto(live_server.url + "/events/t-pairs/rounds/3/boards/5/")
    expect(public.locator("#traveller")).to_contain_text("未打：按其他 1 桌的平均分")
    public.goto(live_server.url + "/events/t-pairs/rounds/3/boards/7/")
    expect(public.locator("#traveller")).to_contain_text("未打：裁判长的调整分")
    expect(public.locator("#board-rulings")).to_contain_text("EW 拒绝打，记为未打")
    public.goto(live_server.url + "/events/t-pairs/penalties/")
    for facts, words in (
        ("S 只有 12 张", "未打：按其他 1 桌的平均分"),
        ("W 不同意抽牌", "未打：无成绩（双方 0 分）"),
        ("EW 拒绝打这一副", "未打：裁判长的调整分"),
    ):
        expect(public.locator("#penalties tbody tr").filter(has_text=facts)).to_contain_text(words)


def test_a_timed_round_whose_organiser_calls_time_ends_the_boards_not_started_not_played(live_server, browser, people):
    event = Event.objects.get(slug="t-pairs")
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    Table.objects.filter(pk=table.pk).update(token=TOKEN, token_digest=table_token_digest(TOKEN))
    for board in (1, 2):
        deal_save(table=table, board=board, deal_json=example_deal("T1"), user=people["referee1"])

    # The organiser sets the round's time and the late-play penalty on the event's form.
    tablet = new_page(browser, **TABLET)
    signed_in(tablet, live_server.url, "organiser")
    tablet.goto(live_server.url + "/organiser/t-pairs/edit/")
    tablet.fill("#id_round_minutes", "90")
    tablet.fill("#id_late_penalty", "30")
    tablet.click("#event-form button[type=submit]")
    tablet.wait_for_url("**/organiser/t-pairs/")
    assert Event.objects.get(pk=event.pk).extra == {"round_minutes": 90, "late_penalty": -30}

    # Started from the round's console, the clock counts down; extended by five minutes.
    tablet.goto(live_server.url + "/organiser/t-pairs/rounds/3/")
    tablet.click("#clock-start")
    expect(tablet.locator("#round-clock")).to_have_attribute("data-state", "running")
    face = tablet.locator("#round-clock .clock-time")
    expect(face).to_have_text(re.compile(r"^(1:30:00|1:29:\d\d)$"))
    first = face.text_content()
    expect(face).not_to_have_text(first)  # it ticks
    tablet.fill("#clock-actions input[name=minutes]", "5")
    tablet.click("#clock-extend")
    expect(face).to_have_text(re.compile(r"^1:3[45]:\d\d$"))
    expect(tablet.locator("#clock-log")).to_contain_text("延长 5 分钟")

    # The table's phone shows the time left; so does the referees' grid.
    phone = new_page(browser, **PHONE)
    phone.goto(f"{live_server.url}/t/{TOKEN}/")
    expect(phone.locator("#round-clock")).to_be_visible()
    expect(phone.locator("#round-clock .clock-time")).to_have_text(re.compile(r"^1:3[45]:\d\d$"))
    expect(phone.locator("#round-clock .clock-state")).to_have_text("计时中")
    grid = new_page(browser, **TABLET)
    signed_in(grid, live_server.url, "referee2")
    grid.goto(live_server.url + ROUND)
    expect(grid.locator("#round-clock .clock-time")).to_have_text(re.compile(r"^1:3[45]:\d\d$"))

    # Time: each table finishes the board in play; the boards after it end not played.
    tablet.click("#clock-call-time")
    expect(tablet.locator(".messages")).to_contain_text("时间到：28 副记为未打")  # table 1: 4–16, table 2: 2–16
    expect(tablet.locator("#round-clock")).to_contain_text("时间到")
    marked = Deal.objects.filter(table__round__event=event, table__round__number=3, extra__has_key="not_played")
    assert set(marked.filter(table=table).values_list("board", flat=True)) == set(range(4, 17))
    expect(phone.locator("#round-clock .clock-time")).to_have_text("时间到")  # at its next poll
    expect(phone.locator('.board-button.not_played[data-board="4"]')).to_be_visible()
    expect(phone.locator('.board-button.not_played[data-board="3"]')).to_have_count(0)

    # Board 3, in play when time was called, is entered afterwards: late on the grid.
    deal_save(table=table, board=3, deal_json=example_deal("T1"), user=people["referee1"])
    grid.goto(live_server.url + ROUND)
    expect(grid.locator("#round-clock")).to_contain_text("时间到")
    expect(grid.locator(".grid-late")).to_have_text("⏱3")
    expect(grid.locator('.cell.not_played[href$="tables/1/boards/16/"]')).to_be_visible()
    grid.click(".grid-late")
    expect(grid.locator("#late-board")).to_contain_text("时间到之后才录入")
    grid.select_option("#late-penalty select[name=seat]", "E")
    grid.click("#late-penalty button[type=submit]")
    expect(grid.locator("#late-board")).to_contain_text("迟打罚分已经给过")
    late = Deal.objects.get(table=table, board=3)
    assert late.penalties == {"E": -30} and late.scores["E"] == T1["E"] - 30
    grid.goto(live_server.url + ROUND + "tables/1/boards/9/")
    expect(grid.locator("#not-played")).to_contain_text("未打：无成绩（双方 0 分）")
    expect(grid.locator("#not-played")).to_contain_text("时间到时这一副还没有开始")
