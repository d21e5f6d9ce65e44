"""Options as data (law §3.3 and §0): each a `scoring.games.options.Option`.

Deal options travel in a deal's `"options"` object and change how it is scored; event options
(`deals_per_match`, `standings`) are set on the event and shape the match and the standings.
Both are frozen dataclasses of plain values, so the site can store them as JSON (`as_json`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from scoring.games.common import STANDINGS
from scoring.games.options import DEAL, EVENT, Option, read_option_values
from scoring.games.refusals import _

from .cards import GAME_ID

if TYPE_CHECKING:
    from typing import Any

# §3.3 Options (deal level), in the law's order.
DEAL_OPTIONS = (
    Option(
        "min_huxi",
        DEAL,
        15,
        _("胡牌最少胡息（D-P2）"),
        minimum=1,
        maximum=60,
        short_label=_("胡牌最少胡息"),
        phrase=_("胡牌最少 %(value)s 胡息"),
    ),
    Option(
        "tun_step",
        DEAL,
        3,
        _("每多一囤所需胡息（D-P3）"),
        minimum=1,
        maximum=10,
        short_label=_("每多一囤所需胡息"),
        phrase=_("每多 %(value)s 胡息一囤"),
    ),
    Option(
        "di",
        DEAL,
        0,
        _("底：每次胡牌另加的囤数"),
        minimum=0,
        maximum=10,
        short_label=_("底（每次胡牌另加的囤）"),
        phrase=_("底 %(value)s 囤"),
    ),
    Option(
        "discard_pays",
        DEAL,
        "all",
        _("放炮由谁付：all 两家都付，discarder 放炮者独付（D-P6）"),
        choices=("all", "discarder"),
        short_label=_("放炮由谁付"),
        phrase=_("放炮胡%(value)s"),
        words=(("all", _("两家都付")), ("discarder", _("放炮者独付"))),
    ),
    Option(
        "huang_per_wangba",
        DEAL,
        5,
        _("黄庄时每张王霸付给每个无王霸者的分（D-P7）"),
        minimum=0,
        maximum=100,
        short_label=_("黄庄时每张王霸付给每个无王霸者"),
        phrase=_("黄庄每张王霸付 %(value)s"),
    ),
)
# §3.1 and §0: the event's options. The law gives no upper bound for deals_per_match; 1000 is ours.
EVENT_OPTIONS = (
    Option(
        "deals_per_match",
        EVENT,
        9,
        _("每场每桌打的把数（2015 永州比赛：9 把）"),
        minimum=1,
        maximum=1000,
        short_label=_("每场副数"),
        phrase=_("每场 %(value)s 副"),
    ),
    STANDINGS,
)
DEAL_OPTION_BY_NAME = {option.name: option for option in DEAL_OPTIONS}
EVENT_OPTION_BY_NAME = {option.name: option for option in EVENT_OPTIONS}


@dataclass(frozen=True, slots=True)
class DealOptions:
    min_huxi: int = 15
    tun_step: int = 3
    di: int = 0
    discard_pays: str = "all"
    huang_per_wangba: int = 5

    def as_json(self) -> dict[str, int | str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class EventOptions:
    deals_per_match: int = 9
    standings: str = "total"

    def as_json(self) -> dict[str, int | str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force at an event: its deal options and its event options."""

    deal: DealOptions = DealOptions()
    event: EventOptions = EventOptions()
    name: str = GAME_ID  # the one rule set

    def as_json(self) -> dict[str, dict[str, int | str] | str]:
        return {"ruleset": self.name, "options": self.deal.as_json(), "event": self.event.as_json()}


DEFAULT_DEAL_OPTIONS = DealOptions()
DEFAULT_EVENT_OPTIONS = EventOptions()
DEFAULT_RULES = Rules()
assert DEFAULT_DEAL_OPTIONS.as_json() == {option.name: option.default for option in DEAL_OPTIONS}
assert DEFAULT_EVENT_OPTIONS.as_json() == {option.name: option.default for option in EVENT_OPTIONS}


@lru_cache(maxsize=1024)
def _deal_options(pairs: tuple[tuple[str, int | str], ...], base: DealOptions) -> DealOptions:
    return replace(base, **dict(pairs))


def read_deal_options(
    raw: dict[str, Any] | list[float | str | None] | None, base: DealOptions = DEFAULT_DEAL_OPTIONS
) -> DealOptions:
    """G3: the deal options of a deal's `"options"` (None: absent) over `base`; raises `bad_option`."""
    if raw is None:
        return base
    pairs = tuple(read_option_values(raw, DEAL_OPTION_BY_NAME).items())
    return _deal_options(pairs, base) if pairs else base


def read_event_options(raw: dict[str, Any] | None) -> EventOptions | None:
    """An event's options (None: the defaults); raises `bad_option`."""
    if raw is None:
        return DEFAULT_EVENT_OPTIONS
    pairs = tuple(read_option_values(raw, EVENT_OPTION_BY_NAME, "event").items())
    return replace(DEFAULT_EVENT_OPTIONS, **dict(pairs))


def rules_for(options: dict[str, Any] | None = None, **settings: bool | float | str) -> Rules | None:
    """The rules of an event: deal options (a dict, as in a deal's `"options"`) and event options
    as keyword settings (`deals_per_match=9`, `standings="total"`); raises `bad_option`."""
    return Rules(deal=read_deal_options(options), event=read_event_options(settings or None))
