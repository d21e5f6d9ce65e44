"""What every printed PDF shares (reportlab): the embedded font and the text it can print,
paragraph and table styles, plain-text paragraphs, the page and its footer, QR codes.

Every PDF embeds a CJK TrueType font (Debian's WenQuanYi Zen Hei by default,
`settings.CJK_FONT_PATH`); reportlab embeds the subset of glyphs used. The papers themselves are
in `pdf` (results, standings, travellers), `scoresheets`, `draw_pdf`, `cross_table_files` and
`entrant_cards`.
"""

import re
from functools import cache, lru_cache
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
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, TableStyle

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


# The red of the cards' ♥ and ♦, as on the cards and on the public pages.
CARD_RED = colors.HexColor("#c62828")
_RED_CARD = re.compile(r"([♥♦][0-9AKQJ]+[①②]?)")


@lru_cache(maxsize=4096)
def _width(word: str, size: float) -> float:
    # Card words and names repeat across a traveller's thousands of cells.
    return pdfmetrics.stringWidth(word, FONT, size)


class PlainCell(Flowable):
    """Plain text in a table cell, broken at spaces (a word wider than the cell, such as a Chinese
    name, between its characters) and drawn with `drawString`; `red_cards` prints ♥ and ♦ cards red.

    Why not a Paragraph: reportlab parses a Paragraph's text as markup with Python's HTML parser and
    builds styled fragments for every line, and a table wraps each cell again at every page it
    splits at — about 1 ms a cell, so the 28,800 cells of a 600-pair round's travellers cost half a
    minute. This cell breaks its lines once per width and reads no markup at all, so a name such as
    `<a href=…>` is printed as typed without being escaped first."""

    def __init__(self, text: str, *, size: float = 8, leading: float = 10, red_cards: bool = False) -> None:
        super().__init__()
        self.paragraphs = printable(text).split("\n")
        self.size = size
        self.leading = leading
        self.red_cards = red_cards
        self._broken_for = None
        self.lines: list[str] = []

    def wrap(self, availWidth, availHeight):
        if self._broken_for != availWidth:
            self.lines = [line for text in self.paragraphs for line in _break(text, availWidth, self.size)]
            self._broken_for = availWidth
        self.width = availWidth
        self.height = self.leading * len(self.lines)
        return self.width, self.height

    def draw(self):
        text = self.canv.beginText()
        text.setFont(FONT, self.size, self.leading)
        text.setTextOrigin(0, self.height - self.size)
        # The canvas holds whatever colour the table drew last (a header is white): black first,
        # then a colour only where it changes — each change is an operator in the page.
        text.setFillColor(colors.black)
        red = False
        for line in self.lines:
            if not (self.red_cards and ("♥" in line or "♦" in line)):
                if red:
                    text.setFillColor(colors.black)
                    red = False
                text.textLine(line)
                continue
            for part in _RED_CARD.split(line):
                if part:
                    if bool(_RED_CARD.fullmatch(part)) != red:
                        red = not red
                        text.setFillColor(CARD_RED if red else colors.black)
                    text.textOut(part)
            text.textLine("")
        self.canv.drawText(text)


def _break(text: str, width: float, size: float) -> list[str]:
    """`text` in lines no wider than `width`: greedy, at spaces, and inside a word only when the
    word alone is wider than the line."""
    lines, line, used = [], "", 0.0
    space = _width(" ", size)
    for word in text.split(" "):
        needed = _width(word, size)
        if line and used + space + needed <= width:
            line, used = f"{line} {word}", used + space + needed
            continue
        if line:
            lines.append(line)
        line, used = "", 0.0
        for character in word if needed > width else [word]:
            wide = _width(character, size)
            if line and used + wide > width:
                lines.append(line)
                line, used = "", 0.0
            line, used = line + character, used + wide
    lines.append(line)
    return lines


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
