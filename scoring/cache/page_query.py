"""The query parameters the public pages share — `page`, `per_page`, `after` — read by one form,
so the page cache (`cache.pages`: it keeps a value in its keys, or redirects the address to the
page's canonical one without it) and the views (`web.public.views`: they read the value, or fall
back, or refuse) agree on what a valid value is.

Each value has one spelling — digits, no sign, no leading zero, no spaces — so one page is one
cache entry and a value the cache keeps is one the view reads.

The rules are the cache's (docs/security.md describes them): the cache must bound the
addresses it stores, and every value it keeps must mean something to the view.
- `page`: 1 to 999. 999 pages of the smallest size (25 rows) hold 24,975 rows, more than the
  largest event (10,000 players); a longer number would let random page numbers each fill a
  cache entry; 0 is no page. The view shows the first page for a value refused, as the
  cache's redirect does. A page past the last is redirected to the last (`past_the_last`):
  otherwise each page number past the end would be a cache entry of its own holding a copy of
  the last page (`?page=1..999` times five sizes, per language).
- `per_page`: one of `PAGE_SIZES`; else the default, 100.
- `after`: a round number 1 to 999, so "01", "+1", " 1" and "1_0" are refused. A value
  refused is a bad round, 404, as is a round not published; the cache sends a refused value
  to the canonical address instead (it stores no 404s).
An empty value is no value: the view reads it as absent, the cache drops it from the address.
"""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect

PAGE_SIZES = (25, 50, 100, 200, 500)
DEFAULT_PER_PAGE = 100
MOST = 999  # the largest page or round number an address may name


class PlainNumberField(forms.IntegerField):
    """A whole number from 1 to `most` in its one spelling: digits only, the first not 0 (never
    int() of anything longer: a 5,000-digit value is refused, not a server error)."""

    def __init__(self, *, most=MOST, **kwargs):
        super().__init__(min_value=1, max_value=most, required=False, **kwargs)
        self.spelling = re.compile(rf"[1-9][0-9]{{0,{len(str(most)) - 1}}}")

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, str) or not self.spelling.fullmatch(value):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(value)


class PageQuery(forms.Form):
    """The shared parameters of a public page's query (the last value of each, as the cache
    reads them). `PageQuery.read(request.GET)`; then `value(name)` and `refused(name)`."""

    page = PlainNumberField()
    per_page = forms.TypedChoiceField(
        choices=[(str(size), str(size)) for size in PAGE_SIZES], coerce=int, required=False, empty_value=None
    )
    after = PlainNumberField()

    @classmethod
    def read(cls, query):
        form = cls(query)
        form.is_valid()
        return form

    def value(self, name, default=None):
        """The parameter's value; `default` when it is absent, empty or refused."""
        value = self.cleaned_data.get(name)
        return default if value is None else value

    def refused(self, name):
        """Whether the query gives the parameter a value that is not valid."""
        return name in self.errors


def is_shared_value(name, value):
    """Whether `value` is a valid, non-empty value of the shared parameter `name`: what the
    page cache keeps in its addresses."""
    field = PageQuery.base_fields.get(name)
    if field is None or value in field.empty_values:
        return False
    try:
        field.clean(value)
    except ValidationError:
        return False
    return True


def past_the_last(request, last: int) -> HttpResponseRedirect | None:
    """A redirect to page `last` (the first without `page`) when `?page=` names a page past it,
    else None (and for a search); the query's other parameters are kept. A redirect is never stored, so page numbers
    past the last cost neither a cache entry nor a render each."""
    page = PageQuery.read(request.GET).value("page")
    if page is None or page <= last or "q" in request.GET:
        return None  # a search (`q`) is never stored: its asker sees the last page at once
    query = request.GET.copy()
    if last > 1:
        query["page"] = str(last)
    else:
        query.pop("page")
    return HttpResponseRedirect(request.path + (f"?{query.urlencode()}" if query else ""))
