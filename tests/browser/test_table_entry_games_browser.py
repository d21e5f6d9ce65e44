"""Players score their own 蚌埠斗地主 table from two phones, in Chromium (table-api.md for a game
other than 华牌): one player enters a deal in the game's fields with the engine's live score, a
board entered while the network is down waits on the phone and arrives once, another player
verifies (the writer's own code refused), every player signs off from the phones and the table
closes; the referees' live grid shows it. Scores are the law's worked examples.

With HUAPAI_SCREENSHOTS=<folder> the test also saves the screenshots of docs/organising.md §6a
there (table-entry-doudizhu-*.png)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.models import Deal, DealHistory, Entrant, Table
from tests.archives import DOUDIZHU, doudizhu_archive, game_examples
from tests.browser.test_event_from_scratch_browser import SHOTS
from tests.conftest import new_page
from tests.referee_setup import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALL_ANDROID = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 768, "height": 1024}}
EXAMPLES = game_examples(DOUDIZHU)
SEAT_OF = {"N": "p01", "E": "p02", "S": "p03", "W": "p04"}  # table 1 of the archive
PLAYED = ("DDZ14", "DDZ01", "DDZ22", "DDZ13")  # boards 1–4
WRITES = re.compile(r"/t/[^/]+/(boards/\d+$|boards/\d+/verify|signoff)")


@pytest.fixture
def event():
    archive = doudizhu_archive(tables={1: (), 2: ()}, status="in_play")
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"table-entry-doudizhu-{name}.png"))


def code(seat):
    return Entrant.objects.get(code=SEAT_OF[seat]).access_code


def board_button(page, board):
    return page.locator(f'#boards button[data-board="{board}"]')


def pick(page, key, word):
    """Tap a field's choice by the word on it (a seat's letter, a bid, 抢牌, 是)."""
    page.locator(f'.field-row[data-key="{key}"] label').filter(has_text=re.compile(f"^{re.escape(word)}$")).click()


def enter(page, board, name, seat=None, picture=None):
    """A deal of the law's examples entered in the fields; the live score is the law's."""
    enter_fields(page, board, name)
    scores = EXAMPLES[name]["expected"]["scores"]
    expect(page.locator("#preview-scores [data-seat]")).to_have_text([str(scores[s]) for s in "NESW"])
    if picture:
        page.locator("#preview-scores").scroll_into_view_if_needed()
        shot(page, picture)
    if seat:
        page.fill("#entry-code", code(seat))
    page.click("#save")


def enter_fields(page, board, name):
    """A board opened and the deal of the law's example `name` chosen in its fields."""
    board_button(page, board).click()
    expect(page.locator("#entry")).to_be_visible()
    deal = EXAMPLES[name]["deal"]
    for tian in deal.get("tianzha", []):
        pick(page, "tianzha", tian)
    if deal.get("tianzun"):
        pick(page, "tianzun", deal["tianzun"])
    if "landlord" in deal:
        pick(page, "landlord", deal["landlord"])
        pick(page, "bid", "抢牌" if deal["bid"] == "grab" else str(deal["bid"]))
        if deal.get("open") and deal["bid"] != "grab":
            pick(page, "open", "是")
        pick(page, "first_out", deal["first_out"])
    for feidan_seat, count in (deal.get("feidan") or {}).items():
        page.fill(f'input[name="feidan-{feidan_seat}"]', str(count))


def verify(page, board, seat):
    board_button(page, board).click()
    expect(page.locator("#verify-form")).to_be_visible()
    page.fill("#verify-form input[name=code]", code(seat))
    page.click("#verify")
    expect(board_button(page, board)).to_have_class("board-button confirmed")


def sign(page, seat):
    page.locator(f'#signoff-form input[name="side"][value="{seat}"]').check()
    page.fill("#signoff-form input[name=code]", code(seat))
    page.click("#signoff")
    expect(page.locator("#signed-off")).to_contain_text(f"{seat} 已签字")


def test_a_doudizhu_table_scores_itself_from_two_phones(live_server, browser, event):
    table = Table.objects.get(number=1)
    link = f"{live_server.url}/t/{table.token}/"
    # The network is cut below by routing the writes; Chromium may hang a request that passes a
    # service worker while a route is set (microsoft/playwright#7588), so this phone runs without
    # its worker. The worker's offline page is test_table_entry_browser's, with the network off.
    north = new_page(browser, **PHONE, service_workers="block")  # 赵某1's phone, N
    east = new_page(browser, **SMALL_ANDROID)  # 钱某2's phone, E
    north.goto(link)
    east.goto(link)
    expect(north.locator("#card-grid")).to_have_count(0)  # the game's fields, not 华牌's cards

    # North enters board 1 in the game's fields; the score on the phone is the engine's.
    enter(north, 1, PLAYED[0], "N", picture="1-phone")
    expect(north.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    expect(board_button(north, 1)).to_have_class("board-button draft")
    # East sees the deal in the game's words and every seat's score.
    expect(board_button(east, 1)).to_have_class("board-button draft")
    board_button(east, 1).click()
    expect(east.locator("#deal-words")).to_contain_text("西(W)")
    expect(east.locator("#deal-words")).to_contain_text("抢牌")
    expect(east.locator("#deal-scores td")).to_have_text(
        [str(EXAMPLES[PLAYED[0]]["expected"]["scores"][s]) for s in "NESW"]
    )
    east.fill("#verify-form input[name=code]", code("N"))  # the writer's own code: refused
    east.click("#verify")
    expect(east.locator("#table-error")).to_contain_text("录入这一副的选手不能确认它")
    verify(east, 1, "E")

    # The network drops while board 2 is entered: it waits on the phone, then arrives once.
    north.click("#close-board")
    north.context.route(WRITES, lambda route: route.abort("internetdisconnected"))
    enter(north, 2, PLAYED[1], "N")
    expect(north.locator("#outbox li")).to_have_count(1)
    expect(north.locator("#outbox-status")).to_contain_text("保存在本手机，尚未发送")
    assert not Deal.objects.filter(table=table, board=2).exists()
    north.context.unroute(WRITES)
    north.evaluate("window.dispatchEvent(new Event('online'))")
    expect(north.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    assert DealHistory.objects.filter(table=table, board=2, action="create").count() == 1
    verify(east, 2, "E")
    for board in (3, 4):
        north.click("#close-board")
        enter(north, board, PLAYED[board - 1], "N")
        expect(board_button(north, board)).to_have_class("board-button draft")
        verify(east, board, "E")

    # Every board confirmed: each player signs, seeing every player's score with their own marked.
    expect(north.locator("#signoff-section")).to_be_visible()
    totals = {s: sum(EXAMPLES[n]["expected"]["scores"][s] for n in PLAYED) for s in "NESW"}
    north.locator('#signoff-form input[name="side"][value="N"]').check()
    expect(north.locator("#signoff-all-head th")).to_have_text(["副", "我 N", "E", "S", "W"])
    expect(north.locator("#signoff-all-rows tr").last.locator("th")).to_have_text(
        ["合计", *(str(totals[s]) for s in "NESW")]
    )
    north.locator("#signoff-section").scroll_into_view_if_needed()
    shot(north, "2-signoff")
    sign(north, "N")
    sign(north, "S")  # the phone passed to South
    sign(east, "E")
    expect(east.locator("#read-only")).to_be_hidden()  # West has not signed: the table is open
    sign(east, "W")
    expect(east.locator("#read-only")).to_contain_text("每位选手都已签字")
    expect(north.locator("#read-only")).to_contain_text("每位选手都已签字")
    table.refresh_from_db()
    assert table.signed_off and Deal.objects.filter(table=table, status=Deal.Status.CONFIRMED).count() == 4

    # The referees' grid shows the table done and signed off.
    make_user("referee", "referee", event)
    referee = new_page(browser, **TABLET)
    referee.goto(live_server.url + "/accounts/login/")
    referee.fill("#id_username", "referee")
    referee.fill("#id_password", PASSWORD)
    referee.click("button[type=submit]")
    referee.goto(live_server.url + "/referee/t-ddz/rounds/1/")
    expect(referee.locator("#grid-t1")).to_have_class(re.compile(r"\bsigned_off\b"))
    expect(referee.locator("#grid-counts")).to_contain_text("已签字 1")
    channels = set(DealHistory.objects.filter(user=None).values_list("entrant__code", "channel"))
    assert channels == {("p01", "table link"), ("p02", "table link")}
    for opened in (north, east, referee):
        opened.context.close()


PREVIEWS = re.compile(r"/t/[^/]+/boards/\d+/preview$")


def test_a_preview_lost_on_the_way_is_asked_again_until_it_arrives(live_server, browser, event):
    """Hall Wi-Fi: previews that fail, then one that is never answered; the phone says it is
    waiting, keeps asking, and draws the engine's score once an answer comes."""
    table = Table.objects.get(number=1)
    phone = new_page(browser, **PHONE, service_workers="block")
    cut = {"mode": None, "after_last_key": 0, "held": []}

    def previews(route):
        if cut["mode"] is None:
            route.continue_()
            return
        cut["after_last_key"] += 1
        if cut["mode"] == "fail":
            route.abort("failed")
        else:
            cut["held"].append(route)  # never answered while the mode lasts

    phone.context.route(PREVIEWS, previews)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    scores = [str(EXAMPLES[PLAYED[0]]["expected"]["scores"][s]) for s in "NESW"]

    # Every preview fails for a while: more times than a few quick retries would cover.
    cut["mode"] = "fail"
    enter_fields(phone, 1, PLAYED[0])
    cut["after_last_key"] = 0
    expect(phone.locator("#preview-offline")).to_be_visible()
    for _ in range(100):
        if cut["after_last_key"] >= 5:
            break
        phone.wait_for_timeout(200)
    assert cut["after_last_key"] >= 5, "the phone stopped asking"
    cut["mode"] = None
    expect(phone.locator("#preview-scores [data-seat]")).to_have_text(scores)
    expect(phone.locator("#preview-offline")).to_be_hidden()

    # A preview the server never answers is given up and asked again.
    phone.click("#close-board")
    cut["mode"] = "hold"
    enter_fields(phone, 2, PLAYED[1])
    cut["after_last_key"] = 0
    phone.wait_for_timeout(500)
    assert cut["held"], "no preview was held"
    cut["mode"] = None
    second = [str(EXAMPLES[PLAYED[1]]["expected"]["scores"][s]) for s in "NESW"]
    expect(phone.locator("#preview-scores [data-seat]")).to_have_text(second)
    assert cut["after_last_key"] >= 1
    for held in cut["held"]:
        held.abort("failed")
