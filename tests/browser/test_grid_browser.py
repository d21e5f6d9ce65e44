"""The referees' live grid in Chromium: it reloads itself when the round changes, except while a
form of the page is being sent (a publication's message was lost to such a reload: make test
under load, 2026-11-27)."""

import pytest
from playwright.sync_api import expect

from scoring.entry.services import deal_save
from tests.conftest import POLLS_QUICKENED, new_page
from tests.referee_setup import PASSWORD, example_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GRID = "/referee/t-pairs/rounds/3/"

# Resolves once the page's own timers have run `ticks` periods of the grid's poll: every poll the
# grid would make in that time has been made (timers of one period fire in the order set).
POLL_PERIODS_PASSED = """([ticks, period]) => new Promise((done) => {
  let count = 0;
  const timer = setInterval(() => { if (++count >= ticks) { clearInterval(timer); done(true); } }, period);
})"""


def test_a_round_that_changes_reloads_the_grid_unless_a_form_is_being_sent(live_server, browser, event, people):
    page = new_page(browser, viewport={"width": 1024, "height": 768})
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/organiser/**")
    page.goto(live_server.url + GRID)
    expect(page.locator("#grid")).to_have_attribute("data-round", "scheduled")
    # The period the page polls at, as its own setInterval gets it (tests/conftest.py quickens it).
    period = page.evaluate(
        """(quickened) => {
          const ms = Math.max(2, parseInt(document.getElementById('grid').dataset.pollSeconds, 10) || 5) * 1000;
          return Math.max(1000, ms / quickened);
        }""",
        POLLS_QUICKENED,
    )

    # A form of the page is sent (a synthetic submit: the event, with no navigation after it),
    # then the round starts: the grid does not reload under the answer it waits for.
    page.evaluate("window.stillThisPage = true")
    page.locator("#area").evaluate("form => form.dispatchEvent(new Event('submit', {bubbles: true, cancelable: true}))")
    table = event.rounds.get(number=3).tables.get(number=1)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    page.evaluate(POLL_PERIODS_PASSED, [3, period])
    assert page.evaluate("window.stillThisPage === true")
    expect(page.locator("#grid")).to_have_attribute("data-round", "scheduled")

    # Back on the page (as from the browser's cache), the next poll sees the round in play and
    # reloads the grid: the check above was not vacuous.
    with page.expect_event("load"):
        page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow'))")
    expect(page.locator("#grid")).to_have_attribute("data-round", "in_play")
    assert page.evaluate("window.stillThisPage === undefined")
