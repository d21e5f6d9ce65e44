"""Issue 21, item 9 (and the whole-table check of item 2), page by page: 局 running totals only where
局 decide a match — the referees' dashboard, the round's page and its PDF (also in the results pack) —
the bye box and the swap boxes labelled, the staff form offering a referee first, an adjusted score
on the whole-table check."""

import subprocess

import pytest
from lxml import html

from scoring.archive.database import import_archive
from scoring.entry.services import deal_save
from scoring.models import Table
from tests.archives import deal, one_match, sides
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db


def parsed(response):
    assert response.status_code == 200
    return html.fromstring(response.content.decode())


def texts(nodes):
    """Each node's text, its pieces (lines broken with <br>) joined with one space."""
    return [" ".join(" ".join(node.itertext()).split()) for node in nodes]


def pdf_text(data, tmp_path):
    path = tmp_path / "results.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("mode", ["boards", "games"])
def test_game_totals_are_shown_only_where_games_decide_a_match(client, mode, tmp_path):
    """Two boards, T14 then T1: in a games-scored event T14 ends 局 1 (NS +3200) and 局 2 runs on
    after T1; in a boards-scored event the same totals decide nothing and appear nowhere."""
    rounds = one_match([deal("T14", 1), deal("T1", 2)], mode=mode, length=2)
    event = import_archive(rounds)
    first, second = sides("T14"), sides("T1")
    games = f"{first['NS']}/{first['EW']} {second['NS']}/{second['EW']}…"
    by_games = mode == "games"

    page = parsed(client.get("/events/t-pairs/rounds/1/"))
    headings = texts(page.xpath("//table/thead//th"))
    assert ("局" in headings) is by_games, headings
    assert (games in texts(page.xpath("//table/tbody"))[0]) is by_games

    client.force_login(make_user("ref", "referee", event))
    dashboard = parsed(client.get("/referee/t-pairs/rounds/1/"))
    headings = texts(dashboard.xpath("//table[@class='dashboard']/thead//th"))
    assert ("局（累计）" in headings) is by_games, headings
    row = texts(dashboard.xpath("//table[@class='dashboard']/tbody/tr"))[0]
    assert (f"1: {first['NS']}/{first['EW']}" in row) is by_games, row

    response = client.get("/events/t-pairs/rounds/1/results.pdf")
    text = pdf_text(b"".join(response.streaming_content), tmp_path)
    header = next(line for line in text.splitlines() if "NS 得分" in line)
    assert header.split()[-1] == ("局" if by_games else "副数"), header
    assert ("局" in text) is by_games
    assert (games in " ".join(text.split())) is by_games


def test_the_bye_box_and_the_swap_boxes_say_what_they_are(client, event, people):
    """The box between 退赛 and 轮空 on the entrants page, and the two boxes of the round console's
    swap (the second had only a placeholder), each inside a label with words."""
    client.force_login(people["organiser"])
    page = parsed(client.get("/organiser/t-pairs/entrants/"))
    boxes = page.xpath("//form[contains(@action, '/bye/')]//input[@name='round']")
    assert len(boxes) == 4  # one per pair
    console = parsed(client.get("/organiser/t-pairs/rounds/3/"))  # paired, not started: swaps offered
    swap = console.xpath("//form[@id='swap-form']//input[not(@type='hidden')]")
    assert len(swap) == 2
    for box in [*boxes, *swap]:
        labels = box.xpath("ancestor::label")
        words = labels[0].text_content().strip() if labels else ""
        assert words, html.tostring(box)
        assert words == "申请轮空的轮次" if box in boxes else words in ("调换两对", "与"), words


def test_the_staff_form_offers_a_referee_first(client, event, people):
    client.force_login(people["organiser"])
    page = parsed(client.get("/organiser/t-pairs/staff/"))
    chosen = page.xpath("//form[@id='staff-form']//select[@id='id_role']/option[@selected]")
    assert [option.get("value") for option in chosen] == ["referee"]


def test_the_whole_table_check_shows_an_adjusted_score_and_the_scores_it_gives(client, event, people):
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    adjusted = {"N": 100, "E": -100, "S": 0, "W": 0}
    body = dict(example_deal("T1"), adjusted=adjusted, adjusted_reason="牌序错乱")
    saved, _ = deal_save(table=table, board=1, deal_json=body, user=people["organiser"])
    assert saved.scores == adjusted
    deal_save(table=table, board=2, deal_json=example_deal("T1"), user=people["referee1"])
    client.force_login(people["referee2"])
    page = parsed(client.get("/referee/t-pairs/rounds/3/tables/1/confirm/"))
    (adjusted_row,) = page.xpath("//tr[@data-board='1']")
    assert texts(adjusted_row.xpath(".//*[@class='adjusted']")) == ["调整分 N 100 · E -100 · S 0 · W 0"]
    # The score column shows what the adjustment gives, seat by seat.
    assert texts(adjusted_row.xpath("./td[@class='num']"))[-1] == "N 100 E -100 S 0 W 0"
    assert page.xpath("//tr[@data-board='2']//*[@class='adjusted']") == []
    assert texts(page.xpath("//tr[@data-board='2']/td[@class='num']"))[-1] == "N -210 E 60 S -60 W -20"
