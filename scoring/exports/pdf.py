"""Printable PDFs with reportlab: score sheets, round results, standings, board travellers.

The font, styles, page and footer every PDF shares are in `pdf_common`.
"""

import re
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, LongTable, Paragraph, Spacer

from scoring.engine.vocabulary import SEAT_NAMES, SEATS, Kind, MatchMode
from scoring.entry.game_fields import on_its_grid
from scoring.events.rulebook import rules_text
from scoring.exports.pdf_common import (
    PlainCell,
    _document,
    _footer,
    _styles,
    _table_style,
    _text,
    printable,
)
from scoring.games import game_of
from scoring.games.stored import event_rules
from scoring.messages import joined, standings_labels


def _cards(text, style):
    """Card text with ♥ and ♦ cards in red, as on the cards (and on the public pages)."""
    marked = re.sub(r"([♥♦][0-9AKQJ]+[①②]?)", r'<font color="#c62828">\1</font>', escape(printable(text)))
    return Paragraph(marked.replace("\n", "<br/>"), style)


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
    normalised = game.normalises(event_rules(event))
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
