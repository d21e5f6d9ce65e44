"""升级's options as data (law §2.2 Options, §2.1 M1–M4) and the rules an event plays by.

A deal option travels in the deal's `"options"`; the event (match) options are set on the
event and read into `Rules`, a frozen dataclass the site stores as `Rules.options()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.games.options import DEAL, EVENT, Option, read_option_values
from scoring.games.refusals import DealError, _, listed, shown

from .cards import LEVEL_MIN, START_LEVEL_MAX, TARGET_MAX

if TYPE_CHECKING:
    from typing import Any

# A deal option the event sets too (M1): both sides' level before a match's first deal.
START_LEVEL = Option(
    "start_level",
    DEAL,
    1,
    _("双方开始的级数（1 即 A）"),
    minimum=LEVEL_MIN,
    maximum=START_LEVEL_MAX,
    short_label=_("开始级数（1 即 A）"),
    phrase=_("双方从第 %(value)s 级开始"),
)
# M2: the first side whose level rises above `target` wins; null: no target. At least
# `start_level`, which `read_event_options` checks once both are known.
TARGET = Option(
    "target",
    EVENT,
    13,
    _("目标级数：先升过此级的一方获胜（null：不设）"),
    minimum=LEVEL_MIN,
    maximum=TARGET_MAX,
    nullable=True,
    short_label=_("目标级数（留空：不设）"),
    phrase=_("先升过第 %(value)s 级者胜"),
    none_phrase=_("不设目标级数"),
)
# M3: after this many deals the higher level wins; null: no limit.
DEALS = Option(
    "deals",
    EVENT,
    None,
    _("副数：打满此数后级数高者获胜（null：不设）"),
    minimum=1,
    nullable=True,
    short_label=_("每场副数（留空：不设）"),
    phrase=_("打满 %(value)s 副后级高者胜"),
    none_phrase=_("不限副数"),
)

DEAL_OPTIONS = {option.name: option for option in (START_LEVEL,)}
EVENT_OPTIONS = {option.name: option for option in (START_LEVEL, TARGET, DEALS)}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules an event plays 升级 by: its rule set's name and its match options."""

    name: str = "shengji"
    start_level: int = START_LEVEL.default
    target: int | None = TARGET.default
    deals: int | None = DEALS.default

    def options(self) -> dict[str, int | None]:
        """The event options as plain data (what the site stores, and `read_event_options` reads)."""
        return {"start_level": self.start_level, "target": self.target, "deals": self.deals}


RULESETS = {"shengji": Rules()}
DEFAULT_RULESET = "shengji"


def read_deal_options(raw: dict[str, Any] | list[int | str] | None) -> int | None:
    """The start level a deal's `"options"` give (§2.2); raises `DealError("bad_option")`."""
    if raw is None:
        return START_LEVEL.default
    return read_option_values(raw, DEAL_OPTIONS).get("start_level", START_LEVEL.default)


def read_event_options(raw: Any, base: Rules = RULESETS[DEFAULT_RULESET]) -> Rules | None:
    """`Rules` from an event's options over `base` (M2–M4); raises `DealError("bad_option")`.
    `raw` may be a dict of options, a `Rules` (returned as it is) or None (the base)."""
    if isinstance(raw, Rules):
        return raw
    values = read_option_values(raw, EVENT_OPTIONS)
    if not values:
        return base
    start_level = values.get("start_level", base.start_level)
    target = values.get("target", base.target)
    deals = values.get("deals", base.deals)
    if target is not None and target < start_level:
        raise DealError(
            "bad_option",
            _("选项 target 的值 {value!r:.40} 无效：不能低于 start_level {start_level}"),
            value=target,
            start_level=start_level,
        )
    if target is None and deals is None:
        raise DealError("bad_option", _("选项 target 和 deals 不能都为 null：比赛必须能结束"))
    return Rules(name=base.name, start_level=start_level, target=target, deals=deals)


def rules_for(
    name: str = DEFAULT_RULESET,
    options: dict[str, bool | float | None] | list[Any] | str | None = None,
    **settings: bool | float | None,
) -> Rules | None:
    """The named rule set with an event's options (and keyword settings, the same options)."""
    base = RULESETS.get(name) if type(name) is str else None
    if base is None:
        raise DealError(
            "unknown_ruleset",
            _("未知规则 {name!r:.40}（可用：{known}）"),
            name=shown(name),
            known=listed(list(RULESETS)),
        )
    if settings:
        if isinstance(options, Rules):
            options = options.options()
        options = {**(options or {}), **settings}
    return read_event_options(options, base)
