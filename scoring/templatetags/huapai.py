import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoring.messages import message_text

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
