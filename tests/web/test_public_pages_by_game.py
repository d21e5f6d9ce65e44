"""Public pages of the other games (issue 43, found in its quick pass): the round page offers the
travellers of the boards its tables played — not the round's most deals, which a 升级 match to a
target never reaches — and the public list of changes shows each change by the game's seats
(跑胡子: E S W, no North)."""

import re

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.entry.services import deal_save
from scoring.models import Table
from tests.archives import PAOHUZI, game_examples, paohuzi_archive, shengji_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

# Worked by hand from law §2.3, from A with the target 3: 0 points to 台下 twice is S2 twice, the
# side on 台上 going A→3→5, past 3 after two deals: each match is over on its second deal.
TO_THREE = {"start_level": 1, "target": 3, "deals": None}


def test_a_shengji_round_page_offers_the_travellers_of_the_boards_played_only():
    archive = shengji_archive(
        table_one=[{"board": 1, "declarer": "NS", "points": 0}, {"board": 2, "points": 0}],
        table_two=[{"board": 1, "declarer": "EW", "points": 0}, {"board": 2, "points": 0}],
        options=TO_THREE,
        boards=40,
        status="provisional",
    )
    event = import_archive(archive)
    page = Client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    linked = {int(board) for board in re.findall(rf"/events/{event.slug}/rounds/1/boards/(\d+)/", page)}
    assert linked == {1, 2}  # not 1…40: the third board's traveller does not exist
    assert Client().get(f"/events/{event.slug}/rounds/1/boards/2/").status_code == 200


def test_the_public_list_of_changes_shows_a_paohuzi_change_by_its_three_seats():
    event = import_archive(paohuzi_archive(status="provisional"))
    referee = make_user("referee1", "referee", event)
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    deal = table.deals.get(board=2)  # PHZ13, a 黄庄 with East's two 王霸; corrected to PHZ14's
    corrected = {**deal.as_deal_json(), **game_examples(PAOHUZI)["PHZ14"]["deal"]}
    corrected.pop("game", None)
    deal_save(table=table, board=2, deal_json=corrected, user=referee, expected_version=deal.version, reason="王霸记错")
    page = Client().get(f"/events/{event.slug}/changes/").content.decode()
    assert "更正前 E/S/W" in page and "N/E/S/W" not in page
    (row,) = re.findall(r'<tr id="change-\d+">.*?</tr>', page, re.S)
    before, after = (
        [int(n) for n in cell.split(" / ")] for cell in re.findall(r"<td>(-?\d+ / -?\d+ / -?\d+)</td>", row)
    )
    scores = game_examples(PAOHUZI)
    assert before == [scores["PHZ13"]["expected"]["scores"][seat] for seat in "ESW"]
    assert after == [scores["PHZ14"]["expected"]["scores"][seat] for seat in "ESW"]
