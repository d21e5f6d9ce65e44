"""The score sheet of a round's tables, one writer for every game: a landscape A4 page per table
(more when the match is long), a line per board, a column per thing the referee writes, then the
scores for the check, and the signatures.

What the columns are is the game's entry, laid on its side (`SheetLayout`): 华牌's point cards
(its entry grid: the seat that took each card, holder and exposure of the cards that can be
exposed, each seat's penalty with the minus sign printed, two lines a board with two decks), or
another game's entry fields (a column per field, a count per seat in a column per seat, what the
game keeps beyond them, each seat's score). Everything else — the heading, the seats, the rules,
the QR code to the table's entry, the line-ups of a later 节, the boards already recorded not
played, the signatures of the game's sides — is the same page for every game.

Printed in the language it is downloaded in (the Chinese site's sheet is Chinese)."""

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from scoring.engine.vocabulary import SEAT_NAMES, MatchMode
from scoring.entry import game_fields
from scoring.entry.game_fields import on_its_grid
from scoring.events.rulebook import game_name, rules_text
from scoring.exports.pdf_common import FONT, MINUS, _qr, printable, register_font
from scoring.games import game_of
from scoring.games.huapai import EXPOSABLE, POINT_CARDS, card_label
from scoring.games.seats import in_partnerships
from scoring.games.stored import event_rules

RED = colors.HexColor("#c62828")
GREY = colors.HexColor("#8a93a3")

# What each kind of field asks the person who fills in the sheet.
HINTS = {
    game_fields.SEAT: gettext_noop("写座位"),
    game_fields.SEAT_OR_NONE: gettext_noop("写座位"),
    game_fields.SEATS: gettext_noop("写座位"),
    game_fields.BOOL: gettext_noop("打 √"),
    game_fields.INT: gettext_noop("写数"),
}


@dataclass
class Column:
    label: str
    sub: str
    width: float  # mm before the page's scaling
    red: bool = False  # a red suit's card
    per_board: bool = False  # one value a board, across its lines (two decks)
    minus: bool = False  # the minus sign printed (a penalty: the referee writes what is taken off)
    firm: bool = False  # a firm line on its left: where a group of columns begins


@dataclass
class SheetLayout:
    columns: list[Column]
    instructions: str
    lines_per_board: int = 1  # two with two decks (① ②)
    copy_marks: str = ""  # the marks of the lines of one board ("①②")
    numbered: bool = True  # the board numbers printed (a match of 局 has as many boards as it takes)
    fixed_line: bool = True  # 6.5 mm lines; otherwise as tall as the page allows, up to 9 mm
    heading: str = ""  # the game's name in the heading; empty: the heading names no game


def _scaled_columns(columns, width):
    left = 10 * mm
    scale = (width - 2 * left) / (sum(c.width for c in columns) * mm)
    xs = [left]
    for column in columns:
        xs.append(xs[-1] + column.width * mm * scale)
    return xs


def grid_layout(event, rules, game):
    """The entry grid laid on its side: a column per point card (the referee writes the seat
    that took it), holder and exposure of the cards that can be exposed, penalties per seat, the
    side scores for the check. With two decks each board takes two lines, ① and ②, as the entry
    page's rows do."""
    decks = game.card_copies(rules)
    columns = [Column(_("副"), "", 9, per_board=True)]
    columns += [
        Column(card_label(card), "", 9, red=card[0] in "HD", firm=index == 0) for index, card in enumerate(POINT_CARDS)
    ]
    for index, card in enumerate(EXPOSABLE):
        red = card[0] in "HD"
        columns += [
            Column(card_label(card), _("持牌"), 10, red, firm=index == 0),
            Column(card_label(card), _("亮牌"), 10, red),
        ]
    columns += [
        Column(_("罚分"), seat, 8, per_board=True, minus=True, firm=index == 0) for index, seat in enumerate(game.seats)
    ]
    columns += [Column(side, _("得分"), 14, per_board=True, firm=index == 0) for index, side in enumerate(game.sides)]
    instructions = _(
        "每张得分牌写拿到它的座位 N E S W；持牌写发牌时拿着这张牌的座位；亮牌写 明 或 首明；"
        "罚分是负数：负号已印好，填扣的分数（与录入页相同）"
    ) + (_("；两副牌：每副两行，①② 各一张") if decks == 2 else "")
    return SheetLayout(
        columns,
        instructions,
        lines_per_board=decks,
        copy_marks="①②" if decks == 2 else "",
        numbered=event.match_mode == MatchMode.BOARDS,
    )


def fields_layout(event, rules, game):
    """Another game's entry fields laid on their side: the deal's number, a column per field (a
    count per seat in one column per seat), what the game keeps beyond them, each seat's score."""
    fields = game_fields.game_fields(game, rules)
    columns = [Column(_("副"), "", 9)]
    for spec in fields:
        label = _short(spec.label)  # the short name: 天炸, not 天炸（发到同点 8 张）
        if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
            columns += [Column(label, seat, 11) for seat in game.seats]
        elif spec.kind == game_fields.CHOICE:
            words = [_(spec.words[choice]) if choice in spec.words else str(choice) for choice in spec.choices]
            columns.append(Column(label, " ".join(words), 20))
        else:
            columns.append(Column(label, _hint(spec), 16 if spec.kind == game_fields.SEATS else 13))
    columns[1].firm = True
    # What the game asks the sheet to keep beyond its fields (升级: both sides' levels after each deal).
    columns += [Column(_(heading), sub, width) for heading, sub, width in game.sheet_columns]
    columns += [Column(_("得分"), seat, 14, firm=index == 0) for index, seat in enumerate(game.seats)]
    instructions = (
        _("每副一行：")
        + pgettext("list separator", "；").join(_instruction(spec) for spec in fields)
        + _("。得分由裁判录入后核对。")
    )
    note = game.sheet_note
    instructions += _(note) if note else ""
    return SheetLayout(columns, instructions, fixed_line=False, heading=game_name(game))


def _short(label):
    """A field's short name: 天炸, not 天炸（发到同点 8 张）; "Winner", not "Winner (…)" in English."""
    return label.split("（")[0].split(" (")[0]


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


def _seat_title(seat):
    return f"{_(SEAT_NAMES[seat])} {seat}"


def _lineup_line(lineup, seats):
    """ "第 2 节（第 9–16 副）交换坐向：N 张三（A01-1）坐东 …" — who sits where from a later 节."""
    first, last = lineup["boards"]
    swapped = "交换坐向，仍按抽签座位记分" if lineup["swapped"] else ""
    sitting = "  ".join(
        f"{seat} {lineup['seats'][seat]}" + (f"坐{SEAT_NAMES[lineup['chairs'][seat]]}" if lineup["swapped"] else "")
        for seat in seats
    )
    return f"第 {lineup['session']} 节（第 {first}–{last} 副）{swapped}：{sitting}"


def _signers(game):
    """Who signs the sheet: each side (南北方, 东西方) where the game plays in partnerships, each
    player by seat where everyone plays alone; then the referee."""
    colon = pgettext("label and value", "：")
    if in_partnerships(game):
        return [_("南北方签名") + colon, _("东西方签名") + colon, _("裁判签名") + colon]
    return [_("%(who)s 签名：") % {"who": _seat_title(seat)} for seat in game.seats] + [_("裁判签名") + colon]


def write_scoresheets(out, event, rnd, sheets):
    """The round's score sheets: `sheets` as `sources.scoresheet_data` gives them (the table
    number, the sides' and seats' names, the line-ups of a later 节, the boards recorded not
    played so far, the QR code's address and caption)."""
    game, rules = game_of(event), event_rules(event)
    layout = grid_layout(event, rules, game) if on_its_grid(game, rules) else fields_layout(event, rules, game)
    boards = event.match_length if layout.numbered else 24  # a match of 局: lines enough for most
    register_font()
    pdf = canvas.Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=9)
    pdf.setTitle(_("%(event)s 第%(n)s轮 记分表") % {"event": event.name, "n": rnd.number})
    pdf.setAuthor(_("华牌赛事计分"))
    width, height = landscape(A4)
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    xs, left = _scaled_columns(layout.columns, width), 10 * mm
    lines = layout.lines_per_board
    header_height = 9.5 * mm
    # Room above the grid for what changes in a later 节 (substitutes, swapped directions).
    lineup_rows = min(3, max((len(sheet.get("lineups", [])) for sheet in sheets), default=0))
    lineup_step = 3.2 * mm
    grid_top = height - 44 * mm - lineup_rows * lineup_step
    # Lines at least 6.5 mm high, so a seat letter fits by hand; a long match continues overleaf.
    room = grid_top - header_height - 22 * mm
    line_height = 6.5 * mm if layout.fixed_line else max(6.5 * mm, min(9 * mm, room / max(boards * lines, 1)))
    boards_per_page = max(1, int(room / (line_height * lines)))
    rules_line = printable(rules_text(event))
    signers = _signers(game)
    for sheet in sheets:
        starts = list(range(1, boards + 1, boards_per_page))
        for page_index, first in enumerate(starts):
            last = min(boards, first + boards_per_page - 1)
            top = height - 12 * mm
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 13)
            pdf.drawString(left, top, printable(event.name))
            pdf.setFont(FONT, 11)
            more = (
                _("（%(page)s/%(pages)s）") % {"page": page_index + 1, "pages": len(starts)} if len(starts) > 1 else ""
            )
            if layout.heading:
                heading = _("第 %(round)s 轮 · %(table)s 号桌 · %(game)s 记分表") % {
                    "round": rnd.number,
                    "table": sheet["table"],
                    "game": layout.heading,
                }
            else:
                heading = _("第 %(round)s 轮 · %(table)s 号桌 · 记分表") % {
                    "round": rnd.number,
                    "table": sheet["table"],
                }
            pdf.drawString(left, top - 6 * mm, heading + more)
            pdf.setFont(FONT, 9)
            if sheet.get("ns"):
                pdf.drawString(left, top - 12 * mm, printable(_("南北 NS：%(side)s") % {"side": sheet["ns"]}))
                pdf.drawString(left, top - 17 * mm, printable(_("东西 EW：%(side)s") % {"side": sheet["ew"]}))
            seat_line = "    ".join(f"{_seat_title(seat)} {sheet['seats'].get(seat, '')}" for seat in game.seats)
            pdf.drawString(left, top - 22 * mm, printable(seat_line))
            pdf.setFont(FONT, 7)
            pdf.drawString(left, top - 26.5 * mm, rules_line)
            pdf.drawString(left, top - 30 * mm, layout.instructions)
            lineup_lines = [_lineup_line(lineup, game.seats) for lineup in sheet.get("lineups", [])]
            for index, line in enumerate(lineup_lines[:lineup_rows]):  # a later 节, above the grid
                pdf.drawString(left, top - 33 * mm - index * lineup_step, printable(line))
            qr_size = 26 * mm
            _qr(pdf, sheet["url"], width - left - qr_size, top - 27 * mm, qr_size)
            pdf.setFont(FONT, 6)
            caption = _(sheet.get("qr_caption", gettext_noop("扫码录入本桌")))  # marked in `sources.QR_CAPTIONS`
            pdf.drawCentredString(width - left - qr_size / 2, top - 29 * mm, caption)
            pdf.setFont(FONT, 5)
            pdf.drawRightString(width - left, top - 31.5 * mm, sheet["url"])  # for those who cannot scan
            _grid(pdf, layout, xs, grid_top, header_height, line_height, first, last)
            # Boards recorded not played when the sheet is printed: the rule across the columns.
            for board, words in sorted(sheet.get("not_played", {}).items()):
                if first <= board <= last:
                    y = grid_top - header_height - (board - first) * lines * line_height
                    pdf.setFont(FONT, 8)
                    pdf.drawString(xs[1] + 2 * mm, y - lines * line_height / 2 - 1 * mm, printable(words))
            bottom = grid_top - header_height - line_height * lines * (last - first + 1)
            if page_index == len(starts) - 1:
                sign_y = max(bottom - 10 * mm, 14 * mm)
                pdf.setFont(FONT, 9)
                step = (width - 2 * left) / len(signers)
                for index, label in enumerate(signers):
                    x = left + index * step
                    pdf.drawString(x, sign_y, label)
                    pdf.line(x + 24 * mm, sign_y - 1 * mm, x + step - 4 * mm, sign_y - 1 * mm)
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


def _grid(pdf, layout, xs, grid_top, header_height, line_height, first, last):
    columns, per = layout.columns, layout.lines_per_board
    right = xs[-1]
    lines = (last - first + 1) * per
    bottom = grid_top - header_height - lines * line_height
    pdf.setFillColor(colors.HexColor("#eef1f5"))
    pdf.rect(xs[0], grid_top - header_height, right - xs[0], header_height, fill=1, stroke=0)
    for column, x0, x1 in zip(columns, xs, xs[1:], strict=False):
        pdf.setFillColor(RED if column.red else colors.black)
        pdf.setFont(FONT, 8)
        middle = (x0 + x1) / 2
        pdf.drawCentredString(middle, grid_top - (4 if column.sub else 5.5) * mm, column.label)
        if column.sub:
            pdf.setFont(FONT, 6)
            pdf.setFillColor(colors.black)
            pdf.drawCentredString(middle, grid_top - 7.5 * mm, column.sub)
    pdf.setFillColor(colors.black)
    pdf.setStrokeColor(colors.black)
    # A thin line between the lines of one board, a firm one between boards.
    for line in range(lines + 1):
        y = grid_top - header_height - line * line_height
        pdf.setLineWidth(0.8 if line % per == 0 else 0.25)
        pdf.line(xs[0], y, right, y)
    pdf.setLineWidth(0.8)
    pdf.line(xs[0], grid_top, right, grid_top)
    for index, x in enumerate(xs):
        firm = index in (0, len(xs) - 1) or (index < len(columns) and columns[index].firm)
        pdf.setLineWidth(0.8 if firm else 0.3)
        pdf.line(x, grid_top, x, bottom)
    if per > 1:
        # A value a board (its number, penalties, scores) spans the board's lines: cover the thin line.
        pdf.setFillColor(colors.white)
        for board_index in range(last - first + 1):
            for line in range(1, per):
                y = grid_top - header_height - (board_index * per + line) * line_height
                for index, column in enumerate(columns):
                    if column.per_board:
                        pdf.rect(xs[index] + 0.4, y - 0.3, xs[index + 1] - xs[index] - 0.8, 0.6, fill=1, stroke=0)
        pdf.setFillColor(colors.black)
    pdf.setFont(FONT, 8)
    for board_index, board in enumerate(range(first, last + 1)):
        y = grid_top - header_height - board_index * per * line_height
        middle = y - per * line_height / 2 - 1 * mm
        for index, column in enumerate(columns):
            if column.minus:  # the minus sign printed, as on the entry page
                pdf.drawString(xs[index] + 0.8 * mm, middle, MINUS)
        if layout.numbered:
            pdf.drawCentredString((xs[0] + xs[1]) / 2, middle, str(board))
        if layout.copy_marks:
            pdf.setFont(FONT, 5)
            pdf.setFillColor(GREY)
            for copy, mark in enumerate(layout.copy_marks):
                pdf.drawString(xs[1] + 0.6 * mm, y - copy * line_height - 2.2 * mm, mark)
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 8)
