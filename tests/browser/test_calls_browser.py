"""A referee at a tablet records calls during play and rules on them (issue 23): a claim accepted
that fills the entry grid, a contested claim whose fall the referee decides (with his reasons) and
whose deal is then entered and scored, a revoke penalised before the result that joins the deal
when it is entered, and the rulings on the public page once the round is published; a wrong card
count ruled a redeal after a result was entered: the first result void, the redeal's entered,
both in the board's history."""

import pytest
from playwright.sync_api import expect

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Round, Table
from tests.archives import EXAMPLES
from tests.browser.test_entry_browser import CARD_ORDER, seat_of, stored
from tests.conftest import new_page, signed_in
from tests.referee_setup import example_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
ROUND = "/referee/t-pairs/rounds/3/"
T1 = EXAMPLES["T1"]["expected"]["scores"]  # N −210, E 60, S −60, W −20
T2 = EXAMPLES["T2"]["expected"]["scores"]  # N 90, E −80, S −160, W −100


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
    signed_in(page, live_server.url, "referee1")
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

    # A claim contested: the referee decides the fall (his reasons on record); the grid opens with
    # it, he adds the point cards taken before the claim, and the deal is scored as the law says.
    page.goto(live_server.url + ROUND + "calls/")
    open_call(page, 1, 3, "声称", "E", "E 第 10 墩摊牌，称 ♠Q 归 N；N 不同意")
    page.check("#call-rule input[name=outcome][value=nothing]")
    page.fill("#call-rule input[name=ruling]", "N 有异议；E 手里只剩方块，♠Q 只能由 N 收：按声称裁定")
    page.select_option("#call-rule select[name=claimant]", "E")
    page.fill("#call-rule input[name=claim_trick]", "10")
    page.select_option("#call-rule select[name=claim_status]", "contested")
    page.fill("#call-rule input[name=fall-N]", "SQ ♥7")
    page.fill("#call-rule input[name=fall-E]", "♦J H4")
    page.click("#call-rule button[type=submit]")
    expect(page.locator("#call-ruling")).to_contain_text("♠Q 只能由 N 收")
    expect(page.locator("#call-claim")).to_contain_text("E 在第 10 墩声称，有异议：N ♠Q ♥7；E ♦J ♥4")
    page.click("#call-facts a")
    expect(page.locator("#claim-prefilled")).to_be_visible()
    claimed = {"SQ": "N", "H7": "N", "DJ": "E", "H4": "E"}
    for card, seat in claimed.items():
        expect(page.locator(f'.card-row[data-card="{card}"] input[value="{seat}"]')).to_be_checked()
    expect(page.locator("#grid-progress")).to_have_text("还有 12 张牌未分配")
    for card, seat in seat_of("T1").items():  # T1's captures agree with the ruled fall
        if card not in claimed:
            page.locator(f'.card-row[data-card="{card}"] label', has_text=seat).click()
    page.locator('#preview-scores [data-seat="N"]').filter(has_text=str(T1["N"])).wait_for()
    page.click("#save")
    page.wait_for_selector("#deal-status:has-text('v1')")
    assert stored(3).scores == T1

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
    assert deal.scores["W"] == T1["W"] - 50
    expect(page.locator("#board-calls")).to_contain_text("藏牌，罚 50 分")

    # The round's list of calls shows both, ruled; published, the public sees the rulings.
    page.goto(live_server.url + ROUND + "calls/")
    expect(page.locator("#calls tbody tr.ruled")).to_have_count(3)
    Round.objects.filter(event__slug="t-pairs", number=3).update(status="provisional")
    public = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    public.goto(live_server.url + "/events/t-pairs/penalties/")
    rows = public.locator("#penalties tbody tr")
    expect(rows.filter(has_text="藏牌，罚 50 分")).to_contain_text("-50")
    expect(rows.filter(has_text="藏牌，罚 50 分")).to_contain_text("W 有红心却垫了方块")
    expect(rows.filter(has_text="各方同意，按声称记录")).to_contain_text("（各方同意）：N ♥A ♥K ♥8；S ♣10")
    contested = rows.filter(has_text="♠Q 只能由 N 收")
    expect(contested).to_contain_text("（有异议）：N ♠Q ♥7；E ♦J ♥4")
    expect(contested).to_contain_text("E 第 10 墩摊牌")
    board_one = Deal.objects.filter(table__round__event__slug="t-pairs", table__round__number=3, board=1)
    assert not board_one.filter(table__number=1).exists()  # the claim filled the grid; nothing was saved


def scores_text(scores):
    return " / ".join(str(scores[seat]) for seat in "NESW")


def test_a_wrong_card_count_ruled_a_redeal_after_the_result_voids_it_and_the_redeals_result_replaces_it(
    live_server, browser, people
):
    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    first, _ = deal_save(table=table, board=4, deal_json=example_deal("T1"), user=people["referee2"])
    deal_confirm(deal=first, user=people["referee1"], expected_version=first.version)

    page = new_page(browser, **TABLET)
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ROUND + "calls/")
    # Found after the board was scored: E had 14 cards, S 12, and the others refuse the draw.
    open_call(page, 1, 4, "牌数错误", "E S", "E 14 张，S 12 张；其他人不同意随机抽牌")
    page.check("#call-rule input[name=outcome][value=redeal]")
    page.fill("#call-rule input[name=ruling]", "其他人不同意抽牌：重新洗牌、发牌")
    page.click("#call-rule button[type=submit]")
    expect(page.locator("#call-ruling")).to_contain_text("重新发牌：其他人不同意抽牌")

    # The first result is void: the board is back to draft, the ruling in its history.
    page.click("#call-facts a")
    expect(page.locator("#deal-status")).to_contain_text("草稿 · v3")
    page.wait_for_load_state("load")  # entry.js has put the focus on the first card
    page.keyboard.type("".join(seat_of("T2")[card].lower() for card in CARD_ORDER))  # the redeal, as played
    page.locator('#preview-scores [data-seat="N"]').filter(has_text=str(T2["N"])).wait_for()
    page.click("#save")
    page.wait_for_selector("#deal-status:has-text('v4')")
    assert stored(4).scores == T2 and stored(4).status == "draft"

    # Both results are in the board's history: the first deal's, its void by the ruling, the redeal's.
    page.click("details.history summary")
    expect(page.locator("details.history")).to_have_attribute("open", "")
    history = page.locator("#history li")
    expect(history).to_have_count(4)
    expect(history.nth(0)).to_contain_text("v1 录入 · referee2")
    expect(history.nth(0)).to_contain_text(scores_text(T1))
    expect(history.nth(1)).to_contain_text("v2 确认 · referee1")
    expect(history.nth(2)).to_contain_text("v3 裁决 · referee1")
    expect(history.nth(2)).to_contain_text("牌数错误：其他人不同意抽牌：重新洗牌、发牌")
    expect(history.nth(2)).to_contain_text(f"{scores_text(T1)} 草稿")
    expect(history.nth(3)).to_contain_text("v4 修改 · referee1")
    expect(history.nth(3)).to_contain_text(f"{scores_text(T2)} 草稿")
    history.nth(2).locator("a").click()  # the ruling's row leads back to its call
    expect(page.locator("#call-facts")).to_contain_text("E 14 张，S 12 张")
