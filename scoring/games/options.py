"""One option spec for every game (law §0, item 4): an option as data.

Each option has a name, a level, a default, a label, and its allowed values: a few `choices`,
or the integers `minimum`…`maximum` (no upper bound when `maximum` is None), null among them
or not (`nullable`).

It carries its words for people too (the event form, the rules in force: `scoring.events.rulebook`),
Chinese and marked with `scoring.games.refusals._` like `label`: `short_label` (what the form
calls it; None: `label`), `phrase` (how it reads in the rules in force, with `%(value)s`; None:
"label：value"), `words` (a word for some values, `(value, word)` pairs; other values read as
they are) and `none_phrase` (how it reads without a value, when null is one).

- `DEAL`: the option may travel in a deal's `"options"`; an event may set it too, as the base
  its deals start from.
- `EVENT`: set on the event only (match length, standings).

A game lists every option, of both levels, as its `option_specs` (`scoring.games.base.Game`),
so the site can build an event's form from any game's options without knowing the game. Every
game reads an `"options"` object with `read_option_values` (G3 and its refusals, one wording for
every game); what the values then mean (a rule set's fields, a match's length) is the game's own.

JSON types are strict: `true` is not 1, `1` is not `true`, `2.0` is not 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.games.refusals import DealError, _, listed, preview, shown

DEAL = "deal"
EVENT = "event"
LEVELS = (DEAL, EVENT)


@dataclass(frozen=True, slots=True)
class Option:
    """One option. `label` is Chinese, marked with `scoring.games.refusals._` for the catalogue."""

    name: str
    level: str  # DEAL or EVENT
    default: object
    label: str
    choices: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None  # None: no upper bound
    nullable: bool = False  # whether null is one of the values (else null counts as absent)
    # Its words for people (see the module's notes), each a Chinese msgid marked with `_`.
    short_label: str | None = None
    phrase: str | None = None  # with %(value)s
    words: tuple = ()  # ((value, word), …)
    none_phrase: str | None = None
    # (type, value) of each choice: `allows` runs for every option of every deal that has options.
    _typed_choices: frozenset = field(init=False, repr=False, compare=False, default=frozenset())

    def __post_init__(self) -> None:
        if self.choices is not None:
            object.__setattr__(self, "_typed_choices", frozenset((type(choice), choice) for choice in self.choices))
        if self.level not in LEVELS:
            raise ValueError(f"{self.name}: level {self.level!r} is not one of {LEVELS}")
        if (self.choices is None) == (self.minimum is None):
            raise ValueError(f"{self.name}: give choices, or a minimum (and a maximum), not both")
        if not self.allows(self.default):
            raise ValueError(f"{self.name}: the default {self.default!r} is not an allowed value")
        if not all(self.allows(value) for value, _word in self.words):
            raise ValueError(f"{self.name}: a word for a value that is not allowed")

    def word(self, value: bool | int | str) -> str | None:
        """The word for `value` (untranslated), or None; types compared strictly (false is not 0)."""
        return next((word for choice, word in self.words if type(choice) is type(value) and choice == value), None)

    def allows(self, value: Any) -> bool:
        """Whether `value` (any JSON value) is one of the option's values, types compared strictly."""
        if value is None:
            return self.nullable
        if self.choices is not None:  # a value equal to a choice is hashable, as the choices are
            return value in self.choices and (type(value), value) in self._typed_choices
        maximum = self.maximum
        return type(value) is int and self.minimum <= value and (maximum is None or value <= maximum)

    @property
    def hint(self) -> str:
        """The allowed values as a message names them: add / once, false / true, 0…1000, 1…, null."""
        if self.choices is not None:
            text = " / ".join(str(choice).lower() if type(choice) is bool else str(choice) for choice in self.choices)
        else:
            text = f"{self.minimum}…{'' if self.maximum is None else self.maximum}"
        return f"{text}, null" if self.nullable else text

    def as_json(self) -> dict[str, Any]:
        """The option as plain data, for pages and forms (`label` untranslated, Chinese)."""
        values = list(self.choices) if self.choices is not None else {"min": self.minimum, "max": self.maximum}
        return {
            "name": self.name,
            "level": self.level,
            "label": self.label,
            "default": self.default,
            "values": values,
            "nullable": self.nullable,
        }


def read_option_values(raw: Any, known: Mapping[str, Option], key: str = "options") -> dict[str, Any]:
    """G3 of the games law: `{name: value}` from an options object (`raw`; None: absent), checked
    against the options `known` by name, in the object's order; raises `bad_option` for the first
    entry at fault. A name the game does not have is refused whatever its value (a misspelt option
    must not pass silently); otherwise null counts as absent unless it is one of the option's values."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DealError("bad_option", _("“{key}” 必须是对象"), key=key)
    values = {}
    for name, value in raw.items():
        option = known.get(name) if type(name) is str else None
        if option is None:
            raise DealError(
                "bad_option",
                _("未知选项 {name!r:.40}（可用：{known}）"),
                name=shown(name),
                known=listed(list(known)),
            )
        if value is None and not option.nullable:
            continue
        if not option.allows(value):
            raise DealError(
                "bad_option",
                _("选项 {name} 的值 {value} 无效（{hint}）"),
                name=name,
                value=preview(value),
                hint=option.hint,
            )
        values[name] = value
    return values
