"""Public pages: events, standings (published rounds only), an entrant's record."""

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"  # round 2 not published
    return import_archive(archive)


def test_the_home_page_lists_events_linked_to_their_standings(client, event):
    response = client.get("/")
    assert f'href="/events/{event.slug}/standings/"' in response.text
    assert "测试双人赛" in response.text


def test_the_standings_page_shows_published_rounds_only(client, event):
    response = client.get(f"/events/{event.slug}/standings/")
    assert response.status_code == 200
    rows = response.context["table"].data.data
    # Round 1 only: B +310 and C +350 won; A and D lost.
    assert [(r["id"], r["match_points"], r["score_difference"]) for r in rows] == [
        ("C", 2, 350),
        ("B", 2, 310),
        ("A", 0, -310),
        ("D", 0, -350),
    ]
    assert "场分相同，得分差少 40" in response.text


def test_an_unpublished_round_cannot_be_asked_for(client, event):
    assert client.get(f"/events/{event.slug}/standings/?after=2").status_code == 404


def test_the_standings_filter_finds_a_pair_by_number(client, event):
    response = client.get(f"/events/{event.slug}/standings/?q=c")
    assert [r["id"] for r in response.context["table"].data.data] == ["C"]


def test_the_standings_table_sorts_by_a_column(client, event):
    response = client.get(f"/events/{event.slug}/standings/?sort=-total_score")
    ids = [row.record["id"] for row in response.context["table"].rows]
    # Round-1 totals by hand: C +300, B +40, D −50, A −270.
    assert ids == ["C", "B", "D", "A"]


def test_an_entrants_page_shows_its_published_matches_and_deals(client, event):
    response = client.get(f"/events/{event.slug}/entrants/A/")
    assert response.status_code == 200
    matches = response.context["matches"]
    assert [(m["round"], m["own"], m["other"], m["points"]) for m in matches] == [(1, -270, 40, 0)]
    assert matches[0]["deals"][0]["scores"] == {"N": -210, "E": 60, "S": -60, "W": -20}


def test_an_unknown_entrant_is_not_found(client, event):
    assert client.get(f"/events/{event.slug}/entrants/ZZ/").status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_standings_page_in_chromium_filters_and_sorts(live_server, page):
    archive = four_pairs_two_rounds()
    import_archive(archive)
    page.goto(f"{live_server.url}/events/t-pairs/standings/")
    first_rows = page.locator("#standings tbody tr")
    assert first_rows.count() == 4
    assert first_rows.nth(0).locator("td").nth(1).inner_text() == "B"
    page.get_by_role("link", name="得分差").click()
    page.wait_for_url("**sort=score_difference**")
    assert page.locator("#standings tbody tr").nth(0).locator("td").nth(1).inner_text() == "D"
    page.fill("input[name=q]", "A")
    page.get_by_role("button", name="查看").click()
    page.wait_for_url("**q=A**")
    # count() does not wait: the filtered page may still be replacing the full one.
    expect(page.locator("#standings tbody tr")).to_have_count(1)
    expect(page.locator("#standings tbody tr td").nth(1)).to_have_text("A")
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.locator("#standings").is_visible()


def test_cached_standings_follow_a_correction(client, event):
    from scoring.entry.services import deal_save
    from scoring.models import Deal, Round
    from tests.referee_setup import example_deal, make_user

    Round.objects.filter(event=event, number=2).update(status="official")
    before = {
        r["id"]: r["score_difference"] for r in client.get("/events/t-pairs/standings/").context["table"].data.data
    }
    deal = Deal.objects.get(table__round__number=2, table__number=1)  # A (NS) v C: T2, NS −70 / EW −180
    deal_save(
        table=deal.table,
        board=1,
        deal_json=example_deal("T7"),
        user=make_user("boss", "organiser", event),
        expected_version=deal.version,
        reason="更正",
    )  # now T7: NS +300 / EW −50
    after = {
        r["id"]: r["score_difference"] for r in client.get("/events/t-pairs/standings/").context["table"].data.data
    }
    assert after["A"] - before["A"] == (300 + 50) - (-70 + 180)
