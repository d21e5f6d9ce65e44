"""What every printed PDF shares (reportlab): the embedded font and the text it can print,
paragraph and table styles, plain-text paragraphs, the page and its footer, QR codes.

Every PDF embeds a CJK TrueType font (Debian's WenQuanYi Zen Hei by default,
`settings.CJK_FONT_PATH`); reportlab embeds the subset of glyphs used. The papers themselves are
in `pdf` (score sheets, results, standings, travellers), `draw_pdf`, `cross_table_files`,
`entrant_cards` and `game_sheets`.
"""

from functools import cache
from xml.sax.saxutils import escape

import segno
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, TableStyle

FONT = "HuapaiCJK"
# The CJK font has no U+2212 MINUS SIGN (the engine's breakdown texts and the sheets use it):
# printed as the font's full-width minus, which it has, and pdftotext reads back.
MINUS = "－"
_PRINTABLE = str.maketrans({"−": MINUS})


def printable(text):
    """Text as the embedded font can print it."""
    return str(text).translate(_PRINTABLE)


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
        "body": ParagraphStyle("body", fontName=FONT, fontSize=10, leading=14),
    }


def _text(text, style):
    """A Paragraph of plain text: reportlab reads Paragraph text as markup, so names such as
    `<a href=…>` or `<img src=…>` would become links or make the server open files."""
    return Paragraph(escape(printable(text)).replace("\n", "<br/>"), style)


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


def _document(out, title, *, wide=False):
    register_font()
    size = landscape(A4) if wide else A4
    return SimpleDocTemplate(
        out,
        pagesize=size,
        title=title,
        author=gettext("华牌赛事计分"),
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
        pdf.drawString(12 * mm, 7 * mm, gettext("%(text)s · 打印于 %(at)s") % {"text": text, "at": printed})
        pdf.drawRightString(doc.pagesize[0] - 12 * mm, 7 * mm, gettext("第 %(page)s 页") % {"page": doc.page})
        pdf.restoreState()

    return draw


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
