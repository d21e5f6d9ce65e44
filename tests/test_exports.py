"""Every export read back: xlsx with openpyxl, PDFs with pypdf and pdffonts."""

import io
import subprocess

import pytest
from openpyxl import Workbook, load_workbook
from pypdf import PdfReader

from scoring.archive import import_archive
from scoring.models import Player, Round
from scoring.results import standings_json
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def published():
    """Round 1 official, round 2 unpublished (in play)."""
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"
    archive["players"][0]["name"] = '=HYPERLINK("http://x","点我")'
    return import_archive(archive)


def content(response):
    return b"".join(response.streaming_content)


def test_standings_xlsx_matches_the_standings_module_and_has_a_sheet_per_round(client, published):
    response = client.get("/events/t-pairs/standings.xlsx")
    assert response.status_code == 200
    wb = load_workbook(io.BytesIO(content(response)))
    assert wb.sheetnames == ["排名", "第1轮后"]  # round 2 is not published
    ws = wb["排名"]
    header = [c.value for c in ws[1]]
    assert header[:2] == ["名次", "编号"]
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    expected = standings_json(published, published_only=True)["rows"]
    assert [(r["名次"], r["编号"], r["场分"], r["得分差"], r["总得分"], r["罚分"]) for r in rows] == [
        (e["rank"], e["id"], e["match_points"], e["score_difference"], e["total_score"], e["penalties"])
        for e in expected
    ]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref.startswith("A1:")
    assert ws.print_title_rows == "$1:$1"
    assert ws.column_dimensions["C"].width >= 10


def test_typed_text_is_never_a_formula(client, published):
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    names = [cell for row in wb["排名"].iter_rows(min_row=2) for cell in row if str(cell.value).startswith("=")]
    assert names and all(cell.data_type == "s" for cell in names)
    results = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/results.xlsx"))))["每副成绩"]
    formula_like = [c for row in results.iter_rows(min_row=2) for c in row if str(c.value).startswith("=")]
    assert formula_like and all(c.data_type == "s" for c in formula_like)


def test_results_xlsx_has_one_row_per_published_deal_with_scores(client, published):
    ws = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/results.xlsx"))))["每副成绩"]
    header = [c.value for c in ws[1]]
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    # Round 1 only: table 1 played T1 (NS −270, EW +40), table 2 played T7 (NS +300, EW −50).
    assert [(r["轮"], r["桌"], r["副"], r["NS 得分"], r["EW 得分"], r["局"]) for r in rows] == [
        (1, 1, 1, -270, 40, 1),
        (1, 2, 1, 300, -50, 1),
    ]
    assert rows[0]["北得分牌"] == "♥A ♥K ♥8 ♥7 ♠Q"
    assert rows[0]["N 得分"] == -210


def test_an_organiser_gets_every_round(client, published):
    from tests.referee_setup import make_user

    client.force_login(make_user("boss", "organiser", published))
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    assert wb.sheetnames == ["排名", "第1轮后", "第2轮后"]


def pdf_text(response):
    reader = PdfReader(io.BytesIO(content(response)))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def fonts_all_embedded(data, tmp_path):
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    return lines and all(line.split()[-5] == "yes" for line in lines), lines


@pytest.mark.parametrize(
    "url",
    [
        "/events/t-pairs/standings.pdf",
        "/events/t-pairs/rounds/1/results.pdf",
        "/events/t-pairs/rounds/1/scoresheets.pdf",
        "/events/t-pairs/rounds/1/travellers.pdf",
    ],
)
def test_every_pdf_embeds_its_cjk_font(client, published, tmp_path, url):
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    embedded, lines = fonts_all_embedded(content(response), tmp_path)
    assert embedded, lines
    assert any("WenQuanYi" in line for line in lines)


def test_the_standings_pdf_lists_the_standings(client, published):
    _, text = pdf_text(client.get("/events/t-pairs/standings.pdf"))
    order = [row["id"] for row in standings_json(published, published_only=True)["rows"]]
    positions = [text.index(f" {code} ") if f" {code} " in text else text.index(code) for code in order]
    assert positions == sorted(positions)
    assert "排名" in text


def test_score_sheets_have_a_page_per_table_with_names_and_a_qr_link(client, published):
    reader, _ = pdf_text(client.get("/events/t-pairs/rounds/1/scoresheets.pdf"))
    assert len(reader.pages) == 2
    first = reader.pages[0].extract_text()
    assert "/referee/t-pairs/rounds/1/tables/1/boards/1/" in first.replace("\n", "")
    north = Player.objects.get(event=published, code="p01")
    assert "1 号桌" in first and "记分表" in first and "签名" in first
    assert north.name[-4:] in first.replace("\n", "")
    assert "NS累计" in first


def test_unpublished_rounds_are_not_exported_to_the_public(client, published):
    assert client.get("/events/t-pairs/rounds/2/results.pdf").status_code == 404
    assert client.get("/events/t-pairs/rounds/2/scoresheets.pdf").status_code == 404
    Round.objects.filter(event=published, number=2).update(status="provisional")
    assert client.get("/events/t-pairs/rounds/2/results.pdf").status_code == 200


def test_entrant_import_reports_rejected_rows(client, people, event):
    from tests.referee_setup import make_user

    wb = Workbook()
    ws = wb.active
    ws.append(["编号", "姓名1", "姓名2", "单位"])
    ws.append(["B01", "王五", "赵六", "太原"])
    ws.append(["A", "重复", "编号", ""])  # A exists already
    ws.append(["B02", "独自一人", None, ""])
    ws.append([None, "没有", "编号", ""])
    handle = io.BytesIO()
    wb.save(handle)
    handle.seek(0)
    handle.name = "entrants.xlsx"
    client.force_login(people["organiser"])
    response = client.post("/organiser/t-pairs/entrants/import/", {"file": handle})
    report = response.context["report"]
    assert [new.code for new in report.to_create] == ["B01"]
    assert not Player.objects.filter(event=event, code__startswith="B01").exists()  # a preview writes nothing
    client.post("/organiser/t-pairs/entrants/import/confirm/")
    assert [row for row, _ in report.rejected] == [3, 4, 5]
    assert "编号重复" in str(report.rejected[0][1])
    assert [p.name for p in Player.objects.filter(event=event, code__startswith="B01")] == ["王五", "赵六"]
    client.force_login(make_user("ref9", "referee", event))
    assert client.post("/organiser/t-pairs/entrants/import/", {"file": handle}).status_code == 403


def test_workbooks_say_what_they_hold_and_statuses_are_words(client, event, people):
    from openpyxl import load_workbook

    public = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/results.xlsx"))))
    assert public.properties.title == f"{event.name} · 每副成绩"
    assert public.properties.subject.startswith("公开版") and "第1轮正式成绩" in public.properties.subject
    statuses = {row[-1] for row in public.worksheets[0].iter_rows(min_row=2, values_only=True)}
    assert statuses == {"已确认"}
    client.force_login(people["organiser"])
    staff = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    assert staff.properties.subject.startswith("工作人员版") and "第3轮" in staff.properties.subject


def test_every_pdf_page_says_when_it_was_printed(client, event):
    _reader, text = pdf_text(client.get("/events/t-pairs/standings.pdf"))
    assert "打印于 20" in text
