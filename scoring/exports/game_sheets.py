"""The score sheet of a table of a game whose deal is its entry fields (蚌埠斗地主, 跑胡子 at a
table of three): a line per
deal, a column per field as the entry page asks it (a count per seat in a column per seat),
then each seat's score for the referee's check. The 华牌 sheet is `pdf.write_scoresheets`.

Printed in Chinese, as every sheet (the referees' and players' language at the table)."""

from django.utils import timezone, translation
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from scoring.engine.vocabulary import SEAT_NAMES
from scoring.entry import game_fields
from scoring.events.rulebook import rules_text
from scoring.exports.pdf_common import FONT, _qr, printable, register_font
from scoring.games.stored import event_rules

# What each kind of field asks the person who fills in the sheet.
HINTS = {
    game_fields.SEAT: "写座位",
    game_fields.SEAT_OR_NONE: "写座位",
    game_fields.SEATS: "写座位",
    game_fields.BOOL: "打 √",
    game_fields.INT: "写数",
}


def sheet_columns(game, fields):
    """[(heading, sub-heading, width in mm)]: the deal's number, a column per field (a count per
    seat in one column per seat), the seats' scores."""
    columns = [("副", "", 9)]
    for spec in fields:
        label = spec.label.split("（")[0]  # the short name: 天炸, not 天炸（发到同点 8 张）
        if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
            columns += [(label, seat, 11) for seat in game.seats]
        elif spec.kind == game_fields.CHOICE:
            words = [str(spec.words.get(choice, choice)) for choice in spec.choices]
            columns.append((label, " ".join(words), 20))
        else:
            columns.append((label, _hint(spec), 16 if spec.kind == game_fields.SEATS else 13))
    # What the game asks the sheet to keep beyond its fields (升级: both sides' levels after each deal).
    columns += [tuple(column) for column in game.sheet_columns]
    columns += [("得分", seat, 14) for seat in game.seats]
    return columns


def write_field_scoresheets(out, event, rnd, sheets, game, deals):
    """One landscape A4 page per table: `sheets` as `sources.scoresheet_data` gives them,
    `deals` the lines each sheet has (the event's match length)."""
    with translation.override("zh-hans"):
        _write(out, event, rnd, sheets, game, game_fields.game_fields(game, event_rules(event)), deals)


def _write(out, event, rnd, sheets, game, fields, deals):
    register_font()
    pdf = canvas.Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=9)
    pdf.setTitle(f"{event.name} 第{rnd.number}轮 记分表")
    pdf.setAuthor("华牌赛事计分")
    width, height = landscape(A4)
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    columns = sheet_columns(game, fields)
    left = 10 * mm
    scale = (width - 2 * left) / (sum(c[2] for c in columns) * mm)
    xs = [left]
    for column in columns:
        xs.append(xs[-1] + column[2] * mm * scale)
    header_height = 10 * mm
    grid_top = height - 42 * mm
    line_height = max(6.5 * mm, min(9 * mm, (grid_top - header_height - 30 * mm) / max(deals, 1)))
    per_page = max(1, int((grid_top - header_height - 24 * mm) / line_height))
    instructions = "每副一行：" + "；".join(_instruction(spec) for spec in fields) + "。得分由裁判录入后核对。"
    instructions += game.sheet_note
    for sheet in sheets:
        starts = list(range(1, deals + 1, per_page))
        for page_index, first in enumerate(starts):
            last = min(deals, first + per_page - 1)
            top = height - 12 * mm
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 13)
            pdf.drawString(left, top, printable(event.name))
            pdf.setFont(FONT, 11)
            more = f"（{page_index + 1}/{len(starts)}）" if len(starts) > 1 else ""
            pdf.drawString(left, top - 6 * mm, f"第 {rnd.number} 轮 · {sheet['table']} 号桌 · {game.name} 记分表{more}")
            pdf.setFont(FONT, 9)
            seat_line = "    ".join(f"{SEAT_NAMES[s]} {s} {sheet['seats'].get(s, '')}" for s in game.seats)
            pdf.drawString(left, top - 13 * mm, printable(seat_line))
            pdf.setFont(FONT, 7)
            pdf.drawString(left, top - 19 * mm, printable(rules_text(event)))
            pdf.drawString(left, top - 23 * mm, instructions)
            qr_size = 24 * mm
            _qr(pdf, sheet["url"], width - left - qr_size, top - 25 * mm, qr_size)
            pdf.setFont(FONT, 6)
            pdf.drawCentredString(width - left - qr_size / 2, top - 27 * mm, sheet.get("qr_caption", "扫码录入本桌"))
            _grid(pdf, columns, xs, grid_top, header_height, line_height, first, last)
            bottom = grid_top - header_height - line_height * (last - first + 1)
            if page_index == len(starts) - 1:
                sign_y = max(bottom - 10 * mm, 14 * mm)
                pdf.setFont(FONT, 9)
                signers = [f"{SEAT_NAMES[s]} {s}" for s in game.seats] + ["裁判"]
                step = (width - 2 * left) / len(signers)
                for index, label in enumerate(signers):
                    x = left + index * step
                    pdf.drawString(x, sign_y, f"{label} 签名：")
                    pdf.line(x + 22 * mm, sign_y - 1 * mm, x + step - 4 * mm, sign_y - 1 * mm)
            pdf.setFont(FONT, 7)
            footer = f"{event.name} · 第{rnd.number}轮 · {sheet['table']}号桌 · 打印于 {printed}"
            pdf.drawString(left, 6 * mm, printable(footer))
            pdf.showPage()
    pdf.save()


def _instruction(spec):
    label = spec.label.split("（")[0]
    if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
        return f"{label}在各座位栏写数"
    if spec.kind == game_fields.CHOICE:
        return f"{label}圈选" + ("（第一副）" if spec.first_only else "")
    return f"{label}{_hint(spec)}"


def _hint(spec):
    """What a field asks the person who fills in the sheet; a seat or nobody names the game's word
    for nobody (跑胡子: 写座位或黄庄)."""
    if spec.kind == game_fields.SEAT_OR_NONE and spec.words.get(None):
        return f"{HINTS[spec.kind]}或{spec.words[None]}"
    return HINTS.get(spec.kind, "")


def _grid(pdf, columns, xs, grid_top, header_height, line_height, first, last):
    right = xs[-1]
    lines = last - first + 1
    bottom = grid_top - header_height - lines * line_height
    pdf.setFillColor(colors.HexColor("#eef1f5"))
    pdf.rect(xs[0], grid_top - header_height, right - xs[0], header_height, fill=1, stroke=0)
    pdf.setFillColor(colors.black)
    for (label, sub, _width), x0, x1 in zip(columns, xs, xs[1:], strict=False):
        middle = (x0 + x1) / 2
        pdf.setFont(FONT, 8)
        pdf.drawCentredString(middle, grid_top - (4 if sub else 6) * mm, label)
        if sub:
            pdf.setFont(FONT, 6)
            pdf.drawCentredString(middle, grid_top - 8 * mm, sub)
    pdf.setStrokeColor(colors.black)
    for line in range(lines + 1):
        y = grid_top - header_height - line * line_height
        pdf.setLineWidth(0.6)
        pdf.line(xs[0], y, right, y)
    pdf.line(xs[0], grid_top, right, grid_top)
    scores_from = len(columns) - sum(1 for c in columns if c[0] == "得分")
    for index, x in enumerate(xs):
        pdf.setLineWidth(0.9 if index in (0, 1, scores_from, len(xs) - 1) else 0.3)
        pdf.line(x, grid_top, x, bottom)
    pdf.setFont(FONT, 9)
    for index, deal in enumerate(range(first, last + 1)):
        y = grid_top - header_height - index * line_height
        pdf.drawCentredString((xs[0] + xs[1]) / 2, y - line_height / 2 - 1.2 * mm, str(deal))
