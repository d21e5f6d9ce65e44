"""Excel workbooks with openpyxl, written in write-only mode so that 360,000 deals stream through.

Text that people typed (names, clubs, reasons) is always written as text, never
as a formula: a name such as "=HYPERLINK(…)" stays a name.
"""

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from scoring.engine.vocabulary import SEAT_NAMES, SEATS, Kind, MatchMode
from scoring.entry.game_fields import deal_text, on_its_grid, seat_word
from scoring.games import game_of as game_of_event
from scoring.games.huapai import card_label
from scoring.games.huapai.deal_text import exposed_text, holders_text
from scoring.games.stored import event_rules, table_summary
from scoring.messages import message_text
from scoring.models import Deal

HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1D2330")


def display_width(text):
    """Columns a text needs: CJK characters are about two Latin characters wide."""
    return sum(2 if ord(char) > 0x2E80 else 1 for char in str(text))


def text_cell(ws, value):
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell = WriteOnlyCell(ws, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # never a formula, whatever the text starts with
    return cell


def safe(ws, value):
    """Typed text made safe for a cell: characters XML forbids are dropped (openpyxl refuses
    them), and text that Excel would take for a formula becomes an explicit text cell."""
    if isinstance(value, str):
        if ILLEGAL_CHARACTERS_RE.search(value):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        if value.startswith("="):
            return text_cell(ws, value)
    return value


def header_cells(ws, titles):
    cells = []
    for title in titles:
        cell = text_cell(ws, title)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(horizontal="center")
        cells.append(cell)
    return cells


def prepare_sheet(ws, titles, widths, row_count):
    """Frozen header, widths, an auto filter and print titles (set before any row is written)."""
    ws.freeze_panes = "A2"
    for index, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width
    last = get_column_letter(len(titles))
    ws.auto_filter.ref = f"A1:{last}{max(row_count + 1, 2)}"
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


STANDINGS_COLUMNS = [
    ("rank", gettext_noop("名次"), 6),
    ("id", gettext_noop("编号"), 8),
    ("name", gettext_noop("选手"), None),
    ("club", gettext_noop("单位"), None),
    ("match_points", gettext_noop("场分"), 7),
    ("score_difference", gettext_noop("得分差"), 10),
    ("total_score", gettext_noop("总得分"), 10),
    ("penalties", gettext_noop("罚分"), 7),
    ("played", gettext_noop("场次"), 6),
    ("explanation", gettext_noop("与上一名"), None),
]
INDIVIDUAL_COLUMNS = [
    c for c in STANDINGS_COLUMNS if c[0] not in {"match_points", "score_difference", "penalties", "played"}
]
INDIVIDUAL_COLUMNS.insert(5, ("deals", gettext_noop("副数"), 6))
# Individuals ranked by table points (games law §0): the points first, then the total (tie-break).
TABLE_POINTS_COLUMNS = [*INDIVIDUAL_COLUMNS[:4], ("table_points", gettext_noop("桌分"), 7), *INDIVIDUAL_COLUMNS[4:]]
TEXT_KEYS = {"id", "name", "club", "explanation"}


def game_columns(game, columns):
    """Standings columns in the game's words (`Game.standings_labels`: 升级's 级差 and 终局级数),
    without 罚分 for a game whose law has no penalty points; in the request's language."""
    labels = game.standings_labels
    return [
        (key, gettext(labels.get(key, label)), width)
        for key, label, width in columns
        if game.takes_penalties or key != "penalties"
    ]


def describe(wb, event, title, scope):
    """The workbook's own properties (File → Info): the event, what it holds, when it was made."""
    # Properties are XML too: a control character typed into an event's name would make
    # openpyxl refuse the whole workbook (a 500 for every download of that event).
    wb.properties.title = ILLEGAL_CHARACTERS_RE.sub("", f"{event.name} · {title}")[:255]
    wb.properties.subject = ILLEGAL_CHARACTERS_RE.sub("", scope)[:255]
    wb.properties.keywords = f"{event.slug} huapai"
    wb.properties.creator = gettext("华牌赛事计分")
    wb.properties.created = timezone.now().replace(tzinfo=None)


def write_about_sheet(wb, event, scope, note=""):
    """A last sheet that says what the workbook holds, readable without File → Info."""
    ws = wb.create_sheet(title=gettext("说明"))
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    about = (
        (gettext("赛事"), event.name),
        (gettext("内容"), scope),
        (gettext("说明"), note),
        (gettext("打印于"), printed),
    )
    for label, value in about:
        if value:
            ws.append([label, safe(ws, value)])


def write_standings(out, event, sheets, scope="", note=""):
    """`sheets`: [(sheet title, [standings row dicts])]; the first is the current standings.
    `note`: what the standings leave out (the officials' version names unfinished matches)."""
    wb = Workbook(write_only=True)
    describe(wb, event, gettext("排名"), scope)
    columns = INDIVIDUAL_COLUMNS if event.kind == Kind.INDIVIDUAL else STANDINGS_COLUMNS
    if any("table_points" in row for _title, rows in sheets for row in rows):
        columns = TABLE_POINTS_COLUMNS
    columns = game_columns(game_of_event(event), columns)
    for title, rows in sheets:
        ws = wb.create_sheet(title=title[:31])
        widths = [
            width or min(60, max([display_width(label)] + [display_width(row[key]) for row in rows]) + 2)
            for key, label, width in columns
        ]
        prepare_sheet(ws, [c[1] for c in columns], widths, len(rows))
        ws.append(header_cells(ws, [label for _, label, _ in columns]))
        keys = [key for key, _, _ in columns]
        append = ws.append
        for row in rows:
            # Plain values (openpyxl's fast path); only typed text that looks like a formula gets a text cell.
            append([safe(ws, row[key]) if key in TEXT_KEYS else row[key] for key in keys])
    write_about_sheet(wb, event, scope, note)
    wb.save(out)


def result_titles(by_games):
    """华牌's results workbook's columns, in the request's language; a deal's 局 in games mode only."""
    return (
        [gettext("轮"), gettext("桌"), gettext("副")]
        + ([gettext("局")] if by_games else [])
        + ["NS", "EW"]
        + [seat_word(s) for s in SEATS]
        + [gettext("%(seat)s得分牌") % {"seat": gettext(SEAT_NAMES[s])} for s in SEATS]
        + [gettext("持牌人"), gettext("亮牌"), gettext("罚分"), gettext("调整分"), gettext("调整理由")]
        + [gettext("%(seat)s 原始分") % {"seat": s} for s in SEATS]
        + [gettext("%(seat)s 得分") % {"seat": s} for s in SEATS]
        + [gettext("NS 得分"), gettext("EW 得分"), gettext("状态")]
    )


RESULT_WIDTHS = [5, 5, 5, 5, 8, 8, 10, 10, 10, 10, 24, 24, 24, 24, 18, 18, 12, 16, 20]
RESULT_WIDTHS += [9] * 8 + [10, 10, 8]


def write_results(out, event, tables_with_deals, players, scope=""):
    """One row per deal, streamed.

    `tables_with_deals` yields `(table, deals)` in round and table order:
    table dicts with round, number, ns, ew, seats {seat: player id}; deal
    dicts (board, captured, holders, exposed, penalties, adjusted,
    adjusted_reason, raw, scores, ns, ew, status) in playing order.
    `players`: {player id: name}. Every row gets fresh values: a cell object
    written twice would corrupt the workbook.
    """
    wb = Workbook(write_only=True)
    describe(wb, event, gettext("每副成绩"), scope)
    ws = wb.create_sheet(title=gettext("每副成绩"))
    status_label = {value: str(label) for value, label in Deal.Status.choices}
    game = game_of_event(event)
    if not on_its_grid(game, event_rules(event)):  # a deal entered in fields: in their words
        _write_game_results(ws, game, tables_with_deals, players, status_label, event_rules(event))
        write_about_sheet(wb, event, scope)
        wb.save(out)
        return
    # A deal's 局 only where 局 decide the match (games mode); in boards mode it decides nothing.
    by_games = event.match_mode == MatchMode.GAMES
    titles = result_titles(by_games)
    widths = RESULT_WIDTHS if by_games else RESULT_WIDTHS[:3] + RESULT_WIDTHS[4:]
    prepare_sheet(ws, titles, widths, 0)
    ws.auto_filter.ref = f"A1:{get_column_letter(len(titles))}1"
    ws.append(header_cells(ws, titles))
    append = ws.append
    for table, deals in tables_with_deals:
        game_of = {}
        if by_games:
            games = game.match_units([(d["ns"], d["ew"]) for d in deals], event.game_threshold)
            game_of = {index: unit.number for unit in games for index in unit.deals}
        names = [players.get(table["seats"].get(seat), "") for seat in SEATS]
        ns_code, ew_code = table["ns"] or "", table["ew"] or ""
        for index, deal in enumerate(deals):
            captured = [" ".join(card_label(c) for c in deal["captured"].get(seat, [])) for seat in SEATS]
            penalties = " ".join(f"{s}{p}" for s, p in deal["penalties"].items())
            adjusted = deal["adjusted"]
            adjusted_text = " ".join(f"{s}{adjusted[s]}" for s in SEATS) if adjusted else ""
            append(
                [table["round"], table["number"], deal["board"]]
                + ([game_of.get(index)] if by_games else [])
                + [safe(ws, ns_code), safe(ws, ew_code)]
                + [safe(ws, name) for name in names]
                + captured
                + [holders_text(deal["holders"]), exposed_text(deal["exposed"]), penalties, adjusted_text]
                + [safe(ws, deal["adjusted_reason"] or "")]
                + [deal["raw"][s] for s in SEATS]
                + [deal["scores"][s] for s in SEATS]
                + [deal["ns"], deal["ew"], status_label.get(deal["status"], deal["status"])]
            )
    write_about_sheet(wb, event, scope)
    wb.save(out)


def _write_game_results(ws, game, tables_with_deals, players, status_label, rules):
    """One row per deal of a game whose deal is kept whole (`Deal.game_data`): the seats'
    players, the deal in the game's words, an adjusted score, each seat's score; after a table's
    deals, the chief arbiter's ruling on its match where he made one (升级: the match in words,
    the ruling and its reason), since it, not the deals, decides that match."""
    seats = game.seats
    titles = (
        [gettext("轮"), gettext("桌"), gettext("副")]
        + [seat_word(s) for s in seats]
        + [gettext("牌局"), gettext("调整分"), gettext("调整理由")]
        + [gettext("%(seat)s 得分") % {"seat": s} for s in seats]
        + [gettext("状态")]
    )
    prepare_sheet(ws, titles, [5, 5, 5] + [10] * len(seats) + [60, 18, 20] + [9] * len(seats) + [8], 0)
    ws.auto_filter.ref = f"A1:{get_column_letter(len(titles))}1"
    ws.append(header_cells(ws, titles))
    for table, deals in tables_with_deals:
        names = [players.get(table["seats"].get(seat), "") for seat in seats]
        for deal in deals:
            adjusted = deal["adjusted"]
            ws.append(
                [table["round"], table["number"], deal["board"]]
                + [safe(ws, name) for name in names]
                + [safe(ws, deal_text(game, deal["game_data"] or {}))]
                + [" ".join(f"{s}{adjusted[s]}" for s in seats) if adjusted else ""]
                + [safe(ws, deal["adjusted_reason"] or "")]
                + [deal["scores"][s] for s in seats]
                + [status_label.get(deal["status"], deal["status"])]
            )
        ruling = table.get("match_ruling")
        if ruling:
            words = table_summary(game, rules, [deal["game_data"] or {} for deal in deals], ruling)
            ws.append(
                [table["round"], table["number"], pgettext("results workbook row", "裁定")]
                + [safe(ws, name) for name in names]
                + [safe(ws, message_text(words) if words is not None else ruling["reason"])]
            )
