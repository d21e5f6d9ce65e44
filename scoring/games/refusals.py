"""Refusals in domain terms: a stable code, a message template and its parameters.

The pure layer speaks Chinese (the law's language) and does not translate: a
template is a Chinese `str.format` string marked with `_` so that `makemessages`
extracts it, and `message` fills it in. The Django layer renders the same template
in the request's language through gettext (`scoring.messages.text`), once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def _(template: str) -> str:
    """Marks a message template for `makemessages` (xgettext extracts `_("…")`);
    the pure layer cannot import Django's gettext_noop."""
    return template


def pgettext(context: str, word: str) -> str:
    """Marks a word with its context for `makemessages` (the games' breakdown vocabularies use
    "breakdown": these words read differently on a form); the engines always write Chinese."""
    return word


class Refusal(ValueError):
    """Base of every domain error: `code` for machines, `template` + `params` for people."""

    def __init__(self, code: str, template: str, **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The message in the source language (Chinese), for logs, the CLI and tests."""
        return self.template.format(**self.params)

    def as_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}

    def __eq__(self, other: DealError) -> bool:
        return type(other) is type(self) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> Any:
        return hash((self.code, self.message))


class DealError(Refusal):
    """A deal refused: the code is one of deal-json.md's; the message names the card or seat."""


class Text:
    """A message that is a parameter of another, such as a place (第3轮 5号桌):
    rendered in the same language as the message around it."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)


class _Shown:
    """A value a message names in a short form of its own (see `shown`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def shown(value: Any) -> Any:
    """A JSON value as a message's `{value!r:.40}` may name it without raising: the value
    itself when its `repr` is safe, else a short stand-in (the `repr` of a deeply nested list
    overflows the stack, and that of a huge integer exceeds Python's digit limit)."""
    if isinstance(value, list | dict):
        return _Shown(("[…]" if value else "[]") if isinstance(value, list) else ("{…}" if value else "{}"))
    if type(value) is int and value.bit_length() > 64:
        return _Shown(f"{'-' if value < 0 else ''}2**{value.bit_length() - 1}…")
    return value


def preview(value: Any, width: int = 40) -> str:
    """A JSON value as a message's `{value}` names it: its `repr`, cut to `width` characters
    (… at the cut), or `<int>`, `<list>` where there is no `repr` (a huge integer, a list nested
    too deep). Never raises. `shown` is the same for a template that cuts it (`{value!r:.40}`)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 1] + "…"


def listed(items: list[Any]) -> int | Text | str:
    """Several message parameters as one: 北(N)、东(E) in Chinese, North(N), East(E) in English."""
    *head, text = items
    for item in reversed(head):
        text = Text(_("{first}、{rest}"), first=item, rest=text)
    return text
