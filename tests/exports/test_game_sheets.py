"""The score sheet of a 蚌埠斗地主 table: one page per table, a column per field the entry page
asks (飞弹 a column per seat), a line per deal of the match, each seat's score for the check,
the players by seat and the QR code of the table's entry page; read back with pypdf."""

import io
import subprocess

import pytest
from pypdf import PdfReader

from scoring.archive.database import import_archive
from tests.archives import doudizhu_archive
from tests.exports.test_exports import content, fonts_all_embedded

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return import_archive(doudizhu_archive(tables={1: (), 2: ()}))


def test_a_doudizhu_table_has_the_games_columns(client, event, tmp_path):
    from tests.referee_setup import make_user

    client.force_login(make_user("organiser", "organiser", event))
    response = client.get("/events/t-ddz/rounds/1/scoresheets.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = content(response)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2  # one a table
    text = reader.pages[0].extract_text()
    for word in ("蚌埠斗地主 记分表", "天炸", "天尊", "地主", "叫分", "明打", "先出完牌", "飞弹个数", "得分"):
        assert word in text, word
    assert "1 2 3 抢牌" in text and "每场 4 副" in text
    assert "p01" in text and "p04" in text and "p05" not in text  # table 1's players, by seat
    assert "♥" not in text and "持牌" not in text  # no 华牌 card columns
    lines = [line.strip() for line in text.splitlines()]
    assert {"1", "2", "3", "4"} <= set(lines) and "5" not in lines  # a line per deal of the match
    embedded, fonts = fonts_all_embedded(data, tmp_path)
    assert embedded, fonts
    (tmp_path / "sheet.pdf").write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "1", str(tmp_path / "sheet.pdf"), str(tmp_path / "p")],
        check=True,
    )


def test_a_shengji_table_has_the_side_on_top_the_points_and_the_levels(client, tmp_path):
    from tests.archives import shengji_archive
    from tests.referee_setup import make_user

    event = import_archive(shengji_archive(table_one=[], table_two=[]))
    client.force_login(make_user("organiser", "organiser", event))
    response = client.get("/events/t-sj/rounds/1/scoresheets.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(content(response)))
    assert len(reader.pages) == 2  # one a table
    text = reader.pages[0].extract_text()
    for word in ("升级 记分表", "台上", "台下得分", "本副后级数", "得分", "打满 4 副后级高者胜"):
        assert word in text, word
    assert "南北(NS) 东西(EW)" in text
    lines = [line.strip() for line in text.splitlines()]
    assert {"1", "2", "3", "4"} <= set(lines) and "5" not in lines  # a line per deal of the match


def test_a_paohuzi_table_of_three_has_the_games_columns_and_three_seats(client):
    from tests.archives import paohuzi_archive
    from tests.referee_setup import make_user

    event = import_archive(paohuzi_archive(tables={1: (), 2: ()}))
    client.force_login(make_user("organiser", "organiser", event))
    response = client.get("/events/t-phz/rounds/1/scoresheets.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(content(response)))
    assert len(reader.pages) == 2  # one a table of three; the player sitting out has none
    text = reader.pages[0].extract_text()
    for word in ("跑胡子 记分表", "胡牌者", "写座位或黄庄", "王霸", "胡息", "红字数", "胡牌来源", "省数", "得分"):
        assert word in text, word
    assert "自摸 他家翻出 放炮" in text and "无 王钓 王钓王 王闯" in text
    assert "p01" in text and "p03" in text and "p04" not in text and "p07" not in text  # table 1's three players
    assert "北 N" not in text and "北 签名" not in text  # North stays empty: no column, no signature
    lines = [line.strip() for line in text.splitlines()]
    assert {"1", "2", "3"} <= set(lines) and "4" not in lines  # a line per deal of the match (3)


def test_paohuzi_table_cards_and_wall_draw_name_three_seats(client):
    from tests.archives import paohuzi_archive
    from tests.referee_setup import make_user

    event = import_archive(paohuzi_archive(tables={1: (), 2: ()}))
    client.force_login(make_user("organiser", "organiser", event))
    cards = PdfReader(io.BytesIO(content(client.get("/events/t-phz/rounds/1/table-cards.pdf"))))
    assert len(cards.pages) == 2
    text = cards.pages[1].extract_text()
    assert "p04" in text and "p06" in text and "北 N" not in text and "西 W" in text
    wall = PdfReader(io.BytesIO(content(client.get("/events/t-phz/rounds/1/draw.pdf"))))
    first = wall.pages[0].extract_text()
    assert "东 E" in first and "北 N" not in first and "p07" in first  # the bye listed too


def test_every_games_sheet_says_which_boards_were_not_played_and_prints_its_address(client, event):
    """One writer for every game (`exports/scoresheets.py`): what 华牌's sheet always had — a board
    already recorded not played written across its line, the entry address under the QR code for
    those who cannot scan, the signatures of the game's sides — is on another game's sheet too."""
    from scoring.models import Table
    from scoring.rulings.not_played import board_not_played
    from tests.referee_setup import make_user

    organiser = make_user("organiser", "organiser", event)
    referee = make_user("referee", "referee", event)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    board_not_played(table=table, board=2, user=referee, reason="座位错误，未能开始")
    client.force_login(organiser)
    text = PdfReader(io.BytesIO(content(client.get("/events/t-ddz/rounds/1/scoresheets.pdf")))).pages[0].extract_text()
    assert "未打：" in text
    assert "/referee/t-ddz/rounds/1/tables/1/" in text  # the address printed under the QR code
    for seat in ("北 N 签名", "东 E 签名", "南 S 签名", "西 W 签名", "裁判签名"):  # every player signs
        assert seat in text, seat
