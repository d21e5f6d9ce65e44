"""The score sheet of a table of a game whose deal is its entry fields (蚌埠斗地主, 跑胡子 at a
table of three): a line per
deal, a column per field as the entry page asks it (a count per seat in a column per seat),
then each seat's score for the referee's check. The 华牌 sheet is `pdf.write_scoresheets`.

Printed in the language it is downloaded in (the Chinese site's sheet is Chinese)."""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from scoring.engine.vocabulary import SEAT_NAMES
from scoring.entry import game_fields
from scoring.events.rulebook import game_name, rules_text
from scoring.exports.pdf_common import FONT, _qr, printable, register_font
from scoring.games.stored import event_rules

# What each kind of field asks the person who fills in the sheet.
HINTS = {
    game_fields.SEAT: gettext_noop("写座位"),
    game_fields.SEAT_OR_NONE: gettext_noop("写座位"),
    game_fields.SEATS: gettext_noop("写座位"),
    game_fields.BOOL: gettext_noop("打 √"),
    game_fields.INT: gettext_noop("写数"),
}


def sheet_columns(game, fields):
    """[(heading, sub-heading, width in mm)]: the deal's number, a column per field (a count per
    seat in one column per seat), the seats' scores."""
    columns = [(_("副"), "", 9)]
    for spec in fields:
        label = _short(spec.label)  # the short name: 天炸, not 天炸（发到同点 8 张）
        if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
            columns += [(label, seat, 11) for seat in game.seats]
        elif spec.kind == game_fields.CHOICE:
            words = [_(spec.words[choice]) if choice in spec.words else str(choice) for choice in spec.choices]
            columns.append((label, " ".join(words), 20))
        else:
            columns.append((label, _hint(spec), 16 if spec.kind == game_fields.SEATS else 13))
    # What the game asks the sheet to keep beyond its fields (升级: both sides' levels after each deal).
    columns += [(_(heading), sub, width) for heading, sub, width in game.sheet_columns]
    columns += [(_("得分"), seat, 14) for seat in game.seats]
    return columns


def _short(label):
    """A field's short name: 天炸, not 天炸（发到同点 8 张）; "Winner", not "Winner (…)" in English."""
    return label.split("（")[0].split(" (")[0]


def write_field_scoresheets(out, event, rnd, sheets, game, deals):
    """One landscape A4 page per table: `sheets` as `sources.scoresheet_data` gives them,
    `deals` the lines each sheet has (the event's match length)."""
    _write(out, event, rnd, sheets, game, game_fields.game_fields(game, event_rules(event)), deals)


def _write(out, event, rnd, sheets, game, fields, deals):
    register_font()
    pdf = canvas.Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=9)
    pdf.setTitle(_("%(event)s 第%(n)s轮 记分表") % {"event": event.name, "n": rnd.number})
    pdf.setAuthor(_("华牌赛事计分"))
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
    instructions = (
        _("每副一行：")
        + pgettext("list separator", "；").join(_instruction(spec) for spec in fields)
        + _("。得分由裁判录入后核对。")
    )
    note = game.sheet_note
    instructions += _(note) if note else ""
    for sheet in sheets:
        starts = list(range(1, deals + 1, per_page))
        for page_index, first in enumerate(starts):
            last = min(deals, first + per_page - 1)
            top = height - 12 * mm
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 13)
            pdf.drawString(left, top, printable(event.name))
            pdf.setFont(FONT, 11)
            more = (
                _("（%(page)s/%(pages)s）") % {"page": page_index + 1, "pages": len(starts)} if len(starts) > 1 else ""
            )
            heading = _("第 %(round)s 轮 · %(table)s 号桌 · %(game)s 记分表") % {
                "round": rnd.number,
                "table": sheet["table"],
                "game": game_name(game),
            }
            pdf.drawString(left, top - 6 * mm, heading + more)
            pdf.setFont(FONT, 9)
            seat_line = "    ".join(f"{_(SEAT_NAMES[s])} {s} {sheet['seats'].get(s, '')}" for s in game.seats)
            pdf.drawString(left, top - 13 * mm, printable(seat_line))
            pdf.setFont(FONT, 7)
            pdf.drawString(left, top - 19 * mm, printable(rules_text(event)))
            pdf.drawString(left, top - 23 * mm, instructions)
            qr_size = 24 * mm
            _qr(pdf, sheet["url"], width - left - qr_size, top - 25 * mm, qr_size)
            pdf.setFont(FONT, 6)
            caption = _(sheet.get("qr_caption", gettext_noop("扫码录入本桌")))
            pdf.drawCentredString(width - left - qr_size / 2, top - 27 * mm, caption)
            _grid(pdf, columns, xs, grid_top, header_height, line_height, first, last)
            bottom = grid_top - header_height - line_height * (last - first + 1)
            if page_index == len(starts) - 1:
                sign_y = max(bottom - 10 * mm, 14 * mm)
                pdf.setFont(FONT, 9)
                signers = [f"{_(SEAT_NAMES[s])} {s}" for s in game.seats] + [_("裁判")]
                step = (width - 2 * left) / len(signers)
                for index, label in enumerate(signers):
                    x = left + index * step
                    pdf.drawString(x, sign_y, _("%(who)s 签名：") % {"who": label})
                    pdf.line(x + 22 * mm, sign_y - 1 * mm, x + step - 4 * mm, sign_y - 1 * mm)
            pdf.setFont(FONT, 7)
            footer = _("%(event)s · 第%(round)s轮 · %(table)s号桌 · 打印于 %(at)s") % {
                "event": event.name,
                "round": rnd.number,
                "table": sheet["table"],
                "at": printed,
            }
            pdf.drawString(left, 6 * mm, printable(footer))
            pdf.showPage()
    pdf.save()


def _instruction(spec):
    label = _short(spec.label)
    if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
        return _("%(field)s在各座位栏写数") % {"field": label}
    if spec.kind == game_fields.CHOICE:
        return (_("%(field)s圈选（第一副）") if spec.first_only else _("%(field)s圈选")) % {"field": label}
    return _("%(field)s%(hint)s") % {"field": label, "hint": _hint(spec)}


def _hint(spec):
    """What a field asks the person who fills in the sheet; a seat or nobody names the game's word
    for nobody (跑胡子: 写座位或黄庄)."""
    if spec.kind == game_fields.SEAT_OR_NONE and spec.words.get(None):
        return _("%(hint)s或%(nobody)s") % {"hint": _(HINTS[spec.kind]), "nobody": _(spec.words[None])}
    hint = HINTS.get(spec.kind)
    return _(hint) if hint else ""


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
    scores_from = len(columns) - sum(1 for c in columns if c[0] == _("得分"))
    for index, x in enumerate(xs):
        pdf.setLineWidth(0.9 if index in (0, 1, scores_from, len(xs) - 1) else 0.3)
        pdf.line(x, grid_top, x, bottom)
    pdf.setFont(FONT, 9)
    for index, deal in enumerate(range(first, last + 1)):
        y = grid_top - header_height - index * line_height
        pdf.drawCentredString((xs[0] + xs[1]) / 2, y - line_height / 2 - 1.2 * mm, str(deal))
