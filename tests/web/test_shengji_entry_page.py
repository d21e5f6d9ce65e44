"""The referee's entry page for a board of a 升级 event: 台上 asked on a table's first deal only,
台下's points, the level state before the deal and the match's progress on the page, the live
score and the state after from the engine (the preview endpoint), the law's refusals beside the
field, confirmation by a second referee, the history in the game's words.
Expected values are the law's worked examples (shared/rules/games/examples.json: SJ01, SJX1)."""

import re

import pytest

from scoring.archive.database import import_archive
from scoring.models import Deal, Event
from tests.archives import SHENGJI, game_examples, shengji_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(SHENGJI)
BOARD = "/referee/t-sj/rounds/1/tables/1/boards/{board}/"


@pytest.fixture
def referees(client):
    event = import_archive(shengji_archive(table_one=[], table_two=[]))
    people = {"one": make_user("referee1", "referee", event), "two": make_user("referee2", "referee", event)}
    client.force_login(people["one"])
    return people


def errors_beside(page, key):
    found = re.search(rf'data-errors-for="{key}"[^>]*>(.*?)</div>', page, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)).strip() if found else None


def test_the_first_deal_asks_the_side_on_top_and_the_points(client, referees):
    page = client.get(BOARD.format(board=1)).content.decode()
    assert 'data-key="declarer"' in page and 'data-key="points"' in page
    assert 'value="NS"' in page and 'value="EW"' in page and 'step="5"' in page
    assert 'id="match-lines"' in page and "双方从 A 开始" in page
    assert "升级 (shengji)" in page and "打满 4 副后级高者胜" in page  # the rules in force, in words
    assert 'id="not-played-box"' not in page  # a match cannot skip a deal: nothing to record not played


def test_a_deal_entered_on_the_page_is_stored_with_the_laws_scores_and_the_next_asks_the_points(client, referees):
    example = EXAMPLES["SJ01"]
    response = client.post(BOARD.format(board=1), {**example["deal"], "points": str(example["deal"]["points"])})
    assert response.status_code == 302
    deal = Deal.objects.get(table__number=1, board=1)
    assert deal.scores == example["expected"]["scores"] and deal.status == Deal.Status.DRAFT
    page = client.get(BOARD.format(board=2)).content.decode()
    assert 'data-key="declarer"' not in page and 'data-key="points"' in page  # the state says who is on top
    levels = example["expected"]["state"]["levels"]  # NS at 3, EW at A after SJ01
    assert f"NS 打3（{levels['NS']}）" in page and f"EW 打A（{levels['EW']}）" in page
    assert "已打 1 副" in page


def test_the_preview_is_the_engines_with_the_state_after(client, referees):
    client.post(BOARD.format(board=1), {"declarer": "NS", "points": "40"})
    preview = client.post(BOARD.format(board=2) + "preview/", {"points": "80"}).json()
    # S3 from NS 3: 台上 NS up one, to 4.
    assert preview["scores"] == {"N": 1, "E": 0, "S": 1, "W": 0}
    assert any("NS 打4" in line for line in preview["match"])
    zero = client.post(BOARD.format(board=2) + "preview/", {"points": "0"}).json()
    assert zero["scores"] == {"N": 2, "E": 0, "S": 2, "W": 0}  # 0 is points entered (S2), not a missing key


def test_an_impossible_deal_is_refused_beside_the_field_with_the_laws_reason(client, referees):
    client.post(BOARD.format(board=1), {"declarer": "NS", "points": "40"})
    bad = EXAMPLES["SJX1"]  # 47 points: not a multiple of 5
    response = client.post(BOARD.format(board=2), {"points": str(bad["deal"]["points"])})
    assert response.status_code == 400
    assert "5 的倍数" in errors_beside(response.content.decode(), "points")
    assert not Deal.objects.filter(board=2).exists()
    missing = client.post(BOARD.format(board=3), {"points": "80"})
    assert missing.status_code == 400 and "请先录第 2 副" in missing.content.decode()


def test_a_second_referee_confirms_and_the_history_reads_in_the_games_words(client, referees):
    client.post(BOARD.format(board=1), {"declarer": "EW", "points": "55"})
    client.force_login(referees["two"])
    deal = Deal.objects.get(table__number=1, board=1)
    response = client.post(BOARD.format(board=1) + "confirm/", {"version": deal.version})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.status == Deal.Status.CONFIRMED and deal.scores == {"N": 0, "E": 1, "S": 0, "W": 1}  # S3
    page = client.get(BOARD.format(board=1)).content.decode()
    assert "台上：东西(EW)" in page and "台下得分：55" in page


def test_no_next_deal_is_offered_once_the_match_has_ended(client, referees):
    # SJM5 (matches of two deals, M3): after its second deal the match is over, a draw.
    Event.objects.filter(slug="t-sj").update(options=EXAMPLES["SJM5"]["match_options"])
    first, second = (deal["points"] for deal in EXAMPLES["SJM5"]["match"])
    client.post(BOARD.format(board=1), {"declarer": "NS", "points": str(first), "next": "1"})
    page = client.get(BOARD.format(board=2)).content.decode()
    assert "已打 1 副" in page
    response = client.post(BOARD.format(board=2), {"points": str(second), "next": "1"})
    assert response.status_code == 302 and response["Location"].endswith("/boards/2/")  # not on to board 3
    page = client.get(BOARD.format(board=2)).content.decode()
    assert 'id="save-next"' not in page and "比赛结束：第 2 副后双方打平" in page
    after = client.post(BOARD.format(board=3), {"points": "40"})
    assert after.status_code == 400 and "比赛已在第 2 副结束" in after.content.decode()  # M2/M3: match_over
