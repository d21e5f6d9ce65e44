"""Results of a 跑胡子 individual event of tables of three (games law §0, §3): the public standings
(total, or table points with the total as first tie-break; a bye 0 and 2 table points as
docs/games/paohuzi.md decides), the after-round view, the entrant page, the board traveller and
the round page with three seats; the standings workbook, PDF and picture, the results workbook,
the travellers and statistics (wins, 自摸, 黄庄, highest 番). Expected figures are summed from the
law's worked examples (shared/rules/games/examples.json), never from the site's own output."""

import io
import re
import subprocess

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from tests.archives import PAOHUZI_TABLES, game_examples, paohuzi_archive, paohuzi_deal

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples("paohuzi")
SEATS = ("E", "S", "W")
# Who sits where (E, S, W) and which examples each table plays, per round; the bye per round.
ROUNDS = {
    1: {1: (("p01", "p02", "p03"), PAOHUZI_TABLES[1]), 2: (("p04", "p05", "p06"), PAOHUZI_TABLES[2])},
    2: {1: (("p06", "p02", "p07"), PAOHUZI_TABLES[2]), 2: (("p01", "p03", "p05"), PAOHUZI_TABLES[1])},
}
BYES = {1: "p07", 2: "p04"}
# The 番 of each example win, worked by hand from §3.4 P3 (colour × kind): PHZ01 red 5, 他家翻出:
# 1 × 1; PHZ05 red 10 → 红胡 2 × 1; PHZ07 red 0 黑胡 4 × 自摸 2 = 8; PHZ06 red 1 一点朱 3 × 1.
FAN = {"PHZ01": 1, "PHZ05": 2, "PHZ07": 8, "PHZ06": 3}


def two_rounds(options=None):
    archive = paohuzi_archive(options=options, status="official")
    matches = [
        {
            "table": table,
            "seats": dict(zip(SEATS, seated, strict=True)),
            "deals": [paohuzi_deal(name, board) for board, name in enumerate(names, start=1)],
        }
        for table, (seated, names) in ROUNDS[2].items()
    ]
    archive["rounds"].append({"number": 2, "status": "official", "matches": [*matches, {"bye": BYES[2]}]})
    return import_archive(archive)


def match_totals(names):
    return {seat: sum(EXAMPLES[name]["expected"]["scores"][seat] for name in names) for seat in SEATS}


def totals(rounds=(1, 2)):
    found = {f"p{n:02d}": 0 for n in range(1, 8)}
    for number in rounds:
        for seated, names in ROUNDS[number].values():
            for seat, who in zip(SEATS, seated, strict=True):
                found[who] += match_totals(names)[seat]
    return found


def table_points(rounds=(1, 2)):
    """§0 in the test's own words (2 per lower opponent, 1 per equal one); a bye 2."""
    found = {f"p{n:02d}": 0 for n in range(1, 8)}
    for number in rounds:
        found[BYES[number]] += 2
        for seated, names in ROUNDS[number].values():
            match = match_totals(names)
            for seat, who in zip(SEATS, seated, strict=True):
                found[who] += sum(
                    2 if match[seat] > match[o] else 1 if match[seat] == match[o] else 0 for o in SEATS if o != seat
                )
    return found


def content(response):
    return b"".join(response.streaming_content)


def standings_table(page):
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page.split('id="standings"')[1].split("</table>")[0], re.S)
    cells = [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows
    ]
    return [row for row in cells if row]


def test_the_public_standings_rank_by_the_total_with_byes_at_zero(client):
    two_rounds()
    expected = totals()
    rows = standings_table(client.get("/events/t-phz/standings/").content.decode())
    assert {row[1]: int(row[4]) for row in rows} == expected
    assert [int(row[4]) for row in rows] == sorted(expected.values(), reverse=True)
    after_one = standings_table(client.get("/events/t-phz/standings/?after=1").content.decode())
    assert {row[1]: int(row[4]) for row in after_one} == totals((1,))


def test_table_points_rank_first_and_a_bye_earns_two(client):
    two_rounds(options={"standings": "table_points"})
    points, total = table_points(), totals()
    page = client.get("/events/t-phz/standings/").content.decode()
    assert "桌分" in page
    rows = standings_table(page)
    assert {row[1]: (int(row[4]), int(row[5])) for row in rows} == {p: (points[p], total[p]) for p in points}
    keys = [(int(row[4]), int(row[5])) for row in rows]
    assert keys == sorted(keys, reverse=True)


def test_the_entrant_page_shows_three_seats_in_the_games_words(client):
    two_rounds()
    page = client.get("/events/t-phz/entrants/p02/").content.decode()
    assert "胡牌者：南(S)" in page and "黄庄" in page  # PHZ01 and PHZ13, the game's words
    assert 'class="cards"' not in page and "北(N)" not in page
    own = match_totals(PAOHUZI_TABLES[1])["S"]
    assert f'<td class="num">{own}</td>' in page  # p02's own total at table 1 of round 1 (S)
    bye = client.get("/events/t-phz/entrants/p07/").content.decode()
    assert bye.count("轮空") >= 1


def test_the_board_traveller_and_the_round_page_show_three_seats(client):
    two_rounds()
    board = client.get("/events/t-phz/rounds/1/boards/2/").content.decode()
    # Board 2: PHZ13 (黄庄, E holds both 王霸) at table 1, PHZ14 (黄庄) at table 2.
    assert "黄庄" in board and "p05" in board and ">NS<" not in board
    for seat, score in EXAMPLES["PHZ13"]["expected"]["scores"].items():
        assert f'<strong class="num">{score}</strong>' in board, seat
    round_page = client.get("/events/t-phz/rounds/1/").content.decode()
    table_two_w = match_totals(PAOHUZI_TABLES[2])["W"]
    assert f'<strong class="num">{table_two_w}</strong>' in round_page and "p06" in round_page
    assert "轮空" in round_page and "p07" in round_page


def test_the_standings_workbook_pdf_and_picture_read_back(client):
    two_rounds(options={"standings": "table_points"})
    points, total = table_points(), totals()
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-phz/standings.xlsx"))))
    ws = wb["排名"]
    header = [c.value for c in ws[1]]
    assert header[:6] == ["名次", "编号", "选手", "单位", "桌分", "总得分"]
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    assert {r["编号"]: (r["桌分"], r["总得分"]) for r in rows} == {p: (points[p], total[p]) for p in points}
    after_one = [dict(zip(header, [c.value for c in row], strict=True)) for row in wb["第1轮后"].iter_rows(min_row=2)]
    assert {r["编号"]: r["总得分"] for r in after_one} == totals((1,))
    reader = PdfReader(io.BytesIO(content(client.get("/events/t-phz/standings.pdf"))))
    text = "\n".join(page.extract_text() for page in reader.pages)
    leader = max(points, key=lambda p: (points[p], total[p]))
    assert "桌分" in text and leader in text
    picture = client.get("/events/t-phz/standings.png")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"


def test_the_results_workbook_has_each_deal_in_the_games_words(client):
    two_rounds()
    ws = load_workbook(io.BytesIO(content(client.get("/events/t-phz/results.xlsx"))))["每副成绩"]
    header = [c.value for c in ws[1]]
    assert "牌局" in header and "N 得分" not in header and "北(N)" not in header
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    assert len(rows) == 12
    first = rows[0]
    assert (first["轮"], first["桌"], first["副"]) == (1, 1, 1)
    assert [first[f"{s} 得分"] for s in SEATS] == [EXAMPLES["PHZ01"]["expected"]["scores"][s] for s in SEATS]
    assert "胡牌者：南(S)" in first["牌局"]


def test_the_travellers_pdf_is_made(client):
    two_rounds()
    response = client.get("/events/t-phz/rounds/1/travellers.pdf")
    assert response.status_code == 200
    PdfReader(io.BytesIO(content(response)))


def expected_statistics():
    """Per player: deals, wins, 自摸, 黄庄, highest 番 — counted from the examples' deals."""
    found = {}
    for number in (1, 2):
        for seated, names in ROUNDS[number].values():
            for seat, who in zip(SEATS, seated, strict=True):
                figures = found.setdefault(who, [0, 0, 0, 0, 0])
                for name in names:
                    deal = EXAMPLES[name]["deal"]
                    figures[0] += 1
                    figures[1] += deal["winner"] == seat
                    figures[2] += deal["winner"] == seat and deal.get("source") == "self"
                    figures[3] += deal["winner"] is None
                    if deal["winner"] == seat:
                        figures[4] = max(figures[4], FAN[name])
    return found


def test_players_statistics_count_wins_self_draws_huang_and_the_highest_fan(client):
    two_rounds()
    expected = expected_statistics()
    page = client.get("/events/t-phz/statistics/").content.decode()
    assert "自摸" in page and "最高番" in page
    rows = re.findall(r"<tr><td>.*?</tr>", page.split('id="statistics"')[1], re.S)
    found = {}
    for row in rows:
        code = re.search(r'class="muted hide-phone">(p\d+)<', row).group(1)
        found[code] = [int(n) for n in re.findall(r'<td class="num[^"]*">(-?\d+)</td>', row)]
    assert found == expected
    best = client.get("/events/t-phz/statistics/?sort=best_fan").content.decode()
    first = re.search(r'class="muted hide-phone">(p\d+)<', best.split('id="statistics"')[1]).group(1)
    assert expected[first][4] == max(figures[4] for figures in expected.values()) == 8


def test_the_breakdown_reads_in_english_word_by_word(client):
    """The notes in English word by word (scoring/games/paohuzi/terms.py)."""
    two_rounds()
    client.get("/language/en/?next=/")
    board = client.get("/events/t-phz/rounds/1/boards/1/").content.decode()
    # PHZ01 at table 1: S wins 21胡息 + 3省 = 6子 × 1番, paid 6 by E and W.
    assert "East(E) and West(W) each pay 6 (21 huxi=3 tun +3 xing =6 zi × 1 fan =6)" in board
    assert "pays South(S) 6 (21 huxi=3 tun +3 xing =6 zi × 1 fan =6)" in board
    huang = client.get("/events/t-phz/rounds/1/boards/2/").content.decode()  # PHZ13: E holds both 王霸
    assert "drawn deal (no winner): 2 wild cards ×5 pays South(S)" in huang


def pdf_lines(data, tmp_path):
    """The PDF's text laid out as printed (pdftotext -layout): a table's cells stay on one line."""
    path = tmp_path / "paper.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("standings", ["total", "table_points"])
def test_the_round_results_pdf_has_a_column_per_seat_not_two_sides(client, tmp_path, standings):
    """Three players who each play alone are not split into "NS" and "EW": each seat's player and
    total (and table points where the standings count them), in the game's seats E S W."""
    two_rounds(options={"standings": standings})
    text = pdf_lines(content(client.get("/events/t-phz/rounds/1/results.pdf")), tmp_path)
    assert "NS" not in text and "EW" not in text and "场分" not in text
    assert re.search(r"东 ?E\s+E 得分.*南 ?S\s+S 得分.*西 ?W\s+W 得分", text)
    assert ("E 桌分" in text) == (standings == "table_points")
    for table, (seated, names) in ROUNDS[1].items():
        match = match_totals(names)
        points = {
            s: sum(2 if match[s] > match[o] else 1 if match[s] == match[o] else 0 for o in SEATS if o != s)
            for s in SEATS
        }
        cells = "".join(
            rf"{who} \S+\s+{match[seat]}\s+" + (rf"{points[seat]}\s+" if standings == "table_points" else "")
            for seat, who in zip(SEATS, seated, strict=True)
        )
        assert re.search(rf"^\s*{table}\s+{cells}{len(names)}\s*$", text.replace("－", "-"), re.M), text
    assert "轮空" in text and BYES[1] in text


def test_the_penalties_page_does_not_explain_penalties_the_game_has_not(client):
    """跑胡子's law has no penalty points: its page says rulings and adjusted scores, not how a
    penalty adds to a seat's score (华牌's words)."""
    two_rounds()
    page = client.get("/events/t-phz/penalties/").content.decode()
    assert "罚分是负数" not in page and "本游戏的规则没有罚分" in page
