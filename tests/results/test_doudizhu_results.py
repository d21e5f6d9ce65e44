"""Results of a 蚌埠斗地主 individual event (games law §0, §1): the public standings (total, or table
points with the total as first tie-break), the after-round view, the entrant page and the
board traveller in the game's words, the round page; the standings workbook, PDF and picture
and the results workbook read back. Expected figures are summed from the law's worked
examples (shared/rules/games/examples.json), never from the site's own output."""

import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from tests.archives import DOUDIZHU, DOUDIZHU_TABLES, doudizhu_archive, game_examples

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(DOUDIZHU)
SEATS = ("N", "E", "S", "W")
# Round 2 of the event: the same deals, the players of table 1 at table 2 and the other way round.
ROUND_TWO = {1: DOUDIZHU_TABLES[2], 2: DOUDIZHU_TABLES[1]}


def player(table, seat, round_number=1):
    """The player at a seat: p01–p04 at table 1 of round 1 (N E S W), p05–p08 at table 2."""
    group = table if round_number == 1 else 3 - table
    return f"p{4 * (group - 1) + SEATS.index(seat) + 1:02d}"


def totals(rounds):
    found = {}
    for number, tables in rounds.items():
        for table, names in tables.items():
            for seat in SEATS:
                who = player(table, seat, number)
                found[who] = found.get(who, 0) + sum(EXAMPLES[name]["expected"]["scores"][seat] for name in names)
    return found


def table_points(rounds):
    """§0 in the test's own words: 2 per opponent at the table with a lower match total, 1 per equal one."""
    found = {}
    for number, tables in rounds.items():
        for table, names in tables.items():
            match = {s: sum(EXAMPLES[n]["expected"]["scores"][s] for n in names) for s in SEATS}
            for seat in SEATS:
                points = sum(
                    2 if match[seat] > match[o] else 1 if match[seat] == match[o] else 0 for o in SEATS if o != seat
                )
                who = player(table, seat, number)
                found[who] = found.get(who, 0) + points
    return found


def two_rounds(options=None):
    archive = doudizhu_archive(options=options, status="official")
    second = doudizhu_archive(tables=ROUND_TWO, status="official")["rounds"][0]
    second["number"] = 2
    for match in second["matches"]:  # the other group of players at each table
        match["seats"] = {seat: player(match["table"], seat, 2) for seat in SEATS}
    archive["rounds"].append(second)
    return import_archive(archive)


def content(response):
    return b"".join(response.streaming_content)


def standings_table(page):
    import re

    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page.split('id="standings"')[1].split("</table>")[0], re.S)
    cells = [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows
    ]
    return [row for row in cells if row]


def test_the_public_standings_rank_by_the_total_of_deal_scores(client):
    two_rounds()
    expected = totals({1: DOUDIZHU_TABLES, 2: ROUND_TWO})
    rows = standings_table(client.get("/events/t-ddz/standings/").content.decode())
    assert {row[1]: int(row[4]) for row in rows} == expected
    assert [int(row[4]) for row in rows] == sorted(expected.values(), reverse=True)
    after_one = standings_table(client.get("/events/t-ddz/standings/?after=1").content.decode())
    assert {row[1]: int(row[4]) for row in after_one} == totals({1: DOUDIZHU_TABLES})


def test_table_points_rank_first_with_the_total_as_first_tie_break(client):
    two_rounds(options={"standings": "table_points"})
    rounds = {1: DOUDIZHU_TABLES, 2: ROUND_TWO}
    points, total = table_points(rounds), totals(rounds)
    page = client.get("/events/t-ddz/standings/").content.decode()
    assert "桌分" in page
    rows = standings_table(page)
    assert {row[1]: (int(row[4]), int(row[5])) for row in rows} == {p: (points[p], total[p]) for p in points}
    keys = [(int(row[4]), int(row[5])) for row in rows]
    assert keys == sorted(keys, reverse=True)


def test_the_entrant_page_shows_its_tables_in_the_games_words(client):
    two_rounds()
    page = client.get("/events/t-ddz/entrants/p01/").content.decode()
    first = DOUDIZHU_TABLES[1]
    own = sum(EXAMPLES[name]["expected"]["scores"]["N"] for name in first)
    assert "地主：北(N)" in page and "飞弹个数" in page  # DDZ22, the game's fields
    assert 'class="cards"' not in page and "♥" not in page  # no 华牌 card columns
    assert f'<td class="num">{own}</td>' in page  # p01's own total at table 1 (N)


def test_the_board_traveller_and_the_round_page_show_every_seat(client):
    two_rounds()
    board = client.get("/events/t-ddz/rounds/1/boards/3/").content.decode()
    # Board 3: DDZ22 at table 1, DDZ26 (天炸 dealt to W) at table 2.
    assert "地主：北(N)" in board and "天炸（发到同点 8 张）：西(W)" in board
    assert "p05" in board and ">NS<" not in board
    for seat, score in EXAMPLES["DDZ26"]["expected"]["scores"].items():
        assert f'<strong class="num">{score}</strong>' in board, seat
    round_page = client.get("/events/t-ddz/rounds/1/").content.decode()
    table_two_w = sum(EXAMPLES[name]["expected"]["scores"]["W"] for name in DOUDIZHU_TABLES[2])
    assert f'<strong class="num">{table_two_w}</strong>' in round_page and "p08" in round_page


def test_the_standings_workbook_pdf_and_picture_read_back(client):
    two_rounds(options={"standings": "table_points"})
    rounds = {1: DOUDIZHU_TABLES, 2: ROUND_TWO}
    points, total = table_points(rounds), totals(rounds)
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-ddz/standings.xlsx"))))
    ws = wb["排名"]
    header = [c.value for c in ws[1]]
    assert header[:6] == ["名次", "编号", "选手", "单位", "桌分", "总得分"]
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    assert {r["编号"]: (r["桌分"], r["总得分"]) for r in rows} == {p: (points[p], total[p]) for p in points}
    after_one = [dict(zip(header, [c.value for c in row], strict=True)) for row in wb["第1轮后"].iter_rows(min_row=2)]
    assert {r["编号"]: r["总得分"] for r in after_one} == totals({1: DOUDIZHU_TABLES})
    reader = PdfReader(io.BytesIO(content(client.get("/events/t-ddz/standings.pdf"))))
    text = "\n".join(page.extract_text() for page in reader.pages)
    leader = max(points, key=lambda p: (points[p], total[p]))
    assert "桌分" in text and leader in text
    picture = client.get("/events/t-ddz/standings.png")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"


def test_the_results_workbook_has_each_deal_in_the_games_words(client):
    two_rounds()
    ws = load_workbook(io.BytesIO(content(client.get("/events/t-ddz/results.xlsx"))))["每副成绩"]
    header = [c.value for c in ws[1]]
    assert "牌局" in header and "北得分牌" not in header
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    assert len(rows) == 16
    first = rows[0]
    assert (first["轮"], first["桌"], first["副"]) == (1, 1, 1)
    assert [first[f"{s} 得分"] for s in SEATS] == [EXAMPLES["DDZ01"]["expected"]["scores"][s] for s in SEATS]
    assert "地主：北(N)" in first["牌局"]


def test_the_travellers_pdf_is_made(client):
    two_rounds()
    response = client.get("/events/t-ddz/rounds/1/travellers.pdf")
    assert response.status_code == 200
    PdfReader(io.BytesIO(content(response)))


def expected_statistics(rounds):
    """Per player: deals, as landlord, won as landlord, 飞弹 — counted from the examples' deals."""
    found = {}
    for number, tables in rounds.items():
        for table, names in tables.items():
            for seat in SEATS:
                figures = found.setdefault(player(table, seat, number), [0, 0, 0, 0])
                for name in names:
                    deal = EXAMPLES[name]["deal"]
                    figures[0] += 1
                    figures[1] += deal.get("landlord") == seat
                    figures[2] += deal.get("landlord") == seat and deal.get("first_out") == seat
                    figures[3] += (deal.get("feidan") or {}).get(seat, 0)
    return found


def test_players_statistics_count_landlords_their_wins_and_flying_bombs(client):
    import re

    two_rounds()
    expected = expected_statistics({1: DOUDIZHU_TABLES, 2: ROUND_TWO})
    page = client.get("/events/t-ddz/statistics/").content.decode()
    assert "当地主" in page and "飞弹" in page and "♠Q" not in page
    rows = re.findall(r"<tr><td>.*?</tr>", page.split('id="statistics"')[1], re.S)
    found = {}
    for row in rows:
        code = re.search(r'class="muted hide-phone">(p\d+)<', row).group(1)
        found[code] = [int(n) for n in re.findall(r'<td class="num[^"]*">(-?\d+)</td>', row)]
    assert found == expected
    most = client.get("/events/t-ddz/statistics/?sort=feidan").content.decode()
    first = re.search(r'class="muted hide-phone">(p\d+)<', most.split('id="statistics"')[1]).group(1)
    assert expected[first][3] == max(figures[3] for figures in expected.values())
    entrant = client.get("/events/t-ddz/entrants/p02/").content.decode()
    assert 'id="player-statistics"' in entrant and "当地主胜" in entrant


def test_a_bye_earns_three_table_points_on_every_page(client):
    # A ninth player sits round 1 out. Under table points a bye earns what an average table of
    # four gives each player (1 point per opponent at an all-level table: 3), event-archive.md.
    archive = doudizhu_archive(options={"standings": "table_points"}, status="official")
    archive["players"].append({"id": "p09", "name": "选手九"})
    archive["rounds"][0]["matches"].append({"bye": "p09"})
    import_archive(archive)
    points, total = table_points({1: DOUDIZHU_TABLES}), totals({1: DOUDIZHU_TABLES})
    points["p09"], total["p09"] = 3, 0
    rows = standings_table(client.get("/events/t-ddz/standings/").content.decode())
    assert {row[1]: (int(row[4]), int(row[5])) for row in rows} == {p: (points[p], total[p]) for p in points}
    # Ranks by hand: one more than the players strictly ahead on (table points, total).
    figures = {p: (points[p], total[p]) for p in points}
    assert {row[1]: int(row[0]) for row in rows} == {
        p: 1 + sum(other > mine for other in figures.values()) for p, mine in figures.items()
    }
    record = client.get("/events/t-ddz/entrants/p09/").content.decode()
    assert "轮空（桌分 3）" in record
