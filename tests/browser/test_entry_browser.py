"""Referees entering deals in Chromium: keyboard, mouse, second-referee confirmation, a stale form."""

import pytest
from playwright.sync_api import expect

from scoring.models import Deal
from tests.archives import EXAMPLES
from tests.conftest import new_page, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENTRY = "/referee/t-pairs/rounds/3/tables/1/boards/{board}/"
CARD_ORDER = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2", "SQ", "DJ", "C10"]


# Counts the previews the entry page has drawn, in <html data-previews-drawn> (an attribute, so
# that expect can wait for it under the page's CSP, which allows no eval): the page's
# fetch(...).then(r => r.json()).then(draw) draws in the microtasks that follow json(), and the
# count moves in the task after them.
COUNT_DRAWN_PREVIEWS = """
let drawn = 0;
const json = Response.prototype.json;
Response.prototype.json = function () {
  return json.call(this).then((data) => {
    setTimeout(() => { document.documentElement.dataset.previewsDrawn = String(++drawn); }, 0);
    return data;
  });
};
"""


def seat_of(example):
    return {card: seat for seat, cards in EXAMPLES[example]["deal"]["captured"].items() for card in cards}


def stored(board):
    return Deal.objects.get(table__round__event__slug="t-pairs", table__round__number=3, table__number=1, board=board)


def test_a_whole_deal_by_keyboard_with_the_live_score(live_server, page, people):
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=1))
    seats = seat_of("N3")  # 明, 首明 and 自得: N −420, E −190, S +2880, W 0
    page.keyboard.type("".join(seats[card].lower() for card in CARD_ORDER))
    # Focus moved on to the first holder select: Tab through holders and exposures by keyboard.
    for card, holder, exposure in (("SQ", "N", "明"), ("DJ", "S", "明"), ("C10", "W", "首明"), ("HA", "E", None)):
        page.select_option(f"select[name=holder-{card}]", holder)
        if exposure:
            page.select_option(f"select[name=exposed-{card}]", label=exposure)
    page.locator('#preview-scores [data-seat="S"]').filter(has_text="2880").wait_for()
    assert page.locator('#preview-scores [data-side="NS"]').inner_text() == "2460"
    page.keyboard.press("Control+s")
    page.wait_for_selector("#deal-status:has-text('v1')")
    deal = stored(1)
    assert deal.scores == EXAMPLES["N3"]["expected"]["scores"]
    assert deal.entered_by.username == "referee1" and deal.status == "draft"


def test_the_page_names_the_unassigned_and_refuses_to_save(live_server, page, people):
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=2))
    page.keyboard.type("n" * 15)  # ♣10 left unassigned
    # While cards are still being given out, the page counts what is left and marks nothing red.
    expect(page.locator("#grid-progress")).to_have_text("还有 1 张牌未分配")
    expect(page.locator(".card-row.has-error")).to_have_count(0)
    expect(page.locator("#problems li")).to_have_count(0)
    page.click("#save")
    expect(page.locator("#errors")).to_contain_text("♣10 未分配")
    # After the refused save the card it is about is marked, and the words are in the list.
    expect(page.locator('.card-row[data-card="C10"].has-error')).to_have_count(1)
    expect(page.locator("#problems li", has_text="♣10")).to_have_count(1)
    assert not Deal.objects.filter(table__round__number=3, board=2).exists()


def test_nothing_on_the_page_moves_while_a_referee_types(live_server, page, people):
    """Rows, holders and penalties keep their places from the first key to the last card."""
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=5))
    rows = [f'.card-row[data-card="{card}"]' for card in CARD_ORDER]
    watched = [*rows, "select[name=holder-SQ]", "input[name=penalty-W]"]

    def places():
        """Each element's box in the document (focus moving down the grid scrolls the window)."""
        return page.evaluate(
            """(selectors) => selectors.map((selector) => {
                const box = document.querySelector(selector).getBoundingClientRect();
                return [box.left + window.scrollX, box.top + window.scrollY, box.width, box.height];
            })""",
            watched,
        )

    progress = page.locator("#grid-progress")
    expect(progress).to_have_text("还有 16 张牌未分配")
    before = places()
    seats = seat_of("T1")
    for left, card in enumerate(CARD_ORDER, start=1):
        page.keyboard.type(seats[card].lower())
        # The preview of this key has been drawn when the count says so.
        expect(progress).to_have_text(f"还有 {16 - left} 张牌未分配" if left < 16 else "每张牌都已分配")
        assert places() == before, card
    page.locator('#preview-scores [data-seat="N"]').filter(has_text="-210").wait_for()
    assert places() == before
    # The way through by keyboard is written on the page, not only in a tooltip.
    help_line = page.locator("#keyboard-help")
    expect(help_line).to_be_visible()
    for words in ("N E S W", "Ctrl+Enter", "↓", "持牌人"):
        expect(help_line).to_contain_text(words)


def test_a_penalty_is_taken_with_or_without_its_minus_sign_and_any_whole_number(live_server, page, people):
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=6))
    page.keyboard.type("".join(seat_of("T1")[card].lower() for card in CARD_ORDER))  # N −210 before penalties
    page.fill("input[name=penalty-N]", "-55")
    page.fill("input[name=penalty-E]", "30")
    page.locator('#preview-scores [data-seat="N"]').filter(has_text="-265").wait_for()
    page.fill("input[name=penalty-S]", "abc")
    error = page.locator("#error-penalty-S")
    expect(error).to_contain_text("罚分须是 0 到 100000 之间的整数")
    # The site's own words, never the browser's bubble: the field itself has no constraint to fail.
    assert page.evaluate("document.querySelector('[name=penalty-S]').validity.valid") is True
    # The server's answer, a new page (the same words were already on the old one: without waiting
    # for the answer, the next fill could land on the page being replaced).
    with page.expect_navigation():
        page.click("#save")
    expect(page.locator("#error-penalty-S")).to_contain_text("罚分须是")
    assert not Deal.objects.filter(table__round__number=3, board=6).exists()
    page.fill("input[name=penalty-S]", "")
    page.click("#save")
    page.wait_for_selector("#deal-status:has-text('v1')")
    deal = stored(6)
    assert deal.penalties == {"N": -55, "E": -30}
    expected = EXAMPLES["T1"]["expected"]["scores"]
    assert (deal.score_n, deal.score_e) == (expected["N"] - 55, expected["E"] - 30)
    # Reopened, the page shows the points deducted beside the printed minus sign.
    assert page.input_value("input[name=penalty-N]") == "55"


def test_a_whole_deal_by_mouse_then_confirmed_by_a_second_referee(live_server, browser, people):
    first = new_page(browser)
    signed_in(first, live_server.url, "referee1")
    first.goto(live_server.url + ENTRY.format(board=3))
    for card, seat in seat_of("T1").items():
        first.locator(f'.card-row[data-card="{card}"] label', has_text=seat).click()
    first.locator('#preview-scores [data-seat="N"]').filter(has_text="-210").wait_for()
    first.click("#save")
    first.wait_for_selector("#deal-status:has-text('v1')")
    assert first.locator("#confirm").count() == 0  # the one who entered it cannot confirm it

    second = new_page(browser)
    signed_in(second, live_server.url, "referee2")
    second.goto(live_server.url + ENTRY.format(board=3))
    second.click("#confirm")
    second.wait_for_selector("#deal-status:has-text('已确认')")
    deal = stored(3)
    assert deal.status == "confirmed" and deal.confirmed_by.username == "referee2"
    assert {"NS": deal.ns_score, "EW": deal.ew_score} == EXAMPLES["T1"]["expected"]["sides"]


def test_a_stale_form_is_explained_and_overwrites_nothing(live_server, browser, people):
    first = new_page(browser)
    signed_in(first, live_server.url, "referee1")
    first.goto(live_server.url + ENTRY.format(board=4))
    first.keyboard.type("".join(seat_of("T1")[card].lower() for card in CARD_ORDER))
    first.click("#save")
    first.wait_for_selector("#deal-status:has-text('v1')")

    # Two referees open version 1; the second one saves T2 first.
    mine = new_page(browser)
    signed_in(mine, live_server.url, "referee2")
    mine.goto(live_server.url + ENTRY.format(board=4))
    first.reload()
    first.keyboard.type("".join(seat_of("T2")[card].lower() for card in CARD_ORDER))
    first.click("#save")
    first.wait_for_selector("#deal-status:has-text('v2')")

    mine.locator('.card-row[data-card="C10"] label', has_text="W").click()
    mine.locator('.card-row[data-card="DJ"] label', has_text="S").click()
    mine.click("#save")
    conflict = mine.locator("#conflict")
    conflict.wait_for()
    # The message names who made the newer version and what they did — not the viewer.
    expect(mine.locator("#errors")).to_contain_text("referee1修改了这一副（现为第 2 版）")
    deal = stored(4)
    assert deal.version == 2
    assert {"NS": deal.ns_score, "EW": deal.ew_score} == EXAMPLES["T2"]["expected"]["sides"]
    # A second Ctrl+S does not silently overwrite: it is refused again. The page shown already
    # has #conflict: mark it, and wait for #conflict on the page that replaces it.
    mine.evaluate("document.body.dataset.before = 'second-save'")
    mine.wait_for_load_state("load")  # the deferred entry.js (which handles Ctrl+S) has run
    mine.keyboard.press("Control+s")
    mine.locator("body:not([data-before]) #conflict").wait_for()
    assert stored(4).version == 2
    # Only the explicit button replaces version 2 with this referee's entry.
    mine.click("#overwrite")
    mine.wait_for_selector("#deal-status:has-text('v3')")
    assert (stored(4).version, stored(4).entered_by.username) == (3, "referee2")


def test_one_key_saves_and_opens_the_next_board(live_server, page, people):
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=5))
    page.keyboard.type("".join(seat_of("T1")[card].lower() for card in CARD_ORDER))
    page.keyboard.press("Control+Enter")
    page.wait_for_url("**/boards/6/")
    assert stored(5).version == 1


def test_the_second_referee_confirms_and_moves_on_in_one_action(live_server, page, people):
    from scoring.entry.services import deal_save
    from scoring.models import Table

    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    for board in (7, 9):
        deal_save(table=table, board=board, deal_json=EXAMPLES["T1"]["deal"], user=people["referee1"])
    signed_in(page, live_server.url, "referee2")
    page.goto(live_server.url + ENTRY.format(board=7))
    page.click("#confirm-next")
    page.wait_for_url("**/boards/9/")
    assert stored(7).status == "confirmed"
    page.click("#confirm-next")
    page.wait_for_url("**/rounds/3/")  # nothing else waits for this referee
    assert stored(9).status == "confirmed"


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}, {"width": 390, "height": 844}])
def test_a_whole_table_is_confirmed_from_one_page(live_server, browser, people, viewport):
    from scoring.entry.services import deal_save
    from scoring.models import Table

    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    with_penalty = {**EXAMPLES["T1"]["deal"], "penalties": {"E": -50}}
    for board in (1, 2, 3):
        deal = with_penalty if board == 3 else EXAMPLES["T1"]["deal"]
        deal_save(table=table, board=board, deal_json=deal, user=people["referee1"])
    page = new_page(browser, viewport=viewport)
    signed_in(page, live_server.url, "referee2")
    page.goto(live_server.url + "/referee/t-pairs/rounds/3/")
    page.click('td a[href$="/tables/1/confirm/"]')
    page.wait_for_selector("#table-confirm")
    assert page.locator("#table-confirm tbody tr").count() == 3
    assert "♥A" in page.locator('tr[data-board="1"]').inner_text()
    # Nothing is ticked until the checker ticks it; each board shows its penalties as the sheet does.
    expect(page.locator('#table-confirm input[type="checkbox"]:checked')).to_have_count(0)
    expect(page.locator('tr[data-board="3"] .penalty')).to_have_text("罚分 E -50")
    expect(page.locator('tr[data-board="1"] .penalty')).to_have_count(0)
    page.check('input[name="confirm-1"]')
    page.check('input[name="confirm-3"]')  # board 2 differs from the paper: left for a look
    page.click("#confirm-table")
    page.wait_for_selector("ul.messages")
    assert [stored(b).status for b in (1, 2, 3)] == ["confirmed", "draft", "confirmed"]
    # The referee who entered the table sees the boards but no button to confirm them.
    entered = new_page(browser, viewport=viewport)
    signed_in(entered, live_server.url, "referee1")
    entered.goto(live_server.url + "/referee/t-pairs/rounds/3/tables/1/confirm/")
    expect(entered.locator("#nothing-to-confirm")).to_be_visible()
    expect(entered.locator("#confirm-table")).to_have_count(0)
    page.context.close()
    entered.context.close()


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}])
def test_a_blank_board_is_quiet_and_a_captured_special_card_asks_for_its_holder(live_server, browser, people, viewport):
    page = new_page(browser, viewport=viewport)
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=11))
    assert page.locator("#problems li").count() == 0  # served with its preview drawn: nothing to say
    page.keyboard.type("n" * 16)  # every point card to N: ♠Q ♦J ♣10 ♥A among them, no holders given
    page.locator("#questions li", has_text="♠Q").wait_for()
    assert page.locator("#questions li").count() == 4
    page.select_option("select[name=holder-SQ]", "N")
    page.locator("#questions li", has_text="♠Q").wait_for(state="detached")
    page.context.close()


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}, {"width": 390, "height": 844}])
def test_the_save_bar_stays_in_view_and_targets_fit_a_finger(live_server, browser, people, viewport):
    page = new_page(browser, viewport=viewport)
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=4))

    def in_view(selector):
        box = page.locator(selector).bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]

    assert in_view("#save") and in_view("#save-next")
    page.locator('.card-row[data-card="C10"]').scroll_into_view_if_needed()
    assert in_view("#save") and in_view("#save-next")
    page.locator('.card-row[data-card="HA"] input').first.focus()
    page.keyboard.type("n" * 16)  # every card to North: a valid deal (满贯) with a score
    page.locator("#bar-scores", has_text="NS").wait_for()  # the score, beside the buttons
    # Every control a referee touches is at least 44 × 44 CSS pixels (WCAG 2.5.5).
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
            '.seat-choice span, .specials select, .penalties input, #entry-actions button'
        )).map(e => e.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length"""
    )
    assert small == 0


def test_a_holder_is_asked_only_where_it_can_matter(live_server, page, people):
    """Without 自得 (an event option), an unexposed card's holder changes nothing: its select
    is not asked until the card is exposed; with 自得 every holder can matter."""
    from scoring.models import Event

    Event.objects.filter(slug="t-pairs").update(options={"self_capture": False})
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=7))
    holder = page.locator("select[name=holder-SQ]")
    expect(holder).to_be_disabled()
    page.select_option("select[name=exposed-SQ]", label="明")
    expect(holder).to_be_enabled()
    Event.objects.filter(slug="t-pairs").update(options={})
    page.reload()
    expect(page.locator("select[name=holder-DJ]")).to_be_enabled()
