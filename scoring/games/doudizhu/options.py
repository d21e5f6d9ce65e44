"""Options as data (law §1.3, §1.1, §0): each a name, its allowed values and a default.

Deal options travel in a deal's `"options"`; event options (match length, standings) are set
on the event. `Rules` holds both, frozen and hashable: the Django side stores `Rules.options()`
(a plain dict) and gets the same rules back from `rules_for(GAME_ID, that dict)`.
"""

from dataclasses import dataclass, fields, replace
from functools import lru_cache

from scoring.games.refusals import DealError, _, listed

from .cards import GAME_ID

DEAL = "deal"
EVENT = "event"


@dataclass(frozen=True, slots=True)
class Option:
    """One option: allowed values are `choices`, or the integers `minimum`…`maximum`."""

    name: str
    level: str  # DEAL or EVENT
    default: object
    choices: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None

    def allows(self, value):
        """JSON types are strict: `true` is not 1 and `1` is not `true`, `2.0` is not 2."""
        if self.choices is not None:
            return any(type(value) is type(choice) and value == choice for choice in self.choices)
        return type(value) is int and self.minimum <= value <= self.maximum

    @property
    def hint(self):
        """The allowed values as a reader writes them: add / once, true / false, 0…1000."""
        if self.choices is None:
            return f"{self.minimum}…{self.maximum}"
        return " / ".join(str(choice).lower() if type(choice) is bool else str(choice) for choice in self.choices)

    def as_json(self):
        """The option as plain data, for pages and forms."""
        allowed = list(self.choices) if self.choices is not None else {"min": self.minimum, "max": self.maximum}
        return {"name": self.name, "level": self.level, "default": self.default, "values": allowed}


OPTIONS = {
    option.name: option
    for option in (
        # §1.3, D-B2: several 飛彈 of one player add up ("add") or count once ("once").
        Option("feidan_stack", DEAL, "add", choices=("add", "once")),
        # §1.3, D-B3: whether 飛彈 may turn a loser's payment into a gain.
        Option("feidan_reversal", DEAL, False, choices=(False, True)),
        # §1.3, D-B6: what each non-holder pays each 天炸 holder, and the 天尊 holder.
        Option("tianzha_points", DEAL, 30, minimum=0, maximum=1000),
        Option("tianzun_points", DEAL, 6, minimum=0, maximum=1000),
        # §1.1: deals a table plays (8 by default, D-B9); the bound is the project's.
        Option("deals_per_match", EVENT, 8, minimum=1, maximum=1000),
        # §0 standings option.
        Option("standings", EVENT, "total", choices=("total", "table_points")),
    )
}
DEAL_OPTIONS = tuple(name for name, option in OPTIONS.items() if option.level == DEAL)
EVENT_OPTIONS = tuple(name for name, option in OPTIONS.items() if option.level == EVENT)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force: the rule set's name and every option's value (fields named as the options)."""

    name: str = GAME_ID
    feidan_stack: str = "add"
    feidan_reversal: bool = False
    tianzha_points: int = 30
    tianzun_points: int = 6
    deals_per_match: int = 8
    standings: str = "total"

    def with_options(self, **values):
        """These rules with some options changed (already checked)."""
        return replace(self, **values) if values else self

    def options(self):
        """Every option's value, a plain dict to store."""
        return {name: getattr(self, name) for name in OPTIONS}

    def deal_options(self):
        return {name: getattr(self, name) for name in DEAL_OPTIONS}

    def event_options(self):
        return {name: getattr(self, name) for name in EVENT_OPTIONS}


assert [field.name for field in fields(Rules)][1:] == list(OPTIONS)
assert all(getattr(Rules(), name) == option.default for name, option in OPTIONS.items())

RULESETS = {GAME_ID: Rules()}
DEFAULT_RULESET = GAME_ID
DEFAULT_RULES = RULESETS[DEFAULT_RULESET]


def _bad_option(name, value, known):
    option = OPTIONS.get(name) if type(name) is str and name in known else None
    if option is None:
        return DealError(
            "bad_option", _("未知选项 {name}（可用：{known}）"), name=preview(name), known=listed(list(known))
        )
    return DealError(
        "bad_option",
        _("选项 {name} 的值 {value} 无效（{hint}）"),
        name=name,
        value=preview(value),
        hint=option.hint,
    )


def check_options(raw, known=DEAL_OPTIONS):
    """§0 G3: `raw` (a deal's `"options"`) as `{name: value}` overrides; raises `bad_option`
    for the first entry that is not one of `known` or not an allowed value. Null is absent."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DealError("bad_option", _("“options” 必须是对象"))
    overrides = {}
    for name, value in raw.items():
        if value is None:
            continue
        option = OPTIONS.get(name) if type(name) is str and name in known else None
        if option is None or not option.allows(value):
            raise _bad_option(name, value, known)
        overrides[name] = value
    return overrides


@lru_cache(maxsize=1024)
def _with(rules, items):
    return rules.with_options(**dict(items))


def apply_options(rules, raw, known=DEAL_OPTIONS):
    """`rules` with the options of `raw` checked and applied (a deal has few distinct option sets:
    the result is cached)."""
    overrides = check_options(raw, known)
    return _with(rules, tuple(overrides.items())) if overrides else rules


def rules_for(ruleset=DEFAULT_RULESET, options=None, **settings):
    """The rule set with an event's options (deal and event options alike) and settings
    (the same names as keywords). Raises `DealError` (`unknown_ruleset`, `bad_option`)."""
    rules = RULESETS.get(ruleset) if type(ruleset) is str else None
    if rules is None:
        raise DealError(
            "unknown_ruleset",
            _("未知规则 {name}（可用：{known}）"),
            name=preview(ruleset),
            known=listed(list(RULESETS)),
        )
    rules = apply_options(rules, options, tuple(OPTIONS))
    return apply_options(rules, settings, tuple(OPTIONS)) if settings else rules


def preview(value, width=40):
    """A value as a message shows it: its repr, cut to `width` characters. Never raises
    (an integer too long to print, a structure nested too deep)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 1] + "…"
