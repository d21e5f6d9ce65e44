"""Printable PDFs with reportlab: score sheets, round results, standings, board travellers.

The font, styles, page and footer every PDF shares are in `pdf_common`.
"""

import re
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from reportlab.platypus import KeepTogether, LongTable, Paragraph, Spacer

from scoring.engine.vocabulary import SEAT_NAMES, SEATS, Kind, MatchMode
from scoring.entry.game_fields import on_its_grid
from scoring.events.rulebook import rules_text
from scoring.exports.pdf_common import (
    FONT,
    MINUS,
    PlainCell,
    _document,
    _footer,
    _qr,
    _styles,
    _table_style,
    _text,
    printable,
    register_font,
)
from scoring.games import game_of
from scoring.games.huapai import EXPOSABLE, POINT_CARDS, card_label
from scoring.games.stored import event_rules
from scoring.messages import joined, standings_labels


def _cards(text, style):
    """Card text with ♥ and ♦ cards in red, as on the cards (and on the public pages)."""
    marked = re.sub(r"([♥♦][0-9AKQJ]+[①②]?)", r'<font color="#c62828">\1</font>', escape(printable(text)))
    return Paragraph(marked.replace("\n", "<br/>"), style)


def _lineup_line(lineup):
    """ "第 2 节（第 9–16 副）交换坐向：N 张三（A01-1）坐东 …" — who sits where from a later 节."""
    first, last = lineup["boards"]
    swapped = "交换坐向，仍按抽签座位记分" if lineup["swapped"] else ""
    seats = "  ".join(
        f"{seat} {lineup['seats'][seat]}" + (f"坐{SEAT_NAMES[lineup['chairs'][seat]]}" if lineup["swapped"] else "")
        for seat in SEATS
    )
    return f"第 {lineup['session']} 节（第 {first}–{last} 副）{swapped}：{seats}"


def _build(doc, story, footer):
    doc.build(story, onFirstPage=footer, onLaterPages=footer)


def write_standings(out, event, rows, *, subtitle):
    styles = _styles()
    individual = event.kind == Kind.INDIVIDUAL
    by_points = any("table_points" in row for row in rows)  # games law §0: table points, then the total
    labels = standings_labels(game_of(event))  # 升级: 级差, 终局级数 (in the request's language)
    total, difference = labels.get("total_score", _("总得分")), labels.get("score_difference", _("得分差"))
    header = (
        [_("名次"), _("编号"), _("选手"), _("单位")]
        + ([_("桌分")] if by_points else [])
        + ([total, _("副数")] if individual else [_("场分"), difference, total, _("罚分"), _("场次")])
        + [_("与上一名")]
    )
    body = [header]
    for row in rows:
        figures = (
            [row["total_score"], row["deals"]]
            if individual
            else [row["match_points"], row["score_difference"], row["total_score"], row["penalties"], row["played"]]
        )
        if by_points:
            figures.insert(0, row["table_points"])
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
    doc = _document(out, f"{event.name} {_('排名')}", wide=True)
    table = LongTable(
        body, repeatRows=1, colWidths=[12 * mm, 16 * mm, 55 * mm, 35 * mm] + [18 * mm] * (len(header) - 5) + [60 * mm]
    )
    table.setStyle(_table_style())
    where_and_when = " · ".join(part for part in (event.venue, event_dates(event)) if part)
    story = [
        _text(f"{event.name} · {_('最终排名') if event.is_finished else _('排名')}", styles["title"]),
        *([_text(where_and_when, styles["small"])] if where_and_when else []),
        _text(subtitle, styles["small"]),
        Spacer(1, 4 * mm),
        table,
        Spacer(1, 10 * mm),
        # The paper a federation files is signed by the chief arbiter.
        _text(
            _("裁判长：%(arbiter)s　　签名：＿＿＿＿＿＿＿＿　　日期：＿＿＿＿＿＿")
            % {"arbiter": event.chief_arbiter or _("＿＿＿＿＿＿")},  # a blank to write the name on
            styles["body"],
        ),
    ]
    _build(doc, story, _footer(event.name))


def event_dates(event):
    """2026-05-01 – 2026-05-03, one date when the event is one day, or nothing."""
    dates = [d.isoformat() for d in (event.start_date, event.end_date) if d]
    if len(dates) == 2 and dates[0] == dates[1]:
        dates = dates[:1]
    return " – ".join(dates)


def write_round_results(out, event, rnd, results):
    styles = _styles()
    if any(row["seats"] for row in results["tables"]):
        # Players who each play alone (跑胡子, 斗地主) have no sides to total: a side "NS" would pair
        # an empty North with South. Each seat's player and total instead, as on the round's page.
        _write_alone_round_results(out, event, rnd, results, styles)
        return
    # 局 running totals decide a match only in a games-scored event: elsewhere no 局 column,
    # as on the round's page (a boards event's paper would show totals that decide nothing).
    by_games = event.match_mode == MatchMode.GAMES
    # A match that carries a state (升级): its levels and result in words, a chief arbiter's
    # ruling with its reason included, as the round's page prints them.
    by_words = any(row.get("match_words") for row in results["tables"])
    body = [
        [_("桌"), "NS", "EW", _("NS 得分"), _("EW 得分"), _("场分"), _("副数")]
        + ([_("局")] if by_games else [])
        + ([pgettext("singular", "比赛")] if by_words else [])
    ]
    for row in results["tables"]:
        table = row["table"]
        ns, ew = row["ns_label"], row["ew_label"]
        points = f"{row['ns_points']}:{row['ew_points']}" if row["ns_points"] is not None else ""
        cells = [
            table.number,
            _text(ns, styles["cell"]),
            _text(ew, styles["cell"]),
            row["ns_total"],
            row["ew_total"],
            points,
            row["deals"],
        ]
        if by_games:
            games = " ".join(f"{g.ns}/{g.ew}{'' if g.finished else '…'}" for g in row["games"])
            cells.append(_text(games, styles["cell"]))
        if by_words:
            cells.append(_text(row.get("match_words") or "", styles["cell"]))
        body.append(cells)
    doc = _document(out, _round_title(event, rnd), wide=True)
    # Without the 局 column its 60 mm go to the two sides' names.
    names = 60 * mm if by_games or by_words else 90 * mm
    widths = [12 * mm, names, names, 22 * mm, 22 * mm, 16 * mm, 14 * mm] + ([60 * mm] if by_games or by_words else [])
    table = LongTable(body, repeatRows=1, colWidths=widths)
    table.setStyle(_table_style())
    story = [
        _text(_round_title(event, rnd, status=True), styles["title"]),
        Spacer(1, 4 * mm),
        table,
    ]
    _build(doc, story, _footer(event.name))


def _round_title(event, rnd, status=False):
    """ "赛事 · 第1轮成绩（临时成绩）", in the language of the request the file is made for."""
    if status:
        return _("%(event)s · 第%(n)s轮成绩（%(status)s）") % {
            "event": event.name,
            "n": rnd.number,
            "status": rnd.get_status_display(),
        }
    return _("%(event)s 第%(n)s轮成绩") % {"event": event.name, "n": rnd.number}


def _travellers_title(event, rnd, status=False):
    if status:
        return _("%(event)s · 第%(n)s轮 牌例对照（%(status)s）") % {
            "event": event.name,
            "n": rnd.number,
            "status": rnd.get_status_display(),
        }
    return _("%(event)s 第%(n)s轮 牌例对照") % {"event": event.name, "n": rnd.number}


def _seat_title(seat):
    return f"{_(SEAT_NAMES[seat])} {seat}"


def _write_alone_round_results(out, event, rnd, results, styles):
    """A round of a game whose every seat is its own side: a column per seat of the game (its
    player and match total) and, where the standings count table points, each seat's points."""
    seats = [s["seat"] for s in next(row["seats"] for row in results["tables"] if row["seats"])]
    by_points = any(s["points"] is not None for row in results["tables"] for s in row["seats"] or ())
    titles = [
        [_seat_title(s), _("%(seat)s 得分") % {"seat": s}, *([_("%(seat)s 桌分") % {"seat": s}] if by_points else [])]
        for s in seats
    ]
    body = [[_("桌"), *(title for seat in titles for title in seat), _("副数")]]
    for row in results["tables"]:
        cells = [row["table"].number]
        for seat in row["seats"]:
            player = seat["player"]
            cells += [_text(f"{player.code} {player.name}" if player else "", styles["cell"]), seat["total"]]
            if by_points:
                cells.append("" if seat["points"] is None else seat["points"])
        body.append([*cells, row["deals"]])
    figures = 2 if by_points else 1
    name_width = (253 * mm - 14 * mm - 16 * mm * figures * len(seats)) / len(seats)
    widths = [10 * mm] + [name_width, *[16 * mm] * figures] * len(seats) + [14 * mm]
    table = LongTable(body, repeatRows=1, colWidths=widths)
    table.setStyle(_table_style())
    story = [
        _text(_round_title(event, rnd, status=True), styles["title"]),
        Spacer(1, 4 * mm),
        table,
    ]
    if results["byes"]:
        byes = "、".join(f"{bye.code} {bye.name}".strip() for bye in results["byes"])
        story += [Spacer(1, 3 * mm), _text(_("轮空：") + byes, styles["body"])]
    doc = _document(out, _round_title(event, rnd), wide=True)
    _build(doc, story, _footer(event.name))


def write_travellers(out, event, rnd, boards):
    """`boards`: [(board number, traveller rows)] — one section per board."""
    styles = _styles()
    game = game_of(event)
    if not on_its_grid(game, event_rules(event)):  # a deal entered in fields: its seats and its words
        _write_game_travellers(out, event, rnd, boards, game, styles)
        return
    normalised = getattr(event_rules(event), "normalises", False)
    story = [
        _text(_travellers_title(event, rnd, status=True), styles["title"]),
        _text(rules_text(event), styles["small"]),
    ]
    if normalised:
        story.append(_text(_("各座位：得分（括号内为原始分，归一化之前、不含罚分）"), styles["small"]))
    for board, rows in boards:
        body = [[_("桌"), _("选手"), *(_seat_title(s) for s in SEATS), _("亮牌/罚分"), *SEATS, "NS", "EW"]]
        for row in rows:
            table = row["table"]
            pair = f"NS {joined((table.north.name, table.south.name))}\nEW {joined((table.east.name, table.west.name))}"
            notes = " ".join(
                [f"{c}{word}" for c, word in row["exposed"].items()]
                + [_("罚%(seat)s%(points)s") % {"seat": s, "points": p} for s, p in row["penalties"].items()]
                + ([_("调整分")] if row["adjusted"] else [])
                + ([str(row["not_played"])] if row.get("not_played") else [])  # 未打：and the rule
            )
            body.append(
                # Plain cells, not Paragraphs: six a row, thousands a round (`PlainCell` says why).
                [table.number, PlainCell(pair)]
                + [PlainCell(row["captured"].get(s, ""), red_cards=True) for s in SEATS]
                + [PlainCell(notes, red_cards=True)]
                + [f"{row['scores'][s]}\n({row['raw'][s]})" if normalised else row["scores"][s] for s in SEATS]
                + [row["ns"], row["ew"]]
            )
        table = LongTable(body, repeatRows=1, colWidths=[9 * mm, 34 * mm] + [32 * mm] * 4 + [28 * mm] + [13 * mm] * 6)
        table.setStyle(_table_style())
        # A board is kept whole on one page when it fits (a board split across pages is
        # misread at the check); a board longer than a page still breaks, its header repeated.
        story += [Spacer(1, 4 * mm), KeepTogether([_text(_("第 %(n)s 副") % {"n": board}, styles["title"]), table])]
    doc = _document(out, _travellers_title(event, rnd), wide=True)
    _build(doc, story, _footer(event.name))


def _write_game_travellers(out, event, rnd, boards, game, styles):
    """The travellers of a game whose deal is its entry fields (蚌埠斗地主, 跑胡子): per board, a
    line per table with the game's seats and their players, the deal in its fields' words and
    each seat's score."""
    seats = game.seats
    story = [
        _text(_travellers_title(event, rnd, status=True), styles["title"]),
        _text(rules_text(event), styles["small"]),
    ]
    for board, rows in boards:
        body = [[_("桌"), _("选手"), _("牌局")] + [_seat_title(s) for s in seats]]
        for row in rows:
            players = row["table"].seat_players()
            names = "\n".join(f"{s} {players[s].name}" for s in seats if players.get(s) is not None)
            colon = pgettext("label and value", "：")
            words = " · ".join(f"{label}{colon}{value}" for label, value in row["words"])
            if row["adjusted"]:
                words = f"{words} · {_('调整分')} {row['adjusted_reason'] or ''}".strip(" ·")
            if row.get("not_played"):
                words = str(row["not_played"])
            body.append(
                [row["table"].number, _text(names, styles["cell"]), _text(words, styles["cell"])]
                + [row["scores"].get(s, 0) for s in seats]
            )
        score_width = 18 * mm
        words_width = 277 * mm - 9 * mm - 40 * mm - score_width * len(seats)
        table = LongTable(body, repeatRows=1, colWidths=[9 * mm, 40 * mm, words_width] + [score_width] * len(seats))
        table.setStyle(_table_style())
        story += [Spacer(1, 4 * mm), KeepTogether([_text(_("第 %(n)s 副") % {"n": board}, styles["title"]), table])]
    doc = _document(out, _travellers_title(event, rnd), wide=True)
    _build(doc, story, _footer(event.name))


RED = colors.HexColor("#c62828")


def _scoresheet_columns(decks):
    """The score sheet's columns, in mm before scaling: the entry grid laid on its side.

    One column per point card (the referee writes the seat that took it), then holder and
    exposure of ♠Q ♦J ♣10 ♥A, penalties per seat, and the side scores for the check.
    With two decks each board takes two lines, ① and ②, as the entry page's rows do.
    """
    columns = [(_("副"), "", 9, False)]
    columns += [(card_label(card), "", 9, card[0] in "HD") for card in POINT_CARDS]
    for card in EXPOSABLE:
        red = card[0] in "HD"
        columns += [(card_label(card), _("持牌"), 10, red), (card_label(card), _("亮牌"), 10, red)]
    columns += [(_("罚分"), seat, 8, False) for seat in SEATS]
    columns += [("NS", _("得分"), 14, False), ("EW", _("得分"), 14, False)]
    return columns


def write_scoresheets(out, event, rnd, sheets):
    """One landscape A4 page per table (more when the match is long), mirroring the entry page:
    a line per board (two with two decks), a column per point card. `sheets`: dicts with the
    table number, the pairs' and seats' names, the line-ups and the entry address for the QR code."""
    register_font()
    pdf = canvas.Canvas(out, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=9)
    pdf.setTitle(_("%(event)s 第%(n)s轮 记分表") % {"event": event.name, "n": rnd.number})
    pdf.setAuthor(_("华牌赛事计分"))
    width, height = landscape(A4)
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    rules = event_rules(event)
    decks = getattr(rules, "decks", 1)
    fixed_boards = event.match_mode == MatchMode.BOARDS
    boards = event.match_length if fixed_boards else 24
    columns = _scoresheet_columns(decks)
    left = 10 * mm
    scale = (width - 2 * left) / (sum(c[2] for c in columns) * mm)
    xs = [left]
    for column in columns:
        xs.append(xs[-1] + column[2] * mm * scale)
    header_height = 9 * mm
    # Room above the grid for what changes in a later 节 (substitutes, swapped directions).
    lineup_rows = min(3, max((len(sheet.get("lineups", [])) for sheet in sheets), default=0))
    lineup_step = 3.2 * mm
    grid_top = height - 44 * mm - lineup_rows * lineup_step
    # Lines at least 6.5 mm high, so a seat letter fits by hand; a long match continues overleaf.
    line_height = 6.5 * mm
    boards_per_page = max(1, int((grid_top - header_height - 22 * mm) / (line_height * decks)))
    rules_line = rules_text(event)
    instructions = _(
        "每张得分牌写拿到它的座位 N E S W；持牌写发牌时拿着这张牌的座位；亮牌写 明 或 首明；"
        "罚分是负数：负号已印好，填扣的分数（与录入页相同）"
    ) + (_("；两副牌：每副两行，①② 各一张") if decks == 2 else "")
    for sheet in sheets:
        starts = list(range(1, boards + 1, boards_per_page))
        for page_index, first in enumerate(starts):
            last = min(boards, first + boards_per_page - 1)
            top = height - 12 * mm
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 13)
            pdf.drawString(left, top, event.name)
            pdf.setFont(FONT, 11)
            more = (
                _("（%(page)s/%(pages)s）") % {"page": page_index + 1, "pages": len(starts)} if len(starts) > 1 else ""
            )
            heading = _("第 %(round)s 轮 · %(table)s 号桌 · 记分表") % {"round": rnd.number, "table": sheet["table"]}
            pdf.drawString(left, top - 6 * mm, heading + more)
            pdf.setFont(FONT, 9)
            if sheet.get("ns"):
                pdf.drawString(left, top - 12 * mm, _("南北 NS：%(side)s") % {"side": sheet["ns"]})
                pdf.drawString(left, top - 17 * mm, _("东西 EW：%(side)s") % {"side": sheet["ew"]})
            seat_line = "    ".join(f"{_seat_title(seat)} {sheet['seats'].get(seat, '')}" for seat in SEATS)
            pdf.drawString(left, top - 22 * mm, seat_line)
            pdf.setFont(FONT, 7)
            pdf.drawString(left, top - 26.5 * mm, rules_line)
            pdf.drawString(left, top - 30 * mm, instructions)
            lineup_lines = [_lineup_line(lineup) for lineup in sheet.get("lineups", [])]
            if lineup_lines:  # substitutions or swapped directions in a later 节, above the grid
                pdf.setFont(FONT, 7)
                for index, line in enumerate(lineup_lines[:lineup_rows]):
                    pdf.drawString(left, top - 33 * mm - index * lineup_step, line)
            qr_size = 26 * mm
            _qr(pdf, sheet["url"], width - left - qr_size, top - 27 * mm, qr_size)
            pdf.setFont(FONT, 6)
            caption = _(sheet.get("qr_caption", "扫码录入本桌"))  # marked in `sources.QR_CAPTIONS`
            pdf.drawCentredString(width - left - qr_size / 2, top - 29 * mm, caption)
            pdf.setFont(FONT, 5)
            pdf.drawRightString(width - left, top - 31.5 * mm, sheet["url"])  # for those who cannot scan
            _scoresheet_grid(pdf, columns, xs, grid_top, header_height, line_height, decks, first, last, fixed_boards)
            # Boards recorded not played when the sheet is printed: the rule across the card columns.
            for board, words in sorted(sheet.get("not_played", {}).items()):
                if first <= board <= last:
                    y = grid_top - header_height - (board - first) * decks * line_height
                    pdf.setFont(FONT, 8)
                    pdf.drawString(xs[1] + 2 * mm, y - decks * line_height / 2 - 1 * mm, words)
            bottom = grid_top - header_height - line_height * decks * (last - first + 1)
            if page_index == len(starts) - 1:
                sign_y = max(bottom - 10 * mm, 14 * mm)
                pdf.setFont(FONT, 9)
                for index, label in enumerate([_("南北方签名"), _("东西方签名"), _("裁判签名")]):
                    x = left + index * 90 * mm
                    pdf.drawString(x, sign_y, label + pgettext("label and value", "："))
                    pdf.line(x + 20 * mm, sign_y - 1 * mm, x + 80 * mm, sign_y - 1 * mm)
            pdf.setFont(FONT, 7)
            footer = _("%(event)s · 第%(round)s轮 · %(table)s号桌 · 打印于 %(at)s") % {
                "event": event.name,
                "round": rnd.number,
                "table": sheet["table"],
                "at": printed,
            }
            pdf.drawString(left, 6 * mm, footer)
            pdf.showPage()
    pdf.save()


def _scoresheet_grid(pdf, columns, xs, grid_top, header_height, line_height, decks, first, last, numbered):
    right = xs[-1]
    lines = (last - first + 1) * decks
    bottom = grid_top - header_height - lines * line_height
    pdf.setFillColor(colors.HexColor("#eef1f5"))
    pdf.rect(xs[0], grid_top - header_height, right - xs[0], header_height, fill=1, stroke=0)
    for (label, sub, _width, red), x0, x1 in zip(columns, xs, xs[1:], strict=False):
        pdf.setFillColor(RED if red else colors.black)
        pdf.setFont(FONT, 8)
        middle = (x0 + x1) / 2
        pdf.drawCentredString(middle, grid_top - (4 if sub else 5.5) * mm, label)
        if sub:
            pdf.setFont(FONT, 6)
            pdf.setFillColor(colors.black)
            pdf.drawCentredString(middle, grid_top - 7.5 * mm, sub)
    pdf.setFillColor(colors.black)
    pdf.setStrokeColor(colors.black)
    # A thin line between the copies of a board, a firm one between boards.
    for line in range(lines + 1):
        y = grid_top - header_height - line * line_height
        pdf.setLineWidth(0.8 if line % decks == 0 else 0.25)
        pdf.line(xs[0], y, right, y)
    pdf.setLineWidth(0.8)
    pdf.line(xs[0], grid_top, right, grid_top)
    # The columns that hold one value per board (board, penalties, scores) span both copies.
    per_board = {0} | set(range(len(columns) - 6, len(columns)))
    for index, x in enumerate(xs):
        pdf.setLineWidth(0.8 if index in (0, 1, 17, 25, len(xs) - 7, len(xs) - 3, len(xs) - 1) else 0.3)
        pdf.line(x, grid_top, x, bottom)
    if decks == 2:
        # Cover the thin line inside per-board cells.
        pdf.setFillColor(colors.white)
        for board_index in range(last - first + 1):
            y = grid_top - header_height - (board_index * 2 + 1) * line_height
            for column in per_board:
                pdf.rect(xs[column] + 0.4, y - 0.3, xs[column + 1] - xs[column] - 0.8, 0.6, fill=1, stroke=0)
        pdf.setFillColor(colors.black)
    pdf.setFont(FONT, 8)
    penalty_columns = range(len(columns) - 6, len(columns) - 2)
    for board_index, board in enumerate(range(first, last + 1)):
        y = grid_top - header_height - board_index * decks * line_height
        for column in penalty_columns:  # the minus sign printed, as on the entry page
            pdf.drawString(xs[column] + 0.8 * mm, y - decks * line_height / 2 - 1 * mm, MINUS)
        if numbered:
            pdf.drawCentredString((xs[0] + xs[1]) / 2, y - decks * line_height / 2 - 1 * mm, str(board))
        if decks == 2:
            pdf.setFont(FONT, 5)
            pdf.setFillColor(colors.HexColor("#8a93a3"))
            for copy, mark in enumerate("①②"):
                pdf.drawString(xs[1] + 0.6 * mm, y - copy * line_height - 2.2 * mm, mark)
            pdf.setFillColor(colors.black)
            pdf.setFont(FONT, 8)
