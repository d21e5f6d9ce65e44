"""Every export read back: xlsx with openpyxl, PDFs with pypdf and pdffonts."""

import io
import subprocess

import pytest
from openpyxl import Workbook, load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from scoring.models import Player, Round
from scoring.results.standings_json import standings_json
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
    assert wb.sheetnames == ["排名", "第1轮后", "说明"]  # round 2 is not published
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
    assert [(r["轮"], r["桌"], r["副"], r["NS 得分"], r["EW 得分"]) for r in rows] == [
        (1, 1, 1, -270, 40),
        (1, 2, 1, 300, -50),
    ]
    assert "局" not in header  # a boards-scored event: 局 decide nothing
    assert rows[0]["北得分牌"] == "♥A ♥K ♥8 ♥7 ♠Q"
    assert rows[0]["N 得分"] == -210


def test_results_xlsx_numbers_each_deal_s_game_where_games_decide(client):
    archive = four_pairs_two_rounds(mode="games", length=2)
    archive["event"]["slug"] = "t-games"
    import_archive(archive)
    ws = load_workbook(io.BytesIO(content(client.get("/events/t-games/results.xlsx"))))["每副成绩"]
    header = [c.value for c in ws[1]]
    rows = [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]
    # One deal a table, neither side past ±1000: each table's first (unfinished) 局.
    assert header[3] == "局" and rows and {r["局"] for r in rows} == {1}


def test_an_organiser_gets_every_round(client, published):
    from tests.referee_setup import make_user

    client.force_login(make_user("boss", "organiser", published))
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    assert wb.sheetnames == ["排名", "第1轮后", "第2轮后", "说明"]
    about = dict(wb["说明"].iter_rows(values_only=True))
    assert about["赛事"] == "测试双人赛" and "工作人员版" in about["内容"] and "第2轮进行中" in about["内容"]
    assert about["打印于"][:4] == "2026" or about["打印于"][:2] == "20"
    # And the public version on request, as the public gets it.
    public = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx?scope=public"))))
    assert public.sheetnames == ["排名", "第1轮后", "说明"]
    assert "公开版" in dict(public["说明"].iter_rows(values_only=True))["内容"]


def standings_sheet(wb, title="排名"):
    ws = wb[title]
    header = [c.value for c in ws[1]]
    return [dict(zip(header, [c.value for c in row], strict=True)) for row in ws.iter_rows(min_row=2)]


def test_the_officials_standings_count_finished_matches_only_and_name_the_others(client, published):
    """Round 2 is in play with one board of sixteen entered at each table: the officials'
    standings leave its matches out and say so; once the matches are finished they count."""
    from scoring.cache import announce_results_changed
    from scoring.models import Event
    from tests.referee_setup import make_user

    client.force_login(make_user("boss", "organiser", published))
    after_round_one = standings_json(published, after_round=1)["rows"]
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    assert [(r["编号"], r["场分"], r["总得分"]) for r in standings_sheet(wb)] == [
        (e["id"], e["match_points"], e["total_score"]) for e in after_round_one
    ]
    note = dict(wb["说明"].iter_rows(values_only=True))["说明"]
    assert "不计入" in note and note.count("第2轮") == 2 and "已确认 1 副" in note
    _, text = pdf_text(client.get("/events/t-pairs/standings.pdf"))
    assert "不计入" in " ".join(text.split())

    Event.objects.filter(pk=published.pk).update(match_length=1)  # one board a match: round 2 is finished
    published.refresh_from_db()
    announce_results_changed(published)  # as the event form's service does
    everything = standings_json(published)["rows"]
    assert everything != after_round_one
    wb = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    assert [(r["编号"], r["场分"], r["总得分"]) for r in standings_sheet(wb)] == [
        (e["id"], e["match_points"], e["total_score"]) for e in everything
    ]
    assert "均已完成" in dict(wb["说明"].iter_rows(values_only=True))["说明"]


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
    # Names, not codes: both partners of each side.
    assert "南北 NS：A " in first and "钱某2" in first and "东西 EW：B 孙某3、李某4" in first


def scoresheet_header(page):
    """The grid's header line: the card labels in the order printed."""
    text = " ".join(page.extract_text().split())
    return text[text.index("副 ") :]


def test_a_score_sheet_mirrors_the_entry_grid(client, published):
    """A column per point card in the entry page's order, holder and exposure of the four
    special cards, penalties per seat as the entry page takes them (positive), a line per board."""
    from scoring.entry.grid import card_rows, exposable_rows

    reader, _ = pdf_text(client.get("/events/t-pairs/rounds/1/scoresheets.pdf"))
    header = scoresheet_header(reader.pages[0])
    labels = [row["label"] for row in card_rows({})]
    assert len(labels) == 16
    positions = [header.index(label + " ") for label in labels[:-1]]  # ♣10 is followed by ♠Q 持牌
    assert positions == sorted(positions)
    for row in exposable_rows({}):
        assert f"{row['label']} 持牌" in header and f"{row['label']} 亮牌" in header
    assert header.count("罚分") == 4 and "负号已印好" in reader.pages[0].extract_text()
    # 16 boards numbered down the first column, then the signatures.
    assert " 16 南北方签名" in header


def test_a_two_deck_score_sheet_has_two_lines_per_board(client, published):
    from scoring.models import Event

    Event.objects.filter(pk=published.pk).update(ruleset="online-2deck")
    reader, _text = pdf_text(client.get("/events/t-pairs/rounds/1/scoresheets.pdf"))
    # Two lines a board do not fit 16 boards on a page: each table continues overleaf.
    assert len(reader.pages) == 4
    first = reader.pages[0].extract_text()
    assert "记分表（1/2）" in first and "①" in first and "②" in first and "两副牌" in first
    assert "签名" not in first and "签名" in reader.pages[1].extract_text()
    assert " 16 " in scoresheet_header(reader.pages[1])


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


@pytest.mark.parametrize(
    "url",
    [
        "/events/t-pairs/standings.pdf",
        "/events/t-pairs/rounds/1/results.pdf",
        "/events/t-pairs/rounds/1/travellers.pdf",
    ],
)
def test_every_results_pdf_states_the_event_the_round_its_status_and_the_printing_time(client, published, url):
    reader, _text = pdf_text(client.get(url))
    for page in reader.pages:
        text = page.extract_text()
        assert "测试双人赛" in text and "打印于 20" in text
    first = " ".join(reader.pages[0].extract_text().split())
    assert "第1轮" in first.replace(" ", "") and "正式" in first  # round 1 is official


def test_travellers_name_the_players_and_print_hearts_and_diamonds_red(client, published):
    reader, text = pdf_text(client.get("/events/t-pairs/rounds/1/travellers.pdf"))
    flat = " ".join(text.split())
    # Table 1 of round 1: A (p01, p02) against B (p03, p04), named rather than coded.
    assert "NS " in flat and "孙某3、李某4" in flat
    assert "第 1 副" in flat and "♥A" in flat
    stream = b"".join(page.get_contents().get_data() for page in reader.pages)
    red = b".776471 .156863 .156863 rg"  # #c62828, the colour of the cards' red suits
    assert red in stream


def test_a_score_sheet_prints_the_minus_sign_in_every_penalty_cell(client, published, tmp_path):
    """The sheet says the minus sign is printed: pdftotext finds one per seat and board."""
    path = tmp_path / "sheets.pdf"
    path.write_bytes(content(client.get("/events/t-pairs/rounds/1/scoresheets.pdf")))
    first_page = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert first_page.count("－") >= 16 * 4, first_page.count("－")


def test_once_every_round_is_official_the_officials_files_say_so_and_keep_their_own_names(client, published):
    """Issue 21 item 5: no "含未公布的成绩" when nothing is unpublished; staff files named apart;
    the standings PDF names venue, dates and the chief arbiter with a line to sign."""
    from datetime import date

    from scoring.models import Event
    from tests.referee_setup import make_user

    Round.objects.filter(event=published).update(status=Round.Status.OFFICIAL)
    Event.objects.filter(pk=published.pk).update(
        venue="太原市体育馆", start_date=date(2026, 5, 1), end_date=date(2026, 5, 3), chief_arbiter="王裁判"
    )
    client.force_login(make_user("boss", "organiser", published))
    staff = client.get("/events/t-pairs/standings.pdf")
    public = client.get("/events/t-pairs/standings.pdf?scope=public")
    assert staff["Content-Disposition"] != public["Content-Disposition"]
    assert "standings-staff.pdf" in staff["Content-Disposition"]
    _, text = pdf_text(staff)
    assert "工作人员版" not in text and "含未公布" not in text and "正式成绩（各轮均为正式成绩）" in text
    assert "太原市体育馆" in text and "2026-05-01 – 2026-05-03" in text
    assert "裁判长：王裁判" in text and "签名" in text
    workbook = load_workbook(io.BytesIO(content(client.get("/events/t-pairs/standings.xlsx"))))
    about = dict(workbook["说明"].iter_rows(values_only=True))
    assert about["内容"].startswith("正式成绩") and "未公布" not in about["内容"]
