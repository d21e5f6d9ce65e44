"""Refusals in domain terms: a stable code, a message template and its parameters.

The pure layer speaks Chinese (the law's language) and does not translate: a
template is a Chinese `str.format` string marked with `_` so that `makemessages`
extracts it, and `message` fills it in. The Django layer renders the same template
in the request's language through gettext (`scoring.messages.text`), once.
"""


def _(template):
    """Marks a message template for `makemessages` (xgettext extracts `_("…")`);
    the pure layer cannot import Django's gettext_noop."""
    return template


class Refusal(ValueError):
    """Base of every domain error: `code` for machines, `template` + `params` for people."""

    def __init__(self, code, template, **params):
        self.code = code
        self.template = template
        self.params = params
        super().__init__(self.message)

    @property
    def message(self):
        """The message in the source language (Chinese), for logs, the CLI and tests."""
        return self.template.format(**self.params)

    def as_json(self):
        return {"error": {"code": self.code, "message": self.message}}

    def __eq__(self, other):
        return type(other) is type(self) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self):
        return hash((self.code, self.message))


class DealError(Refusal):
    """A deal refused: the code is one of deal-json.md's; the message names the card or seat."""


class Text:
    """A message that is a parameter of another, such as a place (第3轮 5号桌):
    rendered in the same language as the message around it."""

    __slots__ = ("params", "template")

    def __init__(self, template, **params):
        self.template = template
        self.params = params

    def __str__(self):
        return self.template.format(**self.params)


def listed(items):
    """Several message parameters as one: 北(N)、东(E) in Chinese, North(N), East(E) in English."""
    *head, text = items
    for item in reversed(head):
        text = Text(_("{first}、{rest}"), first=item, rest=text)
    return text
