import re

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoring.engine.not_played import mark_words
from scoring.engine.vocabulary import SEAT_NAMES
from scoring.messages import joined, message_text, name_with_pinyin, term_text
from scoring.web.catalog import catalogue_url

register = template.Library()


@register.simple_tag
def javascript_catalog_url():
    """The address of the scripts' texts in the page's language (scoring/web/catalog.py)."""
    return catalogue_url()


@register.filter
def get_seat(mapping, seat):
    """`scores|get_seat:"N"`: a dict look-up the template language lacks."""
    return (mapping or {}).get(seat, "")


@register.filter
def seat_name(seat):
    """`seat|seat_name`: 北 for "N", North in English."""
    return gettext(SEAT_NAMES[seat]) if seat in SEAT_NAMES else seat


@register.filter
def history_reason(reason):
    """A change's reason as stored: a referee's own words, or a reason the system wrote in
    Chinese (`scoring.entry.blind.BLIND_AGREEMENT`), which reads in the page's language."""
    return gettext(reason) if reason else reason


@register.filter
def clock_time(seconds):
    """Seconds as a clock shows them: "45:07", or "1:05:07" from an hour on (never negative)."""
    seconds = max(0, int(seconds or 0))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@register.filter
def message(value):
    """A domain message (`scoring.games.refusals.Text` or a refusal) in the page's language."""
    return message_text(value) if hasattr(value, "template") else value


@register.filter
def suits(text):
    """Cards as text with ♥ and ♦ in red (their own colour on the paper and the cards)."""
    escaped = conditional_escape(text)  # escaped first: only the spans added here are markup
    return mark_safe(re.sub(r"([♥♦](?:10|[AKQJ2-9]))", r'<span class="red">\1</span>', escaped))


@register.filter
def terms(text):
    """The engine's words (a score breakdown, 明/首明) in the page's language."""
    return term_text(text)


@register.filter
def join_names(names):
    """People's names in a list, with the page language's separator (and pinyin in English)."""
    return joined(name_with_pinyin(name) for name in names or ())


@register.filter
def with_pinyin(name, sort_key=None):
    """One person's name, followed by its pinyin in a language other than Chinese."""
    return name_with_pinyin(name, sort_key or None)


@register.filter
def join_list(words):
    """Words (clubs, codes) in a list, with the page language's separator."""
    return joined(words or ())


# One row of an entrant's deal table: the board (linked to its traveller), 局, the four seats,
# both sides, the exposures and the remarks (penalties, an adjustment's reason).
DEAL_ROW = (
    '<tr><td class="num"><a href="{url}boards/{board}/">{board}</a></td>'
    '<td class="num">{game}</td>\n<td class="num">{n}</td>'
    '<td class="num">{e}</td><td class="num">{s}</td>'
    '<td class="num">{w}</td>\n'
    '<td class="num">{ns}</td><td class="num">{ew}</td>\n'
    '<td class="hide-phone">{exposed}</td>\n<td>{remarks}</td></tr>'
)


@register.simple_tag
def deal_rows(deals, round_url):
    """The rows of a table's deals on an entrant's page (`scoring.results.records.deal_row`), each
    board linked to its traveller under `round_url`.

    A tag rather than template markup: nine rounds of 16 boards made 2,600 template nodes,
    two thirds of the page's first render. `format_html` escapes every text (an official's
    reason, a seat, a word) and leaves the numbers and `suits`' spans as they are."""
    penalty_word, adjusted_word = gettext("罚分"), gettext("调整分：")
    rows = []
    for deal in deals:
        scores = deal["scores"]
        exposed = format_html_join(
            "", "{}{} ", ((suits(card), term_text(word)) for card, word in deal["exposed"].items())
        )
        remarks = ""
        if deal["penalties"]:
            seats = format_html_join("", "{} {} ", ((seat, int(p)) for seat, p in deal["penalties"].items()))
            remarks = format_html("{} {}", penalty_word, seats)
        if deal.get("not_played"):  # a board not played: the rule it was scored by, not an adjustment
            remarks = format_html("{} {}", message_text(mark_words(deal["not_played"])), remarks)
        elif deal["adjusted"]:
            remarks = format_html("{}{}{}", remarks, adjusted_word, deal["adjusted_reason"])
        rows.append(
            format_html(
                DEAL_ROW,
                url=round_url,
                board=int(deal["board"]),
                game="" if deal["game"] is None else int(deal["game"]),
                n=int(scores["N"]),
                e=int(scores["E"]),
                s=int(scores["S"]),
                w=int(scores["W"]),
                ns=int(deal["ns"]),
                ew=int(deal["ew"]),
                exposed=exposed,
                remarks=remarks,
            )
        )
    return mark_safe("\n".join(rows))  # each row built by format_html above
