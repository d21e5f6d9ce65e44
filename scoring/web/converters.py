"""URL path converters that refuse, as a 404, what the database could not take.

Django's `int` converter passes any number of digits through, and PostgreSQL
answers "integer out of range" (a 500) for a round number of 2^31; its `slug`
converter cannot reverse an event slug or an entrant code stored before codes
were validated. These converters bound numbers to what the columns hold and
accept any stored text except `/` and control characters (NUL is refused by
PostgreSQL), so pages reverse every stored name and a hostile one is a 404.
"""

# Round, table and board numbers fit a 32-bit column: nine digits always do.
MAX_NUMBER = 999_999_999


class NumberConverter:
    regex = "[0-9]{1,9}"

    def to_python(self, value):
        return int(value)

    def to_url(self, value):
        return str(value)


class NameConverter:
    """An event slug or an entrant code as stored: no `/`, no control characters, at most 100 characters."""

    regex = "[^/\x00-\x1f\x7f]{1,100}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


class CodeConverter(NameConverter):
    """An entrant's number as stored; it may even hold a `/` (stored before numbers were validated),
    so it is the last part of the addresses that carry it."""

    regex = "[^\x00-\x1f\x7f]{1,100}"


class TokenConverter(NameConverter):
    """A table link's token (`secrets.token_urlsafe`): URL-safe base64, at most 64 characters."""

    regex = "[A-Za-z0-9_-]{1,64}"
