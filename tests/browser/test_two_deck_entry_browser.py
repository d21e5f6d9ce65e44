"""A two-deck (拱双猪) deal entered by keyboard in Chromium at tablet size: 32 card rows, exposures per copy."""

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.games.huapai import POINT_CARDS
from scoring.models import Deal
from tests.archives import EXAMPLES
from tests.conftest import new_page
from tests.referee_setup import PASSWORD, make_user
from tests.results.test_rule_sets_end_to_end import two_deck_archive

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_deck_event():
    event = import_archive(two_deck_archive())
    make_user("referee1", "referee", event)
    return event


def keys_for(example):
    """One key per row: each point card's first copy, then its second, in the grid's order."""
    takers = {card: [] for card in POINT_CARDS}
    for seat, cards in EXAMPLES[example]["deal"]["captured"].items():
        for card in cards:
            takers[card].append(seat)
    return "".join(seat.lower() for card in POINT_CARDS for seat in sorted(takers[card]))


def test_a_two_deck_deal_by_keyboard_shows_raw_and_final_scores(live_server, browser, two_deck_event):
    page = new_page(browser, viewport={"width": 1024, "height": 768})
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "referee1")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/referee/**")
    page.goto(live_server.url + "/referee/t-2deck/rounds/2/tables/1/boards/1/")
    assert page.locator(".card-row").count() == 32
    assert "两副牌" in page.locator("#rules-in-force").inner_text()
    page.locator(".card-row input").first.focus()
    page.keyboard.type(keys_for("D1"))
    # D1: both ♣10, both ♥A and both ♠Q exposed (holders from the example).
    deal = EXAMPLES["D1"]["deal"]
    for card in ("C10", "HA", "SQ"):
        for copy, holder in enumerate(deal["holders"][card], start=1):
            suffix = "" if copy == 1 else f"-{copy}"
            # Two decks count no 自得: a holder is asked once the copy is exposed.
            page.select_option(f"select[name=exposed-{card}{suffix}]", label="明")
            page.select_option(f"select[name=holder-{card}{suffix}]", holder)
    expected = EXAMPLES["D1"]["expected"]
    # The raw score is the same before and after the last exposure is chosen: wait for the final
    # score of the preview that follows the last choice (reading it at once raced that preview).
    expect(page.locator('#preview-scores [data-seat="N"]')).to_have_text(str(expected["scores"]["N"]))
    expect(page.locator('#preview-scores [data-raw="N"]')).to_have_text(str(expected["raw"]["N"]))
    breakdown = page.locator("#breakdown").inner_text()
    assert "变压器 ×16" in breakdown and "双明" in breakdown
    page.keyboard.press("Control+s")
    page.wait_for_selector("#deal-status:has-text('v1')")
    stored = Deal.objects.get(table__round__number=2, table__number=1, board=1)
    assert stored.scores == expected["scores"] and stored.raw == expected["raw"]
