import re
from html import escape  # the standard library's: Django's is lazy-aware and six times slower

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoring.messages import joined, message_text, name_with_pinyin, term_text

register = template.Library()


@register.filter
def get_seat(mapping, seat):
    """`scores|get_seat:"N"`: a dict look-up the template language lacks."""
    return (mapping or {}).get(seat, "")


@register.filter
def history_reason(reason):
    """A change's reason as stored: a referee's own words, or a reason the system wrote in
    Chinese (`scoring.entry.services.BLIND_AGREEMENT`), which reads in the page's language."""
    return gettext(reason) if reason else reason


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
def join_list(words):
    """Words (clubs, codes) in a list, with the page language's separator."""
    return joined(words or ())


@register.simple_tag
def deal_rows(deals, round_url):
    """The rows of a table's deals on an entrant's page (`scoring.results.records.deal_row`), each
    board linked to its traveller under `round_url`.

    Written by hand rather than in the template (or with format_html): nine rounds of 16
    boards made 2,600 template nodes and 20,000 lazy-aware escapes, two thirds of the page's
    first render. The numbers are ints; every text is escaped here."""
    penalty_word, adjusted_word = escape(gettext("罚分")), escape(gettext("调整分："))
    url = escape(round_url)
    rows = []
    for deal in deals:
        scores = deal["scores"]
        exposed = "".join(f"{suits(card)}{escape(term_text(word))} " for card, word in deal["exposed"].items())
        remarks = ""
        if deal["penalties"]:
            remarks = penalty_word + " " + "".join(f"{escape(seat)} {int(p)} " for seat, p in deal["penalties"].items())
        if deal["adjusted"]:
            remarks += adjusted_word + escape(deal["adjusted_reason"])
        game = "" if deal["game"] is None else int(deal["game"])
        rows.append(
            f'<tr><td class="num"><a href="{url}boards/{int(deal["board"])}/">{int(deal["board"])}</a></td>'
            f'<td class="num">{game}</td>\n<td class="num">{int(scores["N"])}</td>'
            f'<td class="num">{int(scores["E"])}</td><td class="num">{int(scores["S"])}</td>'
            f'<td class="num">{int(scores["W"])}</td>\n'
            f'<td class="num">{int(deal["ns"])}</td><td class="num">{int(deal["ew"])}</td>\n'
            f'<td class="hide-phone">{exposed}</td>\n<td>{remarks}</td></tr>'
        )
    return mark_safe("\n".join(rows))
