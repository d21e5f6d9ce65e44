from django import template

register = template.Library()


@register.filter
def get_seat(mapping, seat):
    """`scores|get_seat:"N"`: a dict look-up the template language lacks."""
    return (mapping or {}).get(seat, "")
