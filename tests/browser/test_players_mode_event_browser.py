"""A round of the 12-pair event scored by the players, from the papers, in Chromium (issue 22).

Sibling of test_event_from_scratch_browser: the organiser creates the event through the
pages in players' entry, imports the pairs, pairs round 1 and prints the entrant cards; the
players of each table open the table's link (as on its score sheet) on two phones, one side
enters the board with the code from its card, the other verifies with its own, and both sign
off; at one table the other side disputes and a referee settles it from the live grid. The
organiser then publishes the round. No management command, archive or ORM write after the
superuser.

With HUAPAI_SCREENSHOTS=<folder> the test also saves the screenshots of docs/organising.md
§6 there (table-entry-*.png).
"""

import random
import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoring.models import Deal, DealHistory, Table
from tests.browser.test_event_from_scratch_browser import (
    ADMIN_PASSWORD,
    PHONE,
    REFEREE_PASSWORD,
    SHOTS,
    SLUG,
    add_referees,
    create_event,
    import_entrants,
    new_page,
    pair_next_round,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_ANDROID = {"width": 360, "height": 740}
CARDS = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2", "SQ", "DJ", "C10"]


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"table-entry-{name}.png"))


def cards_text(data, tmp_path):
    path = tmp_path / "cards.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", "", text)  # the code is printed a letter per cell


def enter_board(page, rng, code):
    page.click('#boards button[data-board="1"]')
    for card in CARDS:
        page.locator(f'.card-row[data-field="card-{card}"] label', has_text=rng.choice("NESW")).click()
    expect(page.locator("#grid-progress")).to_have_text("每张牌都已分配")
    expect(page.locator('#preview-scores [data-side="NS"]')).not_to_be_empty()  # the engine's score, live
    page.fill("#entry-code", code)


def test_a_round_scored_by_the_players_from_the_printed_links_and_cards(live_server, browser, tmp_path):
    base = live_server.url
    get_user_model().objects.create_superuser("admin", password=ADMIN_PASSWORD)
    director = new_page(browser)
    sign_in(director, base, "admin", ADMIN_PASSWORD, lands="organiser")
    create_event(director, base)
    director.goto(f"{base}/organiser/{SLUG}/edit/")
    director.select_option("#id_entry", "players")
    director.click("#event-form button[type=submit]")
    director.wait_for_url(f"**/organiser/{SLUG}/")
    add_referees(director)
    import_entrants(director, tmp_path)
    pair_next_round(director, 1)

    # The papers: every table's link (on its score sheet, and listed here) and the entrant cards.
    expect(director.locator("#table-links")).to_have_attribute("open", "")
    rows = director.locator("#table-links tbody tr")
    expect(rows).to_have_count(6)
    tables = []
    for index in range(6):
        row = rows.nth(index)
        link = row.locator("code.link").inner_text()
        ns_code, ew_code = (row.locator("td").nth(n).inner_text() for n in (2, 3))
        tables.append((link, ns_code, ew_code))
    with director.expect_download() as caught:
        director.click("#round-entrant-cards")
    printed = cards_text(Path(caught.value.path()).read_bytes(), tmp_path)
    assert all(ns in printed and ew in printed for _link, ns, ew in tables)

    rng = random.Random(22)
    north_south = new_page(browser, PHONE)
    east_west = new_page(browser, SMALL_ANDROID)
    for number, (link, ns_code, ew_code) in enumerate(tables, start=1):
        assert link.startswith(base + "/t/")
        north_south.goto(link)
        east_west.goto(link)
        enter_board(north_south, rng, ns_code)
        if number == 1:
            shot(north_south, "1-phone")
        north_south.click("#save")
        expect(north_south.locator("#outbox-status")).to_have_text("全部已保存到服务器")
        east_west.click('#boards button[data-board="1"]')
        expect(east_west.locator("#verify-form")).to_be_visible()
        expect(east_west.locator("#deal-words")).to_contain_text("♠Q")
        if number == 1:
            shot(east_west, "2-verify")
        if number == 6:
            east_west.click("#dispute-box summary")
            east_west.fill("#dispute-form input[name=code]", ew_code)
            east_west.fill("#dispute-form textarea[name=reason]", "♠Q 不是这一家吃的")
            east_west.click("#dispute")
            expect(east_west.locator('#boards button[data-board="1"]')).to_have_class("board-button disputed")
            continue
        east_west.fill("#verify-form input[name=code]", ew_code)
        east_west.click("#verify")
        expect(east_west.locator("#signoff-section")).to_be_visible()
        if number == 1:
            east_west.locator("#signoff-section").scroll_into_view_if_needed()
            shot(east_west, "4-signoff")
        east_west.fill("#signoff-form input[name=code]", ew_code)
        east_west.click("#signoff")
        expect(east_west.locator("#signed-off")).to_contain_text("EW 已签字")
        north_south.reload()
        north_south.fill("#signoff-form input[name=code]", ns_code)
        north_south.click("#signoff")
        expect(north_south.locator("#read-only")).to_contain_text("双方已签字")

    # The referee walks to the table the grid shows and rules with a reason.
    referee = new_page(browser)
    sign_in(referee, base, "referee1", REFEREE_PASSWORD)
    referee.goto(f"{base}/referee/{SLUG}/rounds/1/")
    expect(referee.locator("tr.grid-row.signed_off")).to_have_count(5)
    expect(referee.locator("#referee-queue")).to_contain_text("♠Q 不是这一家吃的")
    shot(referee, "3-grid")
    referee.click("#referee-queue a")
    referee.fill("#confirm-reason", "问过四家，原录入正确")
    referee.click("#confirm")
    expect(referee.locator("#deal-status")).to_contain_text("已确认")

    publish = new_page(browser)
    sign_in(publish, base, "admin", ADMIN_PASSWORD, lands="organiser")
    publish.goto(f"{base}/organiser/{SLUG}/rounds/1/")
    publish.click("#publish-round")
    publish.wait_for_selector("h1 .badge.provisional")
    # Published: the links only read now.
    north_south.goto(tables[5][0])
    expect(north_south.locator("#read-only")).to_contain_text("本轮成绩已公布")

    assert Deal.objects.filter(status=Deal.Status.CONFIRMED).count() == 6
    assert Table.objects.filter(ns_signed_off_at__isnull=False, ew_signed_off_at__isnull=False).count() == 5
    by_players = DealHistory.objects.filter(channel=DealHistory.TABLE_LINK)
    assert by_players.filter(action="create").count() == 6 and by_players.filter(action="confirm").count() == 5
    assert DealHistory.objects.filter(action="ruling", user__username="referee1").count() == 1
    for opened in (director, north_south, east_west, referee, publish):
        opened.context.close()
