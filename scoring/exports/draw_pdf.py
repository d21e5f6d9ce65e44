"""The round's papers for the hall: the draw for the wall (by table, then every player by the
pinyin of the name) and a card for each table. Large type: they are read from a few steps away.

Both take `scoring.exports.sources.draw_paper(rnd)`; names are drawn as plain strings (never
parsed as markup) and cut with an ellipsis to their column, so a long name cannot run into the
next one.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas
from reportlab.platypus import LongTable, PageBreak, Spacer, Table, TableStyle

from scoring.engine.vocabulary import SEAT_NAMES, SEATS
from scoring.exports.pdf_common import FONT, _document, _footer, _styles, _text, register_font
from scoring.messages import joined

DIRECTIONS = {"NS": gettext_noop("南北"), "EW": gettext_noop("东西")}  # printed in the download's language
# A side's heading: its name and letters ("东西 EW"), one message (English: "East-West EW", not "EW EW").
DIRECTION_HEADINGS = {"NS": gettext_noop("南北 NS"), "EW": gettext_noop("东西 EW")}
INK = colors.HexColor("#1d2330")
RULE = colors.HexColor("#9aa3b2")
BAND = colors.HexColor("#f3f5f8")


def fitted(text, width, size):
    """`text` cut with an ellipsis to `width` points at `size` in the CJK font."""
    text = str(text)
    if stringWidth(text, FONT, size) <= width:
        return text
    while text and stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


def side_label(side):
    """ "A01 张三、李四", or a team's "T03 太原一队"."""
    return f"{side['code']} {side['name'] or joined(side['players'])}".strip()


def place_label(place):
    table, where = place
    direction = DIRECTIONS.get(where) or SEAT_NAMES.get(where)
    return _("%(table)s 桌 %(where)s") % {"table": table, "where": _(direction) if direction else where}


def _wall_style(size, header_size):
    return TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, size),
            ("FONT", (0, 0), (-1, 0), FONT, header_size),
            ("LEADING", (0, 0), (-1, -1), size * 1.25),
            ("BACKGROUND", (0, 0), (-1, 0), INK),
            ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
            ("GRID", (0, 0), (-1, -1), 0.5, RULE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ALIGN", (0, 0), (0, -1), "CENTER"),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, BAND]),
            ("TOPPADDING", (0, 0), (-1, -1), 4),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
        ]
    )


BY_TABLE_SIZE = 16  # points: a name read at two metres
BY_NAME_SIZE = 14
NAME_ROWS_PER_PAGE = 30  # per column, two columns a page


def write_wall_draw(out, event, rnd, paper):
    """A4 portrait: every table with both sides (or four seats), the byes, then every player in
    pinyin order with the number, table and direction, two columns a page, filled down."""
    styles = _styles()
    doc = _document(out, _("%(event)s 第%(n)s轮对阵表") % {"event": event.name, "n": rnd.number})
    width = doc.width
    title = _("%(event)s · 第 %(n)s 轮对阵表") % {"event": event.name, "n": rnd.number}
    story = [_text(title, styles["title"]), _text(_("按桌号"), styles["small"]), Spacer(1, 3 * mm)]
    individual = any(table["seats"] for table in paper["tables"])
    if individual:
        # The seats the tables use (a three-seat game leaves North empty: no column for it).
        used = [seat for seat in SEATS if any(seat in table["seats"] for table in paper["tables"])]
        column = (width - 18 * mm) / len(used)
        body = [[_("桌")] + [f"{_(SEAT_NAMES[seat])} {seat}" for seat in used]]
        for table in paper["tables"]:
            seats = table["seats"]
            body.append(
                [str(table["number"])]
                + [
                    fitted(f"{seats[seat]['code']} {seats[seat]['name']}" if seat in seats else "", column - 8, 13)
                    for seat in used
                ]
            )
        widths, size = [18 * mm] + [column] * len(used), 13
    else:
        column = (width - 18 * mm) / 2
        body = [[_("桌"), _(DIRECTION_HEADINGS["NS"]), _(DIRECTION_HEADINGS["EW"])]]
        for table in paper["tables"]:
            body.append(
                [str(table["number"])]
                + [fitted(side_label(table["sides"][d]), column - 8, BY_TABLE_SIZE) for d in ("NS", "EW")]
            )
        widths, size = [18 * mm, column, column], BY_TABLE_SIZE
    by_table = LongTable(body, colWidths=widths, repeatRows=1)
    by_table.setStyle(_wall_style(size, 12))
    by_table.setStyle(TableStyle([("FONT", (0, 1), (0, -1), FONT, size + 4)]))
    story.append(by_table)
    if paper["byes"]:
        byes = pgettext("list separator", "；").join(side_label(side) for side in paper["byes"])
        story += [Spacer(1, 4 * mm), _text(_("轮空：") + byes, styles["title"])]
    people = paper["people"]
    per_page = 2 * NAME_ROWS_PER_PAGE
    pages = [people[start : start + per_page] for start in range(0, len(people), per_page)]
    for index, chunk in enumerate(pages):
        heading = _("按姓名（拼音顺序）查桌号") + (
            _("（%(page)s/%(pages)s）") % {"page": index + 1, "pages": len(pages)} if len(pages) > 1 else ""
        )
        story += [PageBreak(), _text(f"{title} · {heading}", styles["title"]), Spacer(1, 3 * mm)]
        story.append(_name_columns(chunk, width))
    _build(doc, story, event)


def _initial(person):
    key = person["sort_key"] or person["name"]
    return key[:1].upper()


def _name_columns(chunk, width):
    """Two columns, each filled top to bottom: 字母 | 姓名 | 编号 | 桌 and 方向."""
    half = width / 2
    widths = [7 * mm, half - 7 * mm - 20 * mm - 30 * mm, 20 * mm, 30 * mm]
    middle = (len(chunk) + 1) // 2  # a short last page in two even columns
    left, right = chunk[:middle], chunk[middle:]
    rows = [["", _("姓名"), _("编号"), _("桌号")] * 2]
    previous = {"left": None, "right": None}
    for line in range(len(left)):
        row = []
        for name, part in (("left", left), ("right", right)):
            if line >= len(part):
                row += ["", "", "", ""]
                continue
            person = part[line]
            initial = _initial(person)
            # The letter only where it changes: the eye finds "Z" and runs down from there.
            letter = initial if initial != previous[name] else ""
            previous[name] = initial
            where = joined(place_label(p) for p in person["places"]) or _("轮空")
            row += [
                letter,
                fitted(person["name"], widths[1] - 6, BY_NAME_SIZE),
                fitted(person["code"], widths[2] - 6, BY_NAME_SIZE),
                fitted(where, widths[3] - 6, BY_NAME_SIZE if len(person["places"]) < 2 else 10),
            ]
        rows.append(row)
    table = Table(rows, colWidths=widths * 2, repeatRows=1)
    table.setStyle(_wall_style(BY_NAME_SIZE, 11))
    table.setStyle(
        TableStyle(
            [
                ("TEXTCOLOR", (0, 1), (0, -1), colors.HexColor("#c62828")),
                ("TEXTCOLOR", (4, 1), (4, -1), colors.HexColor("#c62828")),
                ("LINEBEFORE", (4, 0), (4, -1), 2, INK),
            ]
        )
    )
    return table


def _build(doc, story, event):
    footer = _footer(event.name)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)


def write_table_cards(out, event, rnd, paper):
    """One landscape A4 card per table: the number as large as the page allows, then each side's
    number, a team's name, and the players seated there (each seat's player in an individual event)."""
    register_font()
    pdf = canvas.Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=12)
    pdf.setTitle(_("%(event)s 第%(n)s轮 桌牌") % {"event": event.name, "n": rnd.number})
    pdf.setAuthor(_("华牌赛事计分"))
    width, height = landscape(A4)
    margin = 15 * mm
    for table in paper["tables"]:
        pdf.setFillColor(colors.black)
        pdf.setFont(FONT, 14)
        heading = _("%(event)s · 第 %(n)s 轮") % {"event": event.name, "n": rnd.number}
        pdf.drawString(margin, height - margin, fitted(heading, width - 2 * margin, 14))
        pdf.setFont(FONT, 40)
        pdf.drawCentredString(width / 2, height - 45 * mm, _("桌"))
        number = str(table["number"])
        size = min(190, 190 * 3 / max(3, len(number)))
        pdf.setFont(FONT, size)
        pdf.drawCentredString(width / 2, height - 45 * mm - size * 0.85, number)
        top = height - 45 * mm - size * 0.85 - 18 * mm
        if table["sides"]:
            lines = [
                (_(DIRECTION_HEADINGS[d]), table["sides"][d]["code"], table["sides"][d]["name"], table["sides"][d])
                for d in ("NS", "EW")
            ]
            column = (width - 2 * margin) / 2
            for index, (heading, code, team, side) in enumerate(lines):
                x = margin + index * column
                _card_side(pdf, x, top, column - 6 * mm, heading, code, team, side["seated"] or side["players"])
        else:
            # The seats the table has (a three-seat game leaves North empty: no column for it).
            seats = [seat for seat in SEATS if seat in table["seats"]] or list(SEATS)
            column = (width - 2 * margin) / len(seats)
            for index, seat in enumerate(seats):
                person = table["seats"].get(seat)
                x = margin + index * column
                _card_side(
                    pdf,
                    x,
                    top,
                    column - 4 * mm,
                    f"{_(SEAT_NAMES[seat])} {seat}",
                    person["code"] if person else "",
                    "",
                    [person["name"]] if person else [],
                )
        pdf.setFont(FONT, 8)
        pdf.setFillColor(colors.HexColor("#6e7684"))
        footer = _("%(event)s · 第%(n)s轮 · %(table)s号桌") % {
            "event": event.name,
            "n": rnd.number,
            "table": table["number"],
        }
        pdf.drawString(margin, 8 * mm, footer)
        pdf.showPage()
    pdf.save()


def _card_side(pdf, x, top, width, heading, code, team, players):
    pdf.setFillColor(colors.HexColor("#6e7684"))
    pdf.setFont(FONT, 16)
    pdf.drawString(x, top, heading)
    pdf.setFillColor(colors.black)
    pdf.setFont(FONT, 34)
    pdf.drawString(x, top - 14 * mm, fitted(code, width, 34))
    y = top - 26 * mm
    lines = ([team] if team else []) + list(players)
    room = y - 16 * mm  # above the footer
    # The largest type at which every line fits its width and all fit above the footer.
    size = next(
        (
            s
            for s in (26, 22, 18, 14)
            if s * 1.35 * len(lines) <= room and all(stringWidth(t, FONT, s) <= width for t in lines)
        ),
        12,
    )
    pdf.setFont(FONT, size)
    for line in lines:
        pdf.drawString(x, y, fitted(line, width, size))
        y -= size * 1.35
