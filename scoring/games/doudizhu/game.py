"""蚌埠斗地主 as a `Game` (scoring.games.base): law §1 behind the protocol.

Beyond the protocol: `entry_fields`
(what the entry page asks, as plain field descriptions; `entry_grid` returns the same list),
`score_match`, `first_bidder`, `table_points` and `standing_points`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games import calls
from scoring.games.base import GameBase
from scoring.games.refusals import _

from . import match
from .cards import FEIDAN_MOST_FARMER, FEIDAN_MOST_LANDLORD, GAME_ID, GAME_NAME, SEATS, SIDES
from .deal import read_deal
from .engine import BREAKDOWN_TERMS, score_deal
from .options import DEFAULT_RULESET, OPTIONS, RULESETS, rules_for
from .stored import DEAL_KEYS, score_stored

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.doudizhu.deal import ValidDeal
    from scoring.games.doudizhu.match import MatchUnit
    from scoring.games.doudizhu.options import Rules
    from scoring.games.refusals import DealError

# The deal's keys in the order a referee records them (§1.2), as plain data for a form:
# `kind` is "seat", "seats" (several), "choice" or "bool", or "counts" (seat → integer).
ENTRY_FIELDS = (
    {"key": "tianzha", "label": _("天炸（发到同点 8 张）"), "kind": "seats", "required": False},
    {"key": "tianzun", "label": _("天尊（发到 4 张王）"), "kind": "seat", "required": False},
    {"key": "landlord", "label": _("地主"), "kind": "seat", "required": True},
    {
        "key": "bid",
        "label": _("叫分"),
        "kind": "choice",
        "required": True,
        "choices": [1, 2, 3, "grab"],
        "words": {"grab": _("抢牌")},  # a value in words where its code is not one
    },
    {"key": "open", "label": _("明打"), "kind": "bool", "required": False},
    {"key": "first_out", "label": _("先出完牌"), "kind": "seat", "required": True},
    {
        "key": "feidan",
        "label": _("飞弹个数"),
        "kind": "counts",
        "required": False,
        "max": {"landlord": FEIDAN_MOST_LANDLORD, "farmer": FEIDAN_MOST_FARMER},
    },
)

# Players' statistics: deals as landlord, won as landlord, 飞弹 played; each counted
# from a stored deal (`seat_statistics`), a 天炸/天尊 deal counting as a deal only.
STATISTICS = (
    ("landlord", _("当地主")),
    ("landlord_won", _("当地主胜")),
    ("feidan", _("飞弹")),
)


def seat_statistics(deal: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    """{seat: (deals as landlord, won as landlord, 飞弹)} of one deal as stored (canonical JSON)."""
    deal = deal or {}
    landlord, feidan = deal.get("landlord"), deal.get("feidan") or {}
    won = landlord is not None and deal.get("first_out") == landlord
    return {seat: (int(seat == landlord), int(seat == landlord and won), feidan.get(seat, 0)) for seat in SEATS}


# The deal key a refusal is about, by code, where its parameters do not name it (§1.2 V1–V8).
REFUSAL_KEYS = {
    "bad_bid": "bid",
    "passed_out": "bid",
    "bad_open": "open",
    "grab_is_open": "open",
    "bad_feidan": "feidan",
    "duplicate_seat": "tianzha",
    "bad_adjusted": "adjusted",
}


class Doudizhu(GameBase):
    id = GAME_ID
    name = GAME_NAME
    seats = SEATS
    sides = SIDES  # no partnerships: every seat is its own side
    rulesets = tuple(RULESETS)
    default_ruleset = DEFAULT_RULESET
    options = tuple(OPTIONS)
    option_specs = tuple(OPTIONS.values())  # deal options, then event options
    # A match ends after `deals_per_match` deals (an event option), not at a score.
    match_thresholds = ()
    event_kinds = ("individual",)  # §1.1: four players, each for himself
    deal_keys = DEAL_KEYS  # the deal is kept whole (`Deal.game_data`)
    generic_options = True  # the event form shows a field per option (`option_specs`)
    takes_penalties = False  # the law has no penalty points: an arbiter adjusts the score
    # The law names no irregularity: the calls any table has (no claims, no exposures, no suit
    # to follow), ruled without penalty points (docs/games/doudizhu.md).
    call_kinds = calls.GENERIC_CALL_KINDS
    call_outcomes = calls.GENERIC_CALL_OUTCOMES
    breakdown_terms = BREAKDOWN_TERMS
    statistics = tuple(name for name, _label in STATISTICS)
    statistics_labels = dict(STATISTICS)
    seat_statistics = staticmethod(seat_statistics)

    def rules(
        self,
        ruleset: str = DEFAULT_RULESET,
        options: dict[str, Any] | list[Any] | None = None,
        **settings: bool | float | str,
    ) -> Rules | None:
        return rules_for(ruleset, options, **settings)

    def read_deal(self, deal: Any, rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
        return read_deal(deal, rules)

    def score_deal(self, deal: dict[str, Any], rules: Any = None) -> dict[str, dict[str, Any] | str] | None:
        return score_deal(deal, rules)

    def score_stored(
        self, rules: Rules, deal: dict[str, Any], adjusted: dict[str, bool | int] | list[int] | None = None
    ) -> dict[str, Any] | None:
        return score_stored(rules, deal, adjusted)

    def stored_statistics(self, rules: Rules, scored: dict[str, Any], adjusted: dict[str, int] | None = None) -> None:
        return None  # statistics read the deal itself (`game_data`)

    def entry_fields(self, rules: Rules | None = None) -> list[dict[str, Any]]:
        """The entry page's fields (plain dicts, fresh copies)."""
        return [
            {
                **spec,
                **({"max": dict(spec["max"])} if "max" in spec else {}),
                **({"words": dict(spec["words"])} if "words" in spec else {}),
            }
            for spec in ENTRY_FIELDS
        ]

    def refusal_key(self, error: DealError) -> str:
        """The deal key a refusal names (the entry page puts it beside that field), or None."""
        key = error.params.get("key")
        if key in DEAL_KEYS:
            return key
        if error.code == "bad_tian":
            return "tianzun" if "tianzun" in error.template else "tianzha"
        return REFUSAL_KEYS.get(error.code)

    def entry_grid(self, rules: Rules | None = None) -> list[dict[str, Any]]:
        """Not 华牌's point-card rows: the entry fields (`entry_fields`)."""
        return self.entry_fields(rules)

    def match_units(self, side_scores: list[dict[str, int]], threshold: int | None = None) -> list[MatchUnit]:
        """`side_scores`: `[{seat: score}]` per deal; `threshold`: the deals per match."""
        return match.match_units(side_scores, threshold or OPTIONS["deals_per_match"].default)

    def score_match(self, deals: Any, rules: Any = None) -> Any:
        return match.score_match(deals, rules)

    first_bidder = staticmethod(match.first_bidder)
    table_points = staticmethod(match.table_points)
    standing_points = staticmethod(match.standing_points)

    def sample_deals(self, count: int, seed: int = 2026) -> list[dict[str, int | str]]:
        from .samples import random_deals  # the benchmarks' generator, loaded only when asked

        return list(random_deals(count, seed))


DOUDIZHU = Doudizhu()
