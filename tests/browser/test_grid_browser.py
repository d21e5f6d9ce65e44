"""The referees' live grid in Chromium: it reloads itself when the round changes, but asks
nothing while a form of the page is being sent, whose answer is the page to show."""

import pytest
from playwright.sync_api import expect

from scoring.entry.services import deal_save
from tests.conftest import new_page, signed_in
from tests.referee_setup import example_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GRID = "/referee/t-pairs/rounds/3/"

# Resolves once a timer of the grid's own period has fired `ticks` times: the page's setInterval
# (quickened by tests/conftest.py as the grid's is) fires timers of one period in the order set,
# so the grid's poll has come due at least `ticks` - 1 times meanwhile.
POLL_PERIODS_PASSED = """(ticks) => new Promise((done) => {
  const seconds = Math.max(2, parseInt(document.getElementById("grid").dataset.pollSeconds, 10) || 5);
  let count = 0;
  const timer = setInterval(() => { if (++count >= ticks) { clearInterval(timer); done(true); } }, seconds * 1000);
})"""


def test_a_round_that_changes_reloads_the_grid_unless_a_form_is_being_sent(live_server, browser, event, people):
    page = new_page(browser, viewport={"width": 1024, "height": 768})
    signed_in(page, live_server.url, "organiser")
    page.goto(live_server.url + GRID)
    grid = page.locator("#grid")
    expect(grid).to_have_attribute("data-round", "scheduled")
    live = grid.get_attribute("data-live")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if live in request.url else None)

    # A form of the page is sent (a synthetic submit: the event, with no navigation after it),
    # then the round starts: the grid asks nothing, so nothing reloads it under the answer.
    page.evaluate("window.stillThisPage = true")
    page.locator("#area").evaluate("form => form.dispatchEvent(new Event('submit', {bubbles: true, cancelable: true}))")
    table = event.rounds.get(number=3).tables.get(number=1)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    page.evaluate(POLL_PERIODS_PASSED, 3)
    assert asked == []
    assert page.evaluate("window.stillThisPage === true")

    # Back on the page from the browser's cache, the next poll sees the round in play and
    # reloads the grid: the checks above were not vacuous.
    with page.expect_event("load"):
        page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(grid).to_have_attribute("data-round", "in_play")
    assert asked and page.evaluate("window.stillThisPage === undefined")
