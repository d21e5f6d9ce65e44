import re

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
    Chinese (`scoring.entry.BLIND_AGREEMENT`), which reads in the page's language."""
    return gettext(reason) if reason else reason


@register.filter
def message(value):
    """A domain message (`scoring.rules.errors.Text` or a refusal) in the page's language."""
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
