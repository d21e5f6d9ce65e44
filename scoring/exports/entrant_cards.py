"""Entrant cards: one card per entrant with its personal entry code (table-api.md), eight to an
A4 page with cut lines, handed to each pair, team or player at registration.

The code is a secret of that entrant: this is the only file that prints it. Withdrawn entrants
get no card. Names are drawn as plain strings (never parsed as markup) and cut with an ellipsis
to the card, so a long name cannot run into the code or the QR code.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from scoring.engine.standings import natural_key
from scoring.exports.draw_pdf import fitted
from scoring.exports.pdf_common import FONT, _qr, printable, register_font
from scoring.models import Entrant, with_members

COLUMNS, ROWS = 2, 4
MARGIN = 10 * mm
PADDING = 5 * mm
WARNING = gettext_noop("本队/本人的录入码，请勿告诉对手")  # printed in the download's language
GREY = colors.HexColor("#6e7684")
RULE = colors.HexColor("#9aa3b2")


def entrant_cards_data(event, entrant_url):
    """[{"code", "team", "players", "access_code", "url"}]: every entrant still in the event,
    by entrant number (A2 before A10); `entrant_url(entrant)`: the absolute address of the
    entrant's public page, for the QR code."""
    entrants = (
        Entrant.objects.filter(event=event, withdrawn_after_round__isnull=True)
        .prefetch_related(with_members())
        .order_by("code")
    )
    cards = [
        {
            "code": entrant.code,
            "team": entrant.name,
            "players": [m.player.name for m in sorted(entrant.memberships.all(), key=lambda m: m.position)],
            "access_code": entrant.access_code,
            "url": entrant_url(entrant),
        }
        for entrant in entrants
    ]
    return sorted(cards, key=lambda card: natural_key(card["code"]))


def write_entrant_cards(out, event, cards):
    """A4 portrait, 2 × 4 cards a page, dashed cut lines between and around them."""
    register_font()
    pdf = canvas.Canvas(out, pagesize=A4, pageCompression=1, initialFontName=FONT, initialFontSize=10)
    pdf.setTitle(_("%(event)s 参赛者录入码卡片") % {"event": event.name})
    pdf.setAuthor(_("华牌赛事计分"))
    width, height = A4
    card_width = (width - 2 * MARGIN) / COLUMNS
    card_height = (height - 2 * MARGIN) / ROWS
    per_page = COLUMNS * ROWS
    pages = [cards[start : start + per_page] for start in range(0, len(cards), per_page)] or [[]]
    for page in pages:
        _cut_lines(pdf, width, height, card_width, card_height)
        for index, card in enumerate(page):
            column, row = index % COLUMNS, index // COLUMNS
            x = MARGIN + column * card_width
            y = height - MARGIN - (row + 1) * card_height
            _card(pdf, event, card, x, y, card_width, card_height)
        pdf.setFont(FONT, 6)
        pdf.setFillColor(GREY)
        pdf.drawString(
            MARGIN + 2 * mm,
            3 * mm,
            fitted(_("%(event)s · 参赛者录入码卡片 · 沿虚线剪开") % {"event": printable(event.name)}, width / 2, 6),
        )
        pdf.showPage()
    pdf.save()


def _cut_lines(pdf, width, height, card_width, card_height):
    pdf.saveState()
    pdf.setStrokeColor(RULE)
    pdf.setLineWidth(0.4)
    pdf.setDash(3, 3)
    for column in range(COLUMNS + 1):
        x = MARGIN + column * card_width
        pdf.line(x, MARGIN / 2, x, height - MARGIN / 2)
    for row in range(ROWS + 1):
        y = MARGIN + row * card_height
        pdf.line(MARGIN / 2, y, width - MARGIN / 2, y)
    pdf.restoreState()


def _card(pdf, event, card, x, y, width, height):
    left, top = x + PADDING, y + height - PADDING
    inner = width - 2 * PADDING
    qr_size = 30 * mm
    text_width = inner - qr_size - 3 * mm
    pdf.setFillColor(GREY)
    pdf.setFont(FONT, 8)
    pdf.drawString(left, top - 3 * mm, fitted(printable(event.name), inner, 8))
    pdf.setFillColor(colors.black)
    pdf.setFont(FONT, 22)
    pdf.drawString(left, top - 12 * mm, fitted(printable(card["code"]), text_width, 22))
    lines = ([card["team"]] if card["team"] else []) + _name_lines(card["players"], text_width, 10)
    pdf.setFont(FONT, 10)
    line_y = top - 18 * mm
    if len(lines) > 3:  # a large team: the rest is on the entrants' list
        lines = [*lines[:2], lines[2].rstrip("、, ") + "…"]
    for line in lines:
        pdf.drawString(left, line_y, fitted(printable(line), text_width, 10))
        line_y -= 4.5 * mm
    # The QR code to the entrant's public page (results and the next table), top right.
    qr_x = x + width - PADDING - qr_size
    _qr(pdf, card["url"], qr_x, top - qr_size - 1 * mm, qr_size)
    pdf.setFillColor(GREY)
    pdf.setFont(FONT, 6)
    pdf.drawCentredString(qr_x + qr_size / 2, top - qr_size - 3 * mm, _("扫码查看成绩与对阵"))
    pdf.setFont(FONT, 5)
    pdf.drawRightString(x + width - PADDING, top - qr_size - 5.5 * mm, fitted(card["url"], inner, 5))
    _code_box(pdf, card["access_code"], left, y + PADDING, inner)


def _name_lines(names, width, size):
    """The players joined by 、 (", " in English), broken into lines that fit `width` (a team's
    members wrap)."""
    separator = pgettext("list separator", "、")
    lines, line = [], ""
    for name in names:
        candidate = f"{line}{separator}{name}" if line else name
        if line and stringWidth(printable(candidate), FONT, size) > width:
            lines.append(line + separator.rstrip())
            line = name
        else:
            line = candidate
    return [*lines, line] if line else lines


def _code_box(pdf, code, left, bottom, width):
    """The code in large type, one character to a fixed cell (it reads as monospace and no letter
    is mistaken for its neighbour), in a box, with the warning under it."""
    size = 24
    box_height = 13 * mm
    box_bottom = bottom + 5 * mm
    pdf.setFillColor(colors.HexColor("#f3f5f8"))
    pdf.setStrokeColor(colors.black)
    pdf.setLineWidth(0.8)
    pdf.rect(left, box_bottom, width, box_height, fill=1, stroke=1)
    pdf.setFillColor(GREY)
    pdf.setFont(FONT, 7)
    pdf.drawString(left + 2 * mm, box_bottom + box_height - 3.5 * mm, _("录入码"))
    pdf.setFillColor(colors.black)
    pdf.setFont(FONT, size)
    cell = min(8 * mm, (width - 16 * mm) / max(1, len(code)))
    start = left + (width - cell * len(code)) / 2 + 4 * mm
    for index, character in enumerate(code):
        pdf.drawCentredString(start + (index + 0.5) * cell, box_bottom + 3.8 * mm, character)
    pdf.setFont(FONT, 8)
    pdf.drawString(left, bottom + 1 * mm, _(WARNING))
