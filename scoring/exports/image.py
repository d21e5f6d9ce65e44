"""The standings as a long PNG for a chat group: drawn on the server with Pillow and the CJK font,
so it reads the same on every phone whatever fonts the phone has."""

from functools import cache

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from PIL import Image, ImageDraw, ImageFont

from scoring.engine.vocabulary import TIEBREAK_LABELS, Kind, RoundStatus
from scoring.games import game_of
from scoring.messages import standings_labels

# The standings rows' figures a tie-break can name (head_to_head has no figure of its own).
FIGURE_COLUMNS = ("match_points", "score_difference", "total_score", "penalties")

HEAD_TO_HEAD_MARK = "head_to_head_mark"


def head_to_head_mark(explanation):
    """ "2:0" on a row that head-to-head separated from the row above (its 场分 against
    that row's, between the tied entrants), else blank. `explanation`: a standings row's data."""
    if isinstance(explanation, dict) and explanation.get("criterion") == "head_to_head":
        return f"{explanation['this']}:{explanation['above']}"
    return ""


WIDTH = 1080  # what chat apps show full width on a phone without scaling text below legibility
ROW_HEIGHT = 52
MARGIN = 36
INK = (29, 35, 48)
MUTED = (110, 118, 132)
BAND = (243, 245, 248)
HEADER = (29, 35, 48)
ACCENT = (198, 40, 40)


@cache
def font(size):
    path = str(settings.CJK_FONT_PATH)
    return ImageFont.truetype(path, size, index=0) if path.endswith(".ttc") else ImageFont.truetype(path, size)


def _fitted(draw, text, width, face):
    """The text, cut with an ellipsis to fit `width` pixels (a long club name must not run
    into the next column)."""
    text = str(text)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def write_standings_png(out, *, title, subtitle, footer, columns, rows):
    """`columns`: [(heading, key, width in px, "left" | "right")], widths summing to at most
    WIDTH − 2·MARGIN; `rows`: dicts with those keys. Writes a PNG to `out`."""
    top = 150
    height = top + ROW_HEIGHT * (len(rows) + 1) + 90
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 30), _fitted(draw, title, WIDTH - 2 * MARGIN, font(40)), font=font(40), fill=INK)
    draw.text((MARGIN, 90), _fitted(draw, subtitle, WIDTH - 2 * MARGIN, font(24)), font=font(24), fill=MUTED)
    body = font(26)
    draw.rectangle([0, top, WIDTH, top + ROW_HEIGHT], fill=HEADER)
    xs = [MARGIN]
    for column in columns:
        xs.append(xs[-1] + column[2])
    for (heading, _key, width, align), x in zip(columns, xs, strict=False):
        _cell(draw, heading, x, top, width, align, font(24), "white")
    for index, row in enumerate(rows):
        y = top + ROW_HEIGHT * (index + 1)
        if index % 2:
            draw.rectangle([0, y, WIDTH, y + ROW_HEIGHT], fill=BAND)
        for (_heading, key, width, align), x in zip(columns, xs, strict=False):
            colour = ACCENT if key == "rank" and row[key] in (1, 2, 3) else INK
            _cell(draw, row[key], x, y, width, align, body, colour)
    draw.text((MARGIN, height - 60), _fitted(draw, footer, WIDTH - 2 * MARGIN, font(22)), font=font(22), fill=MUTED)
    image.save(out, format="PNG", optimize=True)


def _cell(draw, value, x, y, width, align, face, fill):
    text = _fitted(draw, "" if value is None else value, width - 12, face)
    left = x + 6 if align == "left" else x + width - 6 - draw.textlength(text, font=face)
    draw.text((left, y + ROW_HEIGHT / 2), text, font=face, fill=fill, anchor="lm")


def write_public_standings(out, event, rows, *, counted, total, address):
    """The public standings picture: `rows` (standings row dicts) as shown, `counted` the
    published rounds they count, `total` the number of entrants ranked, `address` the page's."""
    if any(r.status == RoundStatus.PROVISIONAL for r in counted):
        state = _("成绩为临时成绩")
    else:
        state = _("成绩为正式成绩") if counted else _("尚无公布的成绩")
    when = ""
    if event.is_finished:
        when = _("最终成绩")
    elif counted:
        when = _("第 %(n)s 轮后") % {"n": counted[-1].number}
    subtitle = " · ".join(part for part in (_("排名"), when, state, _("共 %(n)s 名") % {"n": total}) if part)
    footer = _("生成于 %(time)s · %(url)s") % {"time": timezone.localtime().strftime("%Y-%m-%d %H:%M"), "url": address}
    if event.kind == Kind.INDIVIDUAL:
        figures = [(_("总得分"), "total_score", 200, "right"), (_("副数"), "deals", 130, "right")]
        if any("table_points" in row for row in rows):  # games law §0: table points, then the total
            figures.insert(0, (_("桌分"), "table_points", 130, "right"))
    else:
        # Every criterion that orders the rows, in the event's order, so a reader sees why tied
        # entrants stand as they do. 相互间场分 is between the tied entrants only: its column shows,
        # on a row it separated from the one above, the two 场分 between them ("2:0").
        own_words = standings_labels(game_of(event))  # 升级: 级差 for 得分差
        figures = [
            (own_words.get(key) or pgettext("tie-break", TIEBREAK_LABELS[key]), key, 132, "right")
            if key in FIGURE_COLUMNS
            else (pgettext("tie-break", TIEBREAK_LABELS[key]), HEAD_TO_HEAD_MARK, 150, "right")
            for key in event.tiebreaks
            if key in FIGURE_COLUMNS or key == "head_to_head"
        ]
        rows = [{**row, HEAD_TO_HEAD_MARK: head_to_head_mark(row.get("explanation"))} for row in rows]
    columns = [(_("名次"), "rank", 80, "right"), (_("编号"), "id", 110, "left")]
    name_width = WIDTH - 2 * MARGIN - sum(width for _h, _k, width, _a in columns + figures)
    columns.append((_("名称"), "name", name_width, "left"))
    write_standings_png(out, title=event.name, subtitle=subtitle, footer=footer, columns=columns + figures, rows=rows)
