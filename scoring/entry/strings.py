"""Strings a JSON body may carry (table-api.md, referee-api.md: no input produces a `5xx`).

JSON's `\\uD800` escape gives Python a lone surrogate: a `str` that cannot be encoded as UTF-8,
so hashing it, comparing its bytes or sending it to PostgreSQL raises deep inside a service.
Both JSON doors refuse such a body as a whole, before any service sees it, with a clear `400`.
"""

from scoring.entry.errors import EntryError
from scoring.games.refusals import _


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def checked_strings(data: object, own_rules: tuple[str, ...] = ()) -> object:
    """`data` unchanged when every string in it (keys included) is valid Unicode text, else
    `EntryError("bad_string")`. `own_rules`: top-level keys whose string values are left to a
    check of their own that refuses lone surrogates with its own code (the referee API's
    reasons: `bad_reason`). Walked with a list, not recursion: the JSON parser already bounded
    the nesting, but a walk of our own needs no second limit."""
    if isinstance(data, dict) and own_rules:
        waiting = [*data.keys(), *(v for k, v in data.items() if not (k in own_rules and isinstance(v, str)))]
    else:
        waiting = [data]
    while waiting:
        value = waiting.pop()
        if isinstance(value, str):
            if not _encodable(value):
                raise EntryError("bad_string", _("请求中有无效的字符（孤立的代理项）"))
        elif isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return data
