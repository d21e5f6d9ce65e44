"""A pairs event swapping directions at the second 节, in Chromium at tablet size (issue 23):
the organiser turns the swap on and registers a pair's substitute, fields him for the second 节
on the line-up page, and the referee's entry page of a second-节 board says where each seat
sits while the deal is recorded in the draw's seats."""

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.models import Deal
from tests.archives import EXAMPLES, pairs_archive
from tests.browser.test_entry_browser import CARD_ORDER, seat_of
from tests.conftest import new_page
from tests.referee_setup import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}


@pytest.fixture
def event():
    rounds = [{"number": 1, "sessions": 2, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=4)
    archive["event"]["sessions_per_round"] = 2
    return import_archive(archive)


def test_a_pairs_event_swaps_directions_and_fields_a_substitute_at_the_second_session(live_server, browser, event):
    make_user("director", "organiser", event)
    page = new_page(browser, **TABLET)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/organiser/**")

    # The event's settings: directions swapped between 节.
    page.goto(f"{live_server.url}/organiser/{event.slug}/edit/")
    page.check("#id_swap_directions")
    page.click("#event-form button[type=submit]")
    page.wait_for_url(f"**/organiser/{event.slug}/")

    # Pair B registers its substitute, who sits East from the second 节.
    page.goto(f"{live_server.url}/organiser/{event.slug}/entrants/edit/B/")
    page.fill("#id_name3", "替补丙")
    page.click("form.settings button[type=submit]")
    page.wait_for_url(f"**/organiser/{event.slug}/entrants/")
    page.goto(f"{live_server.url}/organiser/{event.slug}/rounds/1/")
    page.click("#lineups a")
    page.select_option("select[name=session]", "2")
    page.wait_for_url("**session=2**")
    page.select_option("select[name=t1-E]", label="B-3 替补丙")
    page.click("#lineup-form button[type=submit]")
    page.wait_for_url(f"**/organiser/{event.slug}/rounds/1/")

    # The second 节's board 3: the page says where each draw seat sits; the deal keeps the draw's seats.
    page.goto(f"{live_server.url}/referee/{event.slug}/rounds/1/tables/1/boards/3/")
    expect(page.locator("#swapped-directions")).to_contain_text("N 现坐东 E")
    expect(page.locator("#swapped-directions")).to_contain_text("W 现坐北 N")
    expect(page.locator(".seats-line")).to_contain_text("替补丙")
    page.wait_for_load_state("load")
    page.keyboard.type("".join(seat_of("T1")[card].lower() for card in CARD_ORDER))
    page.click("#save")
    page.wait_for_selector("#deal-status:has-text('v1')")
    deal = Deal.objects.get(table__round__event=event, board=3)
    assert (deal.ns_score, deal.ew_score) == (
        EXAMPLES["T1"]["expected"]["sides"]["NS"],
        EXAMPLES["T1"]["expected"]["sides"]["EW"],
    )

    # The first 节's boards are played as drawn.
    page.goto(f"{live_server.url}/referee/{event.slug}/rounds/1/tables/1/boards/1/")
    expect(page.locator("#rules-in-force")).to_be_visible()
    expect(page.locator("#swapped-directions")).to_have_count(0)
