"""Options as data (law §1.3, §1.1, §0): each a `scoring.games.options.Option`.

Deal options travel in a deal's `"options"`; event options (match length, standings) are set
on the event. `Rules` holds both, frozen and hashable: the Django side stores `Rules.options()`
(a plain dict) and gets the same rules back from `rules_for(GAME_ID, that dict)`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from scoring.games.common import STANDINGS
from scoring.games.options import DEAL, EVENT, Option, read_option_values
from scoring.games.refusals import DealError, _, listed, preview

from .cards import GAME_ID

if TYPE_CHECKING:
    from typing import Any

OPTIONS = {
    option.name: option
    for option in (
        # §1.3, D-B2: several 飛彈 of one player add up ("add") or count once ("once").
        Option(
            "feidan_stack",
            DEAL,
            "add",
            _("一人多个飞弹：add 累加，once 只算一个（D-B2）"),
            choices=("add", "once"),
            short_label=_("一人多个飞弹"),
            phrase=_("一人多个飞弹：%(value)s"),
            words=(("add", _("累加")), ("once", _("只算一个"))),
        ),
        # §1.3, D-B3: whether 飛彈 may turn a loser's payment into a gain.
        Option(
            "feidan_reversal",
            DEAL,
            False,
            _("飞弹可使输家反赢（D-B3）"),
            choices=(False, True),
            short_label=_("飞弹可否使输赢反向"),
            phrase=_("飞弹%(value)s"),
            words=((False, _("不反向")), (True, _("可以反向"))),
        ),
        # §1.3, D-B6: what each non-holder pays each 天炸 holder, and the 天尊 holder.
        Option(
            "tianzha_points",
            DEAL,
            30,
            _("天炸：每位非持有者付给每位天炸者的分"),
            minimum=0,
            maximum=1000,
            short_label=_("天炸每家付分"),
            phrase=_("天炸每家付 %(value)s"),
        ),
        Option(
            "tianzun_points",
            DEAL,
            6,
            _("天尊：每位非持有者付给天尊者的分"),
            minimum=0,
            maximum=1000,
            short_label=_("天尊每家付分"),
            phrase=_("天尊每家付 %(value)s"),
        ),
        # §1.1: deals a table plays (8 by default, D-B9); the bound is the project's.
        Option(
            "deals_per_match",
            EVENT,
            8,
            _("每场每桌打的副数"),
            minimum=1,
            maximum=1000,
            short_label=_("每场副数"),
            phrase=_("每场 %(value)s 副"),
        ),
        STANDINGS,  # §0 standings option
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

    def with_options(self, **values: bool | int | str) -> Rules:
        """These rules with some options changed (already checked)."""
        return replace(self, **values) if values else self

    def options(self) -> dict[str, Any]:
        """Every option's value, a plain dict to store."""
        return {name: getattr(self, name) for name in OPTIONS}

    def deal_options(self) -> Any:
        return {name: getattr(self, name) for name in DEAL_OPTIONS}

    def event_options(self) -> dict[str, int | str]:
        return {name: getattr(self, name) for name in EVENT_OPTIONS}


assert [field.name for field in fields(Rules)][1:] == list(OPTIONS)
assert all(getattr(Rules(), name) == option.default for name, option in OPTIONS.items())

RULESETS = {GAME_ID: Rules()}
DEFAULT_RULESET = GAME_ID
DEFAULT_RULES = RULESETS[DEFAULT_RULESET]


def check_options(
    raw: dict[str, Any] | list[Any] | None, known: tuple[str, ...] = DEAL_OPTIONS
) -> dict[str, Any] | None:
    """§0 G3: `raw` (a deal's `"options"`) as `{name: value}` overrides of the options named in
    `known` (`scoring.games.options.read_option_values`)."""
    return read_option_values(raw, {name: OPTIONS[name] for name in known})


@lru_cache(maxsize=1024)
def _with(rules: Rules, items: tuple[tuple[str, Any], ...]) -> Rules:
    return rules.with_options(**dict(items))


def apply_options(rules: Rules, raw: dict[str, Any] | list[Any] | None, known: tuple[str, ...] = DEAL_OPTIONS) -> Rules:
    """`rules` with the options of `raw` checked and applied (a deal has few distinct option sets:
    the result is cached)."""
    overrides = check_options(raw, known)
    return _with(rules, tuple(overrides.items())) if overrides else rules


def rules_for(
    ruleset: str = DEFAULT_RULESET, options: dict[str, Any] | list[Any] | None = None, **settings: bool | float | str
) -> Rules:
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
