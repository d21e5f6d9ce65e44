"""Printable PDFs with reportlab: score sheets, round results, standings, board travellers.

Every PDF embeds a CJK TrueType font (Debian's WenQuanYi Zen Hei by default,
`settings.CJK_FONT_PATH`); reportlab embeds the subset of glyphs used.
"""

from functools import cache
from xml.sax.saxutils import escape

import segno
from django.conf import settings
from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

from scoring.deals import event_rules
from scoring.rulebook import rules_text
from scoring.rules import SEATS
from scoring.vocabulary import SEAT_NAMES, Kind, MatchMode

FONT = "HuapaiCJK"


@cache
def register_font():
    path = str(settings.CJK_FONT_PATH)
    options = {"subfontIndex": 0} if path.endswith(".ttc") else {}
    pdfmetrics.registerFont(TTFont(FONT, path, **options))
    return FONT


def _styles():
    register_font()
    return {
        "title": ParagraphStyle("title", fontName=FONT, fontSize=15, leading=20, spaceAfter=4),
        "small": ParagraphStyle("small", fontName=FONT, fontSize=8, leading=10),
        "cell": ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=10),
    }


def _text(text, style):
    """A Paragraph of plain text: reportlab reads Paragraph text as markup, so names such as
    `<a href=…>` or `<img src=…>` would become links or make the server open files."""
    return Paragraph(escape(str(text)), style)


def _table_style(header_rows=1):
    return TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, 8),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#1d2330")),
            ("TEXTCOLOR", (0, 0), (-1, header_rows - 1), colors.white),
            ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#9aa3b2")),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, colors.HexColor("#f3f5f8")]),
        ]
    )


def _build(doc, story, footer):
    doc.build(story, onFirstPage=footer, onLaterPages=footer)


def _document(out, title, *, wide=False):
    register_font()
    size = landscape(A4) if wide else A4
    return SimpleDocTemplate(
        out,
        pagesize=size,
        title=title,
        author="华牌赛事计分",
        # The CJK font as the initial font too, so no unembedded Helvetica sneaks in.
        initialFontName=FONT,
        initialFontSize=9,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
    )


def _footer(text):
    """Every page: the event, when it was printed (the hall's time), the page number."""
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")

    def draw(pdf, doc):
        pdf.saveState()
        pdf.setFont(FONT, 7)
        pdf.drawString(12 * mm, 7 * mm, f"{text} · 打印于 {printed}")
        pdf.drawRightString(doc.pagesize[0] - 12 * mm, 7 * mm, f"第 {doc.page} 页")
        pdf.restoreState()

    return draw


def write_standings(out, event, rows, *, subtitle):
    styles = _styles()
    individual = event.kind == Kind.INDIVIDUAL
    header = (
        ["名次", "编号", "选手", "单位"]
        + (["总得分", "副数"] if individual else ["场分", "得分差", "总得分", "罚分", "场次"])
        + ["与上一名"]
    )
    body = [header]
    for row in rows:
        figures = (
            [row["total_score"], row["deals"]]
            if individual
            else [row["match_points"], row["score_difference"], row["total_score"], row["penalties"], row["played"]]
        )
        body.append(
            [
                row["rank"],
                row["id"],
                _text(row["name"], styles["cell"]),
                _text(row["club"], styles["cell"]),
                *figures,
                _text(row["explanation"], styles["cell"]),
            ]
        )
    doc = _document(out, f"{event.name} 排名", wide=True)
    table = LongTable(
        body, repeatRows=1, colWidths=[12 * mm, 16 * mm, 55 * mm, 35 * mm] + [18 * mm] * (len(header) - 5) + [60 * mm]
    )
    table.setStyle(_table_style())
    story = [
        _text(f"{event.name} · 排名", styles["title"]),
        _text(subtitle, styles["small"]),
        Spacer(1, 4 * mm),
        table,
    ]
    _build(doc, story, _footer(event.name))


def write_round_results(out, event, rnd, results):
    styles = _styles()
    body = [["桌", "NS", "EW", "NS 得分", "EW 得分", "场分", "副数", "局"]]
    for row in results["tables"]:
        table = row["table"]
        ns, ew = row["ns_label"], row["ew_label"]
        points = f"{row['ns_points']}:{row['ew_points']}" if row["ns_points"] is not None else ""
        games = " ".join(f"{g.ns}/{g.ew}{'' if g.finished else '…'}" for g in row["games"])
        body.append(
            [
                table.number,
                _text(ns, styles["cell"]),
                _text(ew, styles["cell"]),
                row["ns_total"],
                row["ew_total"],
                points,
                row["deals"],
                _text(games, styles["cell"]),
            ]
        )
    doc = _document(out, f"{event.name} 第{rnd.number}轮成绩", wide=True)
    table = LongTable(
        body, repeatRows=1, colWidths=[12 * mm, 60 * mm, 60 * mm, 22 * mm, 22 * mm, 16 * mm, 14 * mm, 60 * mm]
    )
    table.setStyle(_table_style())
    story = [
        _text(f"{event.name} · 第{rnd.number}轮成绩（{rnd.get_status_display()}）", styles["title"]),
        Spacer(1, 4 * mm),
        table,
    ]
    _build(doc, story, _footer(event.name))


def write_travellers(out, event, rnd, boards):
    """`boards`: [(board number, traveller rows)] — one section per board."""
    styles = _styles()
    normalised = event_rules(event).normalises
    story = [
        _text(f"{event.name} · 第{rnd.number}轮 牌例对照", styles["title"]),
        _text(rules_text(event), styles["small"]),
    ]
    if normalised:
        story.append(_text("各座位：得分（括号内为原始分，归一化之前、不含罚分）", styles["small"]))
    for board, rows in boards:
        body = [["桌", "NS/EW", "北", "东", "南", "西", "亮牌/罚分", "N", "E", "S", "W", "NS", "EW"]]
        for row in rows:
            table = row["table"]
            pair = f"{table.ns_entrant.code}/{table.ew_entrant.code}" if table.ns_entrant else ""
            notes = " ".join(
                [f"{c}{word}" for c, word in row["exposed"].items()]
                + [f"罚{s}{p}" for s, p in row["penalties"].items()]
                + (["调整分"] if row["adjusted"] else [])
            )
            body.append(
                [table.number, pair]
                + [_text(row["captured"][s], styles["cell"]) for s in SEATS]
                + [_text(notes, styles["cell"])]
                + [f"{row['scores'][s]}\n({row['raw'][s]})" if normalised else row["scores"][s] for s in SEATS]
                + [row["ns"], row["ew"]]
            )
        table = LongTable(body, repeatRows=1, colWidths=[10 * mm, 20 * mm] + [36 * mm] * 4 + [30 * mm] + [13 * mm] * 6)
        table.setStyle(_table_style())
        story += [Spacer(1, 4 * mm), _text(f"第 {board} 副", styles["title"]), table]
    doc = _document(out, f"{event.name} 第{rnd.number}轮 牌例对照", wide=True)
    _build(doc, story, _footer(event.name))


def _qr(pdf, url, x, y, size):
    """Draw a QR code as plain rectangles (segno computes the modules; reportlab's widget
    renderer would bring in an unembedded Helvetica)."""
    matrix = segno.make(url, error="m").matrix
    modules = len(matrix) + 8  # quiet zone of four modules each side
    step = size / modules
    pdf.setFillColor(colors.black)
    for row_index, row in enumerate(matrix):
        top = y + size - (row_index + 4) * step
        run_start = None
        for column, dark in enumerate([*row, 0]):
            if dark and run_start is None:
                run_start = column
            elif not dark and run_start is not None:
                pdf.rect(x + (run_start + 4) * step, top - step, (column - run_start) * step, step, stroke=0, fill=1)
                run_start = None


def write_scoresheets(out, event, rnd, sheets):
    """One A4 sheet per table. `sheets`: dicts with table number, ns/ew codes, seat names, and entry url."""
    register_font()
    pdf = canvas.Canvas(out, pagesize=A4, pageCompression=1, initialFontName=FONT, initialFontSize=9)
    pdf.setTitle(f"{event.name} 第{rnd.number}轮 记分表")
    width, height = A4
    boards = event.match_length if event.match_mode == MatchMode.BOARDS else 24
    columns = [
        ("副", 9),
        ("北 得分牌", 25),
        ("东 得分牌", 25),
        ("南 得分牌", 25),
        ("西 得分牌", 25),
        ("亮牌/持牌人", 30),
        ("罚分", 11),
        ("N", 11),
        ("E", 11),
        ("S", 11),
        ("W", 11),
        ("NS", 12),
        ("EW", 12),
        ("NS累计", 13),
        ("EW累计", 13),
    ]
    rules = event_rules(event)
    normalised = rules.normalises
    rules_line = rules_text(event)
    if rules.decks == 2:
        columns[1:5] = [(f"{label}（两副）", w) for label, w in columns[1:5]]
    scale = (width - 20 * mm) / sum(w for _, w in columns)
    for sheet in sheets:
        top = height - 14 * mm
        pdf.setFont(FONT, 14)
        pdf.drawString(10 * mm, top, f"{event.name}")
        pdf.setFont(FONT, 12)
        pdf.drawString(10 * mm, top - 7 * mm, f"第 {rnd.number} 轮 · {sheet['table']} 号桌 · 记分表")
        pdf.setFont(FONT, 9)
        line = top - 14 * mm
        for seat in SEATS:
            pdf.drawString(10 * mm, line, f"{SEAT_NAMES[seat]} {seat}：{sheet['seats'].get(seat, '')}")
            line -= 5 * mm
        if sheet.get("ns"):
            pdf.drawString(80 * mm, top - 14 * mm, f"NS：{sheet['ns']}    EW：{sheet['ew']}")
        pdf.setFont(FONT, 7)
        pdf.drawString(80 * mm, top - 19 * mm, rules_line)
        pdf.drawString(80 * mm, top - 23 * mm, "罚分写负数" + ("；N E S W 栏填原始分" if normalised else ""))
        for index, lineup in enumerate(sheet.get("lineups", [])[:2]):  # substitutions for later 节
            names = "  ".join(f"{seat} {lineup['seats'][seat]}" for seat in SEATS)
            pdf.drawString(80 * mm, top - (27 + 3.5 * index) * mm, f"第 {lineup['session']} 节起：{names}")
        pdf.setFont(FONT, 9)
        _qr(pdf, sheet["url"], width - 38 * mm, top - 26 * mm, 28 * mm)
        pdf.setFont(FONT, 6)
        pdf.drawCentredString(width - 24 * mm, top - 29 * mm, "扫码录入本桌")
        pdf.setFont(FONT, 5)
        pdf.drawRightString(width - 10 * mm, top - 32 * mm, sheet["url"])  # for those who cannot scan
        grid_top = top - 36 * mm
        row_height = min(11 * mm, (grid_top - 40 * mm) / (boards + 1))
        x_positions = [10 * mm]
        for _, w in columns:
            x_positions.append(x_positions[-1] + w * scale)
        pdf.setFillColor(colors.HexColor("#1d2330"))
        pdf.rect(10 * mm, grid_top - row_height, x_positions[-1] - 10 * mm, row_height, fill=1, stroke=0)
        pdf.setFillColor(colors.white)
        pdf.setFont(FONT, 7)
        for (label, _), x0, x1 in zip(columns, x_positions, x_positions[1:], strict=False):
            pdf.drawCentredString((x0 + x1) / 2, grid_top - row_height + 2.5 * mm, label)
        pdf.setFillColor(colors.black)
        pdf.setLineWidth(0.4)
        bottom = grid_top - row_height * (boards + 1)
        for row in range(boards + 2):
            y = grid_top - row * row_height
            pdf.line(10 * mm, y, x_positions[-1], y)
        for x in x_positions:
            pdf.line(x, grid_top, x, bottom)
        pdf.setFont(FONT, 8)
        for board in range(1, boards + 1):
            y = grid_top - (board + 1) * row_height + 2.5 * mm
            pdf.drawCentredString(
                (x_positions[0] + x_positions[1]) / 2, y, str(board) if event.match_mode == MatchMode.BOARDS else ""
            )
        sign_y = bottom - 14 * mm
        pdf.setFont(FONT, 9)
        for index, label in enumerate(["南北方签名", "东西方签名", "裁判签名"]):
            x = 10 * mm + index * 63 * mm
            pdf.drawString(x, sign_y, f"{label}：")
            pdf.line(x + 20 * mm, sign_y - 1 * mm, x + 58 * mm, sign_y - 1 * mm)
        pdf.setFont(FONT, 7)
        pdf.drawString(10 * mm, 8 * mm, f"{event.name} · 第{rnd.number}轮 · {sheet['table']}号桌")
        pdf.showPage()
    pdf.save()
