"""A referee at a tablet records calls during play and rules on them (issue 23): a claim accepted
that fills the entry grid, a revoke penalised before the result that joins the deal when it is
entered, and the rulings on the public page once the round is published."""

import pytest
from playwright.sync_api import expect

from scoring.models import Deal, Round
from tests.archives import EXAMPLES
from tests.browser.test_entry_browser import CARD_ORDER, log_in, seat_of, stored
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
ROUND = "/referee/t-pairs/rounds/3/"


def open_call(page, table, board, kind, seats, facts):
    page.fill("#call-open input[name=table]", str(table))
    page.fill("#call-open input[name=board]", str(board))
    page.select_option("#call-open select[name=kind]", label=kind)
    page.fill("#call-open input[name=seats]", seats)
    page.fill("#call-open input[name=facts]", facts)
    page.click("#call-open button[type=submit]")
    page.wait_for_url("**/calls/*/")


def test_calls_during_play_ruled_at_the_table_reach_the_grid_the_deal_and_the_public(live_server, browser, people):
    page = new_page(browser, **TABLET)
    log_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ROUND)
    page.click("#calls-link")

    # A claim at trick 10, accepted by all: recorded before any result, ruled, and the grid filled.
    open_call(page, 1, 1, "声称", "n", "N 第 10 墩摊牌，称剩下的红心都归自己")
    expect(page.locator("#call-facts")).to_contain_text("N 第 10 墩摊牌")
    page.check("#call-rule input[name=outcome][value=nothing]")
    page.fill("#call-rule input[name=ruling]", "各方同意，按声称记录")
    page.select_option("#call-rule select[name=claimant]", "N")
    page.fill("#call-rule input[name=claim_trick]", "10")
    page.select_option("#call-rule select[name=claim_status]", "accepted")
    page.fill("#call-rule input[name=fall-N]", "♥A ♥K ♥8")
    page.fill("#call-rule input[name=fall-S]", "C10")
    page.click("#call-rule button[type=submit]")
    expect(page.locator("#call-ruling")).to_contain_text("各方同意，按声称记录")
    expect(page.locator("#call-claim")).to_contain_text("N 在第 10 墩声称")
    expect(page.locator("#call-claim")).to_contain_text("N ♥A ♥K ♥8；S ♣10")
    page.click("#call-facts a")  # the board: not entered yet, opened with the claim's fall
    expect(page.locator("#claim-prefilled")).to_be_visible()
    for card, seat in (("HA", "N"), ("HK", "N"), ("H8", "N"), ("C10", "S")):
        expect(page.locator(f'.card-row[data-card="{card}"] input[value="{seat}"]')).to_be_checked()
    expect(page.locator('.card-row[data-card="HQ"] input:checked')).to_have_count(0)

    # A revoke on board 2, penalised before the result: the entry page says it will be added.
    page.goto(live_server.url + ROUND + "calls/")
    open_call(page, 1, 2, "藏牌", "W", "W 有红心却垫了方块")
    page.check("#call-rule input[name=outcome][value=penalty]")
    page.select_option("#call-rule select[name=penalty_seat]", "W")
    page.fill("#call-rule input[name=penalty]", "-50")
    page.fill("#call-rule input[name=ruling]", "藏牌，罚 50 分")
    page.click("#call-rule button[type=submit]")
    expect(page.locator("#penalty-pending")).to_contain_text("录入时自动计入")
    page.click("#call-facts a")
    expect(page.locator("#pending-penalties")).to_contain_text("W -50")
    page.wait_for_load_state("load")  # entry.js has put the focus on the first card
    page.keyboard.type("".join(seat_of("T1")[card].lower() for card in CARD_ORDER))
    page.click("#save")
    page.wait_for_selector("#deal-status:has-text('v1')")
    deal = stored(2)
    assert deal.penalties == {"W": -50}
    assert deal.scores["W"] == EXAMPLES["T1"]["expected"]["scores"]["W"] - 50
    expect(page.locator("#board-calls")).to_contain_text("藏牌，罚 50 分")

    # The round's list of calls shows both, ruled; published, the public sees the rulings.
    page.goto(live_server.url + ROUND + "calls/")
    expect(page.locator("#calls tbody tr.ruled")).to_have_count(2)
    Round.objects.filter(event__slug="t-pairs", number=3).update(status="provisional")
    public = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    public.goto(live_server.url + "/events/t-pairs/penalties/")
    rows = public.locator("#penalties tbody tr")
    expect(rows.filter(has_text="藏牌，罚 50 分")).to_contain_text("-50")
    expect(rows.filter(has_text="藏牌，罚 50 分")).to_contain_text("W 有红心却垫了方块")
    expect(rows.filter(has_text="各方同意，按声称记录")).to_contain_text("N ♥A ♥K ♥8；S ♣10")
    board_one = Deal.objects.filter(table__round__event__slug="t-pairs", table__round__number=3, board=1)
    assert not board_one.filter(table__number=1).exists()  # the claim filled the grid; nothing was saved
