"""The papers a director prints, read back: the cross table (page, PDF, workbook), the draw for
the wall, the table cards, the entrant import template, the end-of-event page and the results
pack. Every figure is worked out by hand in tests/directors_event.py."""

import io
import json
import re
import subprocess
import zipfile

import pytest
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from scoring.archive.format import parse_archive
from scoring.events.entrants import entrants_preview
from scoring.models import Event
from tests.archives import individual_archive, team_match
from tests.directors_event import directors_archive
from tests.referee_setup import make_user
from tests.rounds.test_final_stages import play, publish, swiss_done  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

SLUG = "t-director"
NAMES = {"A": "张伟、李娜", "B": "王芳、刘洋", "C": "陈静、杨磊", "D": "赵敏、黄勇", "E": "周杰、曾霞"}


@pytest.fixture
def event():
    return import_archive(directors_archive())


@pytest.fixture
def organiser(client, event):
    client.force_login(make_user("boss", "organiser", event))
    return client


def body(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


def pdf_text(data, tmp_path, layout=True):
    path = tmp_path / "paper.pdf"
    path.write_bytes(data)
    options = ["-layout"] if layout else []
    return subprocess.run(["pdftotext", *options, str(path), "-"], capture_output=True, text=True, check=True).stdout


def pdf_fonts(data, tmp_path):
    path = tmp_path / "fonts.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout


def grid_rows(ws):
    """{entrant number: {column title: value}} of a grid sheet."""
    header = [cell.value for cell in ws[1]]
    return {row[0]: dict(zip(header, row, strict=True)) for row in ws.iter_rows(min_row=2, values_only=True)}


# --- the cross table ------------------------------------------------------------------------------


def test_the_public_cross_table_page_shows_the_published_rounds_from_each_side(client, event):
    page = client.get(f"/events/{SLUG}/cross/")
    assert page.status_code == 200
    table = page.context["table"]
    assert table["entrants"] == ["A", "B", "C", "D"]  # E joined in round 3, not published
    cells = {row["code"]: dict(zip(table["entrants"], row["cells"], strict=True)) for row in table["rows"]}
    text = {code: {other: [m["text"] for m in cell] for other, cell in row.items()} for code, row in cells.items()}
    assert text["A"] == {"A": [], "B": ["2 / +900"], "C": ["1 / 0"], "D": []}
    assert text["B"] == {"A": ["0 / -900"], "B": [], "C": [], "D": ["0 / -1000"]}
    assert text["C"] == {"A": ["1 / 0"], "B": [], "C": [], "D": ["2 / +30"]}  # D's penalty decided it
    assert text["D"] == {"A": [], "B": ["2 / +1000"], "C": ["0 / -30"], "D": []}
    totals = {row["code"]: (row["match_points"], row["score_difference"]) for row in table["rows"]}
    assert totals == {"A": (3, 900), "B": (0, -1900), "C": (3, 30), "D": (2, 970)}
    # Ranked among the entrants in the event by round 2 (E, a late entry, is not).
    assert {row["code"]: row["rank"] for row in table["rows"]} == {"A": 1, "C": 2, "D": 3, "B": 4}
    html = page.text
    row_a = html[html.index('id="cross-A"') : html.index("</tr>", html.index('id="cross-A"'))]
    assert '<strong>2</strong><br><span class="diff">+900</span>' in row_a  # against B
    assert '<strong>1</strong><br><span class="diff">0</span>' in row_a  # against C
    assert "+400" not in html and "-800" not in html  # round 3 is not published
    assert "第 2 轮后退赛" in html  # B withdrew after round 2


def pdf_grid(data):
    """{row's entrant number: {column heading: cell text}} of the first page's grid, read from
    where each piece of text is drawn (a cell's two lines joined with " / ")."""
    found = []

    def visit(text, cm, tm, _font, _size):
        if text.strip():
            found.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text.strip()))

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    header_y = next(y for x, y, text in found if text == "编号")
    headings = [(x, text) for x, y, text in found if abs(y - header_y) < 1]
    codes = [(y, text) for x, y, text in found if y < header_y and abs(x - headings[0][0]) < 15]
    grid = {code: {} for _y, code in codes}
    # Names are drawn from the left of their column; every other cell is centred under its heading.
    names = (headings[0][0] + 20, headings[2][0] - 20)
    for x, y, text in sorted(found, key=lambda item: -item[1]):
        if y >= header_y or y < 40:
            continue
        row = min(codes, key=lambda code: abs(code[0] - y))[1]
        column = "名称" if names[0] < x < names[1] else min(headings, key=lambda heading: abs(heading[0] - x))[1]
        cell = grid[row].get(column)
        grid[row][column] = text if cell is None else f"{cell} / {text}"
    return grid


def test_the_cross_table_pdf_reads_back_with_names_and_figures(client, event, tmp_path):
    response = client.get(f"/events/{SLUG}/cross-table.pdf")
    assert response.status_code == 200
    data = body(response)
    text = pdf_text(data, tmp_path)
    assert "交叉表" in text and "太原华牌邀请赛" in text and "公开版" in text
    for code in "ABCD":
        assert NAMES[code] in text
    assert "周杰" not in text  # E was not in the event by round 2
    grid = pdf_grid(data)
    assert list(grid) == ["A", "B", "C", "D"]
    figures = {code: {k: v for k, v in row.items() if k not in ("编号", "名称")} for code, row in grid.items()}
    assert figures["A"] == {"B": "2 / +900", "C": "1 / 0", "场分": "3", "得分差": "+900", "名次": "1"}
    assert figures["B"] == {"A": "0 / -900", "D": "0 / -1000", "场分": "0", "得分差": "-1900", "名次": "4"}
    assert figures["C"] == {"A": "1 / 0", "D": "2 / +30", "场分": "3", "得分差": "+30", "名次": "2"}
    assert figures["D"] == {"B": "2 / +1000", "C": "0 / -30", "场分": "2", "得分差": "+970", "名次": "3"}
    assert grid["B"]["名称"] == "王芳、刘洋（第2轮后退赛）"


@pytest.mark.parametrize(
    "url",
    [
        f"/events/{SLUG}/cross-table.pdf",
        f"/events/{SLUG}/rounds/3/draw.pdf",
        f"/events/{SLUG}/rounds/3/table-cards.pdf",
    ],
)
def test_every_new_pdf_embeds_its_cjk_font_and_no_other(organiser, url, tmp_path):
    fonts = pdf_fonts(body(organiser.get(url)), tmp_path).splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts
    assert all("WenQuanYi" in line for line in fonts), fonts


def test_the_cross_table_workbook_has_the_grid_and_a_row_per_meeting(organiser, event):
    book = load_workbook(io.BytesIO(body(organiser.get(f"/events/{SLUG}/cross-table.xlsx"))))
    assert book.sheetnames == ["交叉表", "每场", "说明"]
    grid = grid_rows(book["交叉表"])
    # The officials' version: round 3 too, E listed; A–D not finished (one board of two).
    assert list(grid) == ["A", "B", "C", "D", "E"]
    assert grid["A"]["B"] == "2 / +900" and grid["A"]["D"] == "2 / +400 …" and grid["A"]["A"] is None
    assert grid["C"]["E"] == "0 / -800" and grid["E"]["C"] == "2 / +800"
    assert grid["B"]["名称"] == "王芳、刘洋（第2轮后退赛）"
    # Totals as the officials' standings count them: A–D is not finished, so it counts nowhere.
    assert {code: (row["场分"], row["得分差"]) for code, row in grid.items()} == {
        "A": (3, 900),
        "B": (0, -1900),
        "C": (3, -770),
        "D": (2, 970),
        "E": (2, 800),
    }
    assert {code: row["名次"] for code, row in grid.items()} == {"A": 1, "C": 2, "D": 3, "E": 4, "B": 5}
    meetings = [row for row in book["每场"].iter_rows(min_row=2, values_only=True)]
    c_rows = [(r[2], r[3], r[4], r[5], r[6]) for r in meetings if r[0] == "C"]
    assert c_rows == [(1, "D", 2, 30, "已计入"), (2, "A", 1, 0, "已计入"), (3, "E", 0, -800, "已计入")]
    assert [(r[2], r[3], r[6]) for r in meetings if r[0] == "D" and r[2] == 3] == [(3, "A", "未完成")]
    about = dict(book["说明"].iter_rows(values_only=True))
    assert "工作人员版" in about["内容"]


def test_the_public_workbook_and_page_hold_published_rounds_only(client, organiser, event):
    public = load_workbook(io.BytesIO(body(organiser.get(f"/events/{SLUG}/cross-table.xlsx?scope=public"))))
    grid = grid_rows(public["交叉表"])
    assert list(grid) == ["A", "B", "C", "D"] and grid["A"]["D"] is None
    assert not any(r[2] == 3 for r in public["每场"].iter_rows(min_row=2, values_only=True))


def test_a_large_event_lists_opponents_by_round(client):
    """Beyond 32 entrants a grid is a wall of empty cells: each row lists its opponents by round."""
    from tests.archives import deal, pairs_archive

    codes = [f"P{n:02d}" for n in range(1, 35)]
    matches = [
        {"table": t + 1, "ns": codes[2 * t], "ew": codes[2 * t + 1], "deals": [deal("T1", 1)]} for t in range(17)
    ]
    import_archive(pairs_archive(codes, [{"number": 1, "status": "official", "matches": matches}], length=1))
    table = client.get("/events/t-pairs/cross/").context["table"]
    assert table["layout"] == "rounds"
    first = table["rows"][0]
    assert first["code"] == "P01" and first["by_round"][0]["opponent"] == "P02"
    book = load_workbook(io.BytesIO(body(client.get("/events/t-pairs/cross-table.xlsx"))))
    assert [c.value for c in book["交叉表"][1]][:3] == ["编号", "名称", "第1轮"]


def test_a_team_event_has_a_cross_table_and_an_individual_event_has_none(client):
    # Teams: X sits NS at table 1 and EW at table 2 (tests/archives.team_match); one board each.
    import_archive(team_match([deal_alpha()], [deal_alpha()], status="official"))
    table = client.get("/events/t-teams/cross/").context["table"]
    cells = {row["code"]: [m["text"] for cell in row["cells"] for m in cell] for row in table["rows"]}
    # X: +50 at table 1 (NS) and −350 at table 2 (EW) = −300; Y: −350 + 50 = −300: drawn.
    assert cells == {"X": ["1 / 0"], "Y": ["1 / 0"]}
    import_archive(individual_archive())
    assert client.get("/events/t-ind/cross/").status_code == 404
    assert client.get("/events/t-ind/cross-table.pdf").status_code == 404


def deal_alpha():
    from tests.directors_event import ALPHA

    return {"board": 1, "captured": ALPHA}


# --- the draw for the wall and the table cards ------------------------------------------------------


def test_the_wall_draw_lists_tables_then_players_in_pinyin_order(client, event, tmp_path):
    response = client.get(f"/events/{SLUG}/rounds/3/draw.pdf")  # released: public
    assert response.status_code == 200
    data = body(response)
    text = pdf_text(data, tmp_path)
    assert "第 3 轮对阵表" in text
    by_table = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line.split()[:1] in (["1"], ["2"])}
    assert by_table["1"] == ["A", "张伟、李娜", "D", "赵敏、黄勇"]
    assert by_table["2"] == ["C", "陈静、杨磊", "E", "周杰、曾霞"]
    assert "王芳" not in text  # B withdrew after round 2
    # By name, two columns each filled downwards: 陈 chen, 黄 huang, 李 li, 杨 yang, 曾 zeng (read
    # as a surname, not ceng), 张 zhang, 赵 zhao, 周 zhou — with the pair's number, table and direction.
    names_part = text[text.index("按姓名") :]
    left, right = [], []
    for line in names_part.splitlines():
        found = ENTRY.findall(line)
        for column, entry in zip((left, right), found, strict=False):
            column.append(entry)
    assert left + right == [
        ("陈静", "C", "2", "南北"),
        ("黄勇", "D", "1", "东西"),
        ("李娜", "A", "1", "南北"),
        ("杨磊", "C", "2", "南北"),
        ("曾霞", "E", "2", "东西"),
        ("张伟", "A", "1", "南北"),
        ("赵敏", "D", "1", "东西"),
        ("周杰", "E", "2", "东西"),
    ]


ENTRY = re.compile(r"(\S+)\s+([A-E])\s+(\d+) 桌 (南北|东西)")


def test_an_unreleased_draw_is_printed_for_officials_only(client, event):
    event.rounds.filter(number=3).update(draw_released_at=None, status="scheduled")
    assert client.get(f"/events/{SLUG}/rounds/3/draw.pdf").status_code == 404
    client.force_login(make_user("ref", "referee", event))
    response = client.get(f"/events/{SLUG}/rounds/3/draw.pdf")
    assert response.status_code == 200 and "-staff." in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]


def test_table_cards_one_page_per_table_with_both_sides(client, event, tmp_path):
    anonymous = client.get(f"/events/{SLUG}/rounds/3/table-cards.pdf")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(make_user("outsider"))
    assert client.get(f"/events/{SLUG}/rounds/3/table-cards.pdf").status_code == 403
    client.force_login(make_user("ref", "referee", event))
    response = client.get(f"/events/{SLUG}/rounds/3/table-cards.pdf")
    assert response.status_code == 200
    pages = pdf_text(body(response), tmp_path, layout=False).split("\f")
    cards = [page for page in pages if page.strip()]
    assert len(cards) == 2
    assert "1" in cards[0].split() and "A" in cards[0].split() and "D" in cards[0].split()
    for name in ("张伟", "李娜", "赵敏", "黄勇", "南北", "东西"):
        assert name in cards[0]
    for name in ("陈静", "杨磊", "周杰", "曾霞"):
        assert name in cards[1]
    assert "2号桌" in cards[1]


def test_a_team_table_card_names_the_players_seated_there(client, tmp_path):
    # tests/archives.team_match: X (甲队) sits NS at table 1 with p01 赵某1, p02 钱某2; Y (乙队) EW
    # with p05 周某5, p06 吴某6. X's other pair (孙某3, 李某4) sits at table 2.
    event = import_archive(team_match([deal_alpha()], [deal_alpha()], status="official"))
    client.force_login(make_user("ref", "referee", event))
    pages = pdf_text(body(client.get("/events/t-teams/rounds/1/table-cards.pdf")), tmp_path, layout=False)
    first = pages.split("\f")[0]
    for word in ("甲队", "乙队", "赵某1", "钱某2", "周某5", "吴某6"):
        assert word in first
    assert "孙某3" not in first and "李某4" not in first


def test_names_that_look_like_markup_are_printed_as_written(client, event, tmp_path):
    from scoring.models import Player

    Player.objects.filter(event=event, code="A-1").update(name='<img src="/etc/passwd"/>')
    for url in (f"/events/{SLUG}/rounds/3/draw.pdf", f"/events/{SLUG}/cross-table.pdf"):
        response = client.get(url)
        assert response.status_code == 200
        printed = "".join(pdf_text(body(response), tmp_path, layout=False).split())  # a long name wraps
        assert '<imgsrc="/etc/passwd"/>' in printed


# --- the import template ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("archive", "header"),
    [
        (directors_archive, ["编号", "姓名1", "姓名2", "姓名3", "单位"]),  # 姓名3: a substitute, optional
        (lambda: team_match([], []), ["编号", "队名", "姓名1", "姓名2", "姓名3", "姓名4", "姓名5", "姓名6", "单位"]),
        (individual_archive, ["编号", "姓名", "单位", "会员号"]),
    ],
)
def test_the_import_template_is_accepted_by_the_importer(client, archive, header):
    event = import_archive(archive())
    client.force_login(make_user("boss", "organiser", event))
    page = client.get(f"/organiser/{event.slug}/entrants/import/")
    assert f"/organiser/{event.slug}/entrants/import/template.xlsx" in page.text
    response = client.get(f"/organiser/{event.slug}/entrants/import/template.xlsx")
    assert response.status_code == 200
    data = body(response)
    book = load_workbook(io.BytesIO(data))
    assert [cell.value for cell in book.worksheets[0][1]] == header
    report = entrants_preview(event, io.BytesIO(data))
    assert report.rejected == [] and len(report.to_create) == 1
    example = report.to_create[0]
    assert example.code and example.names[0] == "张三"


def test_the_import_template_is_for_the_events_organisers(client, event):
    client.force_login(make_user("ref", "referee", event))
    assert client.get(f"/organiser/{SLUG}/entrants/import/template.xlsx").status_code == 403


# --- the end of the event and the results pack -------------------------------------------------------


def test_the_end_of_event_page_is_provisional_until_the_event_is_closed(organiser, event):
    page = organiser.get(f"/organiser/{SLUG}/end/")
    assert page.status_code == 200
    assert page.context["final"] is False and "临时排名" in page.text
    assert page.context["rounds_not_official"] == [2, 3]
    # Prizes from the published standings, the third place called first.
    awards = [(place, [row["id"] for row in rows]) for place, rows in page.context["awards"]]
    assert awards == [(3, ["D"]), (2, ["C"]), (1, ["A"])]
    Event.objects.filter(pk=event.pk).update(finished_at=timezone.now())
    page = organiser.get(f"/organiser/{SLUG}/end/?places=4")
    assert page.context["final"] is True and "最终排名" in page.text
    # B withdrew: fourth in the standings, but no prize; E joined in round 3, not published yet.
    assert [place for place, _rows in page.context["awards"]] == [3, 2, 1]
    assert [(row["id"], row["rank"]) for row in page.context["rows"]] == [("A", 1), ("C", 2), ("D", 3), ("B", 4)]


def test_a_withdrawn_entrant_takes_no_prize_and_the_next_moves_up(organiser, event):
    from scoring.models import Entrant

    # Standings A, C, D, B: with C withdrawn (and B back in), D is second and B third.
    Entrant.objects.filter(event=event, code="C").update(withdrawn_after_round=2)
    Entrant.objects.filter(event=event, code="B").update(withdrawn_after_round=None)
    awards = organiser.get(f"/organiser/{SLUG}/end/").context["awards"]
    assert [(place, [row["id"] for row in rows]) for place, rows in awards] == [(3, ["B"]), (2, ["D"]), (1, ["A"])]


def test_the_results_pack_holds_every_official_file_and_each_opens(organiser, event, tmp_path):
    page = organiser.get(f"/organiser/{SLUG}/end/")
    assert f"/organiser/{SLUG}/results-pack.zip" in page.text
    response = organiser.get(f"/organiser/{SLUG}/results-pack.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "no-store" in response["Cache-Control"]
    pack = zipfile.ZipFile(io.BytesIO(body(response)))
    folder = f"{SLUG}-results/"
    names = [name.removeprefix(folder) for name in pack.namelist()]
    assert names == [
        f"{SLUG}-standings.pdf",
        f"{SLUG}-standings.xlsx",
        f"{SLUG}-results.xlsx",
        f"{SLUG}-cross-table.pdf",
        f"{SLUG}-cross-table.xlsx",
        f"{SLUG}-round1-results.pdf",
        f"{SLUG}-round1-travellers.pdf",
        f"{SLUG}-round2-results.pdf",
        f"{SLUG}-round2-travellers.pdf",
        f"{SLUG}.huapai-event.json",
        "README.txt",
    ]  # round 3 is not published: not in the pack
    for name in names:
        data = pack.read(folder + name)
        if name.endswith(".pdf"):
            assert "太原华牌邀请赛" in pdf_text(data, tmp_path), name
        elif name.endswith(".xlsx"):
            assert load_workbook(io.BytesIO(data)).sheetnames, name
    # A boards-scored event: the round's paper has no 局 totals, which would decide nothing.
    round_paper = pdf_text(pack.read(folder + f"{SLUG}-round1-results.pdf"), tmp_path)
    assert "副数" in round_paper and "局" not in round_paper
    standings = load_workbook(io.BytesIO(pack.read(folder + f"{SLUG}-standings.xlsx")))
    assert standings.sheetnames == ["排名", "第1轮后", "第2轮后", "说明"]  # the public version
    assert "公开版" in dict(standings["说明"].iter_rows(values_only=True))["内容"]
    archive = json.loads(pack.read(folder + f"{SLUG}.huapai-event.json"))
    assert parse_archive(archive)  # the archive inside is one the site reads back
    assert [r["number"] for r in archive["rounds"]] == [1, 2, 3]
    listing = pack.read(folder + "README.txt").decode("utf-8-sig")
    assert "临时排名" in listing and "第2轮为临时成绩" in listing and "第3轮未公布" in listing
    assert f"{SLUG}-cross-table.pdf  交叉表" in listing


def test_the_end_of_event_page_and_the_pack_are_for_the_events_organisers(client, event):
    for url in (f"/organiser/{SLUG}/end/", f"/organiser/{SLUG}/results-pack.zip"):
        assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user("ref", "referee", event))
    for url in (f"/organiser/{SLUG}/end/", f"/organiser/{SLUG}/results-pack.zip"):
        assert client.get(url).status_code == 403


def test_every_new_paper_is_linked_from_the_consoles(organiser, event):
    console = organiser.get(f"/organiser/{SLUG}/").text
    for url in (
        f"/events/{SLUG}/cross-table.pdf",
        f"/events/{SLUG}/cross-table.xlsx",
        f"/events/{SLUG}/cross/",
        f"/organiser/{SLUG}/end/",
    ):
        assert f'href="{url}' in console, url
    round_console = organiser.get(f"/organiser/{SLUG}/rounds/3/").text
    for url in (f"/events/{SLUG}/rounds/3/draw.pdf", f"/events/{SLUG}/rounds/3/table-cards.pdf"):
        assert f'href="{url}"' in round_console, url
    organiser.logout()
    assert f'href="/events/{SLUG}/cross/"' in organiser.get(f"/events/{SLUG}/").text
    assert f'href="/events/{SLUG}/rounds/3/draw.pdf"' in organiser.get(f"/events/{SLUG}/rounds/3/draw/").text
