"""The referee's board page arrives with its preview drawn, so nothing on it moves when an answer
of the engine is drawn (a referee's finger may already be on 确认 or on a card's row). The page
is read twice: as served, and once the engine's answer for the same form is drawn by the page's
script; every box and every line of the preview must be the same, and the served page must
already show the engine's figures (the law's worked examples). Coming back to a page whose form
the browser puts back as it was typed, the page asks the engine on load."""

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.entry.services import deal_save
from scoring.models import Event, Table
from tests.archives import DOUDIZHU, EXAMPLES, doudizhu_archive, doudizhu_deal, game_examples
from tests.browser.test_entry_browser import CARD_ORDER, COUNT_DRAWN_PREVIEWS, ENTRY
from tests.conftest import new_page, signed_in
from tests.referee_setup import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
# Everything a finger aims at, and every line the preview draws.
BOXES = (
    "#confirm, #confirm-next, #save, #save-next, .card-row, .field-row, select, input[type=text], "
    "input[type=number], details summary, #breakdown, #games, #problems, #questions, #match-lines"
)
LINES = (
    "#preview-scores, #breakdown, #games, #bar-scores, #grid-progress, #fields-progress, #problems, "
    "#questions, #match-lines, #penalty-errors, .field-errors"
)


def read(page):
    """Each box in the document (the focus the script sets may scroll the window), each line's
    text and the marks the preview puts on rows and selects."""
    return page.evaluate(
        """([boxes, lines]) => ({
            boxes: Array.from(document.querySelectorAll(boxes)).map((e) => {
                const box = e.getBoundingClientRect();
                return [e.id || e.className || e.name, box.left + window.scrollX, box.top + window.scrollY,
                        box.width, box.height];
            }),
            lines: Array.from(document.querySelectorAll(lines)).map((e) => [e.id || e.className, e.textContent]),
            marks: document.querySelectorAll(".has-error, select.ask").length,
        })""",
        [BOXES, LINES],
    )


def served_then_answered(page, url):
    """The page as served (it asks the engine nothing on load), and once the engine's answer for
    the same form is drawn (a change event with nothing changed asks for it)."""
    asked = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/preview/") else None)
    page.add_init_script(COUNT_DRAWN_PREVIEWS)
    page.goto(url)
    served = read(page)
    assert asked == []
    page.evaluate("document.getElementById('entry').dispatchEvent(new Event('change'))")
    expect(page.locator("html")).to_have_attribute("data-previews-drawn", "1")
    return served, read(page)


def games_event(people):
    """t-pairs scored by 局 (two of 1,000): table 1 has boards 1 and 2 entered by referee1."""
    Event.objects.filter(slug="t-pairs").update(match_mode="games", match_length=2, game_threshold=1000)
    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    for board, name in ((1, "T1"), (2, "N3")):
        deal_save(table=table, board=board, deal_json=EXAMPLES[name]["deal"], user=people["referee1"])


def board_of_games_event(live_server, browser, people, viewport, username, board):
    """`username`'s page of t-pairs' board `board` (`games_event`) as served, checked against the
    engine's answer drawn; the page, and the served preview's lines."""
    games_event(people)
    page = new_page(browser, viewport=viewport)
    signed_in(page, live_server.url, username)
    served, answered = served_then_answered(page, live_server.url + ENTRY.format(board=board))
    assert served == answered
    return page, dict(served["lines"])


def test_a_stored_deal_is_served_with_its_preview_and_confirm_stays_put(live_server, browser, people):
    page, lines = board_of_games_event(live_server, browser, people, PHONE, "referee2", 2)
    # Served already: N3's score (明, 首明 and 自得), its breakdown, and the 局 so far.
    sides = EXAMPLES["N3"]["expected"]["sides"]
    assert page.locator('#preview-scores [data-side="NS"]').inner_text() == str(sides["NS"])
    assert lines["bar-scores"] == f"NS {sides['NS']} · EW {sides['EW']}"
    assert "自得" in lines["breakdown"] and "首明" in lines["breakdown"]
    first_game_ns = EXAMPLES["T1"]["expected"]["sides"]["NS"] + sides["NS"]
    assert lines["games"].startswith(f"第1局 NS {first_game_ns} ")
    # And a tap on 确认 right after the page loads confirms.
    page.goto(live_server.url + ENTRY.format(board=2))
    page.click("#confirm")
    expect(page.locator("#deal-status")).to_contain_text("已确认")


def test_an_empty_board_is_served_with_the_cards_left_and_the_games_so_far(live_server, browser, people):
    _page, lines = board_of_games_event(live_server, browser, people, TABLET, "referee1", 3)
    assert lines["grid-progress"] == "还有 16 张牌未分配"
    assert lines["problems"] == "" and lines["bar-scores"] == ""
    assert lines["games"].startswith("第1局 NS ")


def test_another_games_board_is_served_with_its_preview(live_server, browser):
    """蚌埠斗地主's fields: a stored deal (its score, the breakdown, the table's totals) and an
    empty board (the fields still to fill)."""
    event = import_archive(doudizhu_archive(tables={1: (), 2: ()}))
    referee1 = make_user("referee1", "referee", event)
    make_user("referee2", "referee", event)
    table = Table.objects.get(round__event=event, number=1)
    stored = {key: value for key, value in doudizhu_deal("DDZ14", 1).items() if key != "board"}
    deal_save(table=table, board=1, deal_json=stored, user=referee1)
    page = new_page(browser, viewport=TABLET)
    signed_in(page, live_server.url, "referee2")
    board = live_server.url + "/referee/t-ddz/rounds/1/tables/1/boards/{board}/"
    served, answered = served_then_answered(page, board.format(board=1))
    assert served == answered
    scores = game_examples(DOUDIZHU)["DDZ14"]["expected"]["scores"]
    assert dict(served["lines"])["bar-scores"] == " · ".join(f"{seat} {scores[seat]}" for seat in "NESW")
    assert dict(served["lines"])["breakdown"] != ""

    served, answered = served_then_answered(page, board.format(board=2))
    assert served == answered
    assert dict(served["lines"])["fields-progress"].startswith("还要填：")


def test_coming_back_to_a_board_typed_and_not_saved_shows_the_preview_of_what_is_back(live_server, page, people):
    signed_in(page, live_server.url, "referee1")
    page.goto(live_server.url + ENTRY.format(board=4))
    seats = {card: seat for seat, cards in EXAMPLES["T1"]["deal"]["captured"].items() for card in cards}
    page.keyboard.type("".join(seats[card].lower() for card in CARD_ORDER))
    expected = EXAMPLES["T1"]["expected"]["scores"]["N"]
    page.locator('#preview-scores [data-seat="N"]').filter(has_text=str(expected)).wait_for()
    page.goto(live_server.url + "/referee/t-pairs/rounds/3/")
    page.go_back()  # the browser puts the cards back as they were typed; the server drew an empty grid
    expect(page.locator('.card-row[data-card="HA"] input:checked')).to_have_count(1)
    expect(page.locator('#preview-scores [data-seat="N"]')).to_have_text(str(expected))
    expect(page.locator("#grid-progress")).to_have_text("每张牌都已分配")
