"""The cross table on paper (PDF, landscape A4) and in a workbook, from
`scoring.results.cross_table.event_cross_table`: the grid of every entrant against every other
(in bands of opponents when they do not fit across a page), or each entrant's opponents by round
for a large event; the workbook adds one row per meeting, for sorting and sums.
"""

from django.utils.translation import gettext as _
from openpyxl import Workbook
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, PageBreak, Spacer

from scoring.exports.pdf_common import FONT, _document, _footer, _styles, _table_style, _text
from scoring.exports.xlsx import describe, header_cells, prepare_sheet, safe, write_about_sheet
from scoring.games import game_of
from scoring.messages import joined
from scoring.results.cross_table import meeting_text, signed


def legend(label):
    """What a cell holds, the difference in the game's word; in the download's language."""
    return _("每格：场分 / %(difference)s（本行一方）；… 未完成的对局（不计入名次）；— 尚未开始") % {
        "difference": label
    }


def difference_label(event):
    """The game's word for the score difference (升级: 级差), in the download's language."""
    label = game_of(event).standings_labels.get("score_difference")
    return _(label) if label is not None else _("得分差")


BAND_COLUMNS = 16  # opponents across one landscape page, each cell wide enough for "+11250"
PAGE_WIDTH = 273 * mm  # landscape A4 inside the 12 mm margins
GREY = colors.HexColor("#c9ced8")


def withdrawn_text(row):
    if row["withdrawn_after"] is None:
        return ""
    return _("（第%(n)s轮后退赛）") % {"n": row["withdrawn_after"]}


def cell_text(meetings, *, lines=False):
    """One grid cell: each meeting, its round named when the two met more than once. `lines`:
    场分 and difference on two lines (the narrow columns of the PDF)."""

    def one(meeting):
        text = meeting_text(meeting)
        return text.replace(" / ", "\n", 1) if lines else text

    if len(meetings) == 1:
        return one(meetings[0])
    return "\n".join(_("第%(n)s轮 %(meeting)s") % {"n": m["round"], "meeting": one(m)} for m in meetings)


def round_cell(meeting):
    """A cell of the by-round layout: the opponent and the meeting, or the bye."""
    if meeting is None:
        return ""
    return _("轮空") if meeting["bye"] else meeting_text(meeting, with_opponent=True)


def write_cross_table_pdf(out, event, table, *, subtitle):
    styles = _styles()
    label = difference_label(event)
    doc = _document(out, f"{event.name} {_('交叉表')}", wide=True)
    story = [
        _text(f"{event.name} · {_('交叉表')}", styles["title"]),
        _text(subtitle, styles["small"]),
        _text(legend(label), styles["small"]),
        Spacer(1, 3 * mm),
    ]
    if not table["rows"]:
        story.append(_text(_("尚无轮次。"), styles["cell"]))
    elif table["layout"] == "grid":
        codes = table["entrants"]
        bands = [codes[start : start + BAND_COLUMNS] for start in range(0, len(codes), BAND_COLUMNS)]
        for index, band in enumerate(bands):
            if index:
                story.append(PageBreak())
            story.append(_grid_band(table, band, last=index == len(bands) - 1, styles=styles, label=label))
    else:
        story.append(_by_round(table, styles, label))
    doc.build(story, onFirstPage=_footer(event.name), onLaterPages=_footer(event.name))


def _name_cell(row, styles):
    return _text(f"{row['name']}{withdrawn_text(row)}", styles["cell"])


def _grid_band(table, band, *, last, styles, label):
    codes = table["entrants"]
    first = codes.index(band[0])
    header = [_("编号"), _("名称"), *band] + ([_("轮空"), _("场分"), label, _("名次")] if last else [])
    body = [header]
    for row in table["rows"]:
        cells = [cell_text(row["cells"][first + offset], lines=True) for offset in range(len(band))]
        totals = (
            [
                "、".join(str(n) for n in row["byes"]),
                row["match_points"],
                signed(row["score_difference"]),
                row["rank"] or "",
            ]
            if last
            else []
        )
        body.append([row["code"], _name_cell(row, styles), *cells, *totals])
    totals_width = [12 * mm, 12 * mm, 16 * mm, 12 * mm] if last else []
    each = min(16 * mm, (PAGE_WIDTH - 14 * mm - 40 * mm - sum(totals_width)) / len(band))
    widths = [14 * mm, 40 * mm] + [each] * len(band) + totals_width
    grid = LongTable(body, repeatRows=1, colWidths=widths)
    style = _table_style()
    # The diagonal: an entrant never meets itself.
    for offset, code in enumerate(band):
        own = codes.index(code) + 1
        style.add("BACKGROUND", (2 + offset, own), (2 + offset, own), GREY)
    style.add("FONT", (2, 1), (-1, -1), FONT, 7)
    grid.setStyle(style)
    return grid


def _by_round(table, styles, label):
    numbers = [rnd.number for rnd in table["rounds"]]
    body = [[_("编号"), _("名称"), *(_round(n) for n in numbers), _("场分"), label, _("名次")]]
    for row in table["rows"]:
        body.append(
            [
                row["code"],
                _name_cell(row, styles),
                *(round_cell(m) for m in row["by_round"]),
                row["match_points"],
                signed(row["score_difference"]),
                row["rank"] or "",
            ]
        )
    room = PAGE_WIDTH - 14 * mm - 50 * mm - 40 * mm
    each = min(28 * mm, room / max(1, len(numbers)))
    grid = LongTable(
        body, repeatRows=1, colWidths=[14 * mm, 50 * mm] + [each] * len(numbers) + [12 * mm, 16 * mm, 12 * mm]
    )
    style = _table_style()
    style.add("FONT", (2, 1), (-1, -1), FONT, 7)
    grid.setStyle(style)
    return grid


def write_cross_table_xlsx(out, event, table, *, scope):
    """Sheets: 交叉表 (the grid, or opponents by round for a large event), 每场 (a row per
    entrant and meeting: numbers to sort and sum), 说明."""
    wb = Workbook(write_only=True)
    describe(wb, event, _("交叉表"), scope)
    label = difference_label(event)
    rows = table["rows"]
    ws = wb.create_sheet(title=_("交叉表"))
    if table["layout"] == "grid":
        titles = [_("编号"), _("名称"), *table["entrants"], _("轮空"), _("场分"), label, _("名次")]
        prepare_sheet(ws, titles, [8, 28] + [11] * len(table["entrants"]) + [8, 7, 9, 6], len(rows))
        ws.append(header_cells(ws, titles))
        for row in rows:
            ws.append(
                [safe(ws, row["code"]), safe(ws, row["name"] + withdrawn_text(row))]
                + [cell_text(cell) for cell in row["cells"]]
                + [joined(str(n) for n in row["byes"]), row["match_points"], row["score_difference"], row["rank"]]
            )
    else:
        numbers = [rnd.number for rnd in table["rounds"]]
        titles = [_("编号"), _("名称"), *(_round(n) for n in numbers), _("场分"), label, _("名次")]
        prepare_sheet(ws, titles, [8, 28] + [16] * len(numbers) + [7, 9, 6], len(rows))
        ws.append(header_cells(ws, titles))
        for row in rows:
            ws.append(
                [safe(ws, row["code"]), safe(ws, row["name"] + withdrawn_text(row))]
                + [round_cell(m) for m in row["by_round"]]
                + [row["match_points"], row["score_difference"], row["rank"]]
            )
    meetings = wb.create_sheet(title=_("每场"))
    titles = [_("编号"), _("名称"), _("轮"), _("对手"), _("场分"), label, _("状态")]
    count = sum(1 for row in rows for meeting in row["by_round"] if meeting)
    prepare_sheet(meetings, titles, [8, 28, 5, 8, 7, 9, 10], count)
    meetings.append(header_cells(meetings, titles))
    for row in rows:
        for meeting in filter(None, row["by_round"]):
            opponent = "" if meeting["bye"] else safe(meetings, meeting["opponent"])
            entrant = [safe(meetings, row["code"]), safe(meetings, row["name"])]
            figures = [meeting["points"], meeting.get("difference"), _state(meeting)]
            meetings.append([*entrant, meeting["round"], opponent, *figures])
    write_about_sheet(wb, event, scope, legend(label))
    wb.save(out)


def _round(number):
    return _("第%(n)s轮") % {"n": number}


def _state(meeting):
    if meeting["bye"]:
        return _("轮空")
    if meeting["points"] is None:
        return _("尚未开始")
    return _("已计入") if meeting["finished"] else _("未完成")
