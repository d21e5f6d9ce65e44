"""跑胡子 as a `Game` (scoring.games.base): law §3 of shared/rules/games/README.md behind the protocol.

Beyond the protocol, the class offers `entry_fields` (the referee's entry page, plain dicts),
`refusal_key`, `seat_statistics`, `next_dealer`, `table_points` and `play_match`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.games import calls
from scoring.games.base import GameBase
from scoring.games.refusals import _

from .cards import (
    FULL_NAME,
    GAME_ID,
    GAME_NAME,
    MAX_HUXI,
    MAX_RED,
    MAX_XING,
    SEATS,
    SIDES,
    SOURCES,
    WANGS,
    WIN_KEYS,
    colour_of,
    kind_of,
)
from .deal import read_deal
from .engine import score_deal
from .match import next_dealer, play_match, split_matches, table_points
from .options import DEAL_OPTIONS, DEFAULT_RULES, EVENT_OPTIONS, rules_for
from .stored import score_stored
from .terms import BREAKDOWN_TERMS

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.paohuzi.deal import ValidDeal
    from scoring.games.paohuzi.match import TableMatch
    from scoring.games.paohuzi.options import Rules
    from scoring.games.refusals import DealError


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field a referee fills in for a deal: its deal JSON key, label, kind and bounds.

    `kind`: "seat" (E/S/W), "seat_or_huang" (a seat, or null for 黄庄), "per_seat" (an integer
    per seat), "int" or "choice". `needed`: "always", "win" (only when there is a winner),
    "discard" (required for a win off a discard, optional for "draw", absent for "self") or
    "optional".
    """

    key: str
    label: str
    kind: str
    needed: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple = ()
    default: object = None


def entry_fields(rules: Rules) -> list[EntryField]:
    """The deal's fields in the order a referee records them (§3.2)."""
    return [
        EntryField("winner", _("胡牌者"), "seat_or_huang", "always", choices=SEATS),
        EntryField("wangba", _("王霸（每家张数）"), "per_seat", "always", minimum=0, maximum=2, default=0),
        EntryField("huxi", _("胡息"), "int", "win", minimum=rules.deal.min_huxi, maximum=MAX_HUXI),
        EntryField("red", _("红字数"), "int", "win", minimum=0, maximum=MAX_RED),
        EntryField("source", _("胡牌来源"), "choice", "win", choices=SOURCES),
        EntryField("from", _("放炮/翻牌者"), "seat", "discard", choices=SEATS),
        EntryField("wang", _("王钓/王钓王/王闯"), "choice", "win", choices=WANGS, default="none"),
        EntryField("xing", _("省数"), "int", "win", minimum=0, maximum=MAX_XING, default=0),
        EntryField("dealer", _("庄家"), "seat", "optional", choices=SEATS),
    ]


# The entry page's words for the values of the choices (the deal JSON's codes are English words)
# and the keys that choose them (the initial of the pinyin: 自摸 z, 翻 f, 炮 p; 无 0, 钓 d, 王 w, 闯 c).
VALUE_WORDS = {
    "winner": {None: _("黄庄")},
    "source": {"self": _("自摸"), "draw": _("他家翻出"), "discard": _("放炮")},
    "wang": {"none": _("无"), "wangdiao": _("王钓"), "wangdiaowang": _("王钓王"), "wangchuang": _("王闯")},
}
HOTKEYS = {
    "winner": {None: "h"},
    "source": {"self": "z", "draw": "f", "discard": "p"},
    "wang": {"none": "0", "wangdiao": "d", "wangdiaowang": "w", "wangchuang": "c"},
}
# How the entry page's keys work for this game's fields (shown above them).
ENTRY_HELP = _(
    "键盘：胡牌者按 E S W（或 1–3），黄庄按 H；王霸逐家（E S W）填张数，空着即 0（没有王霸）；"
    "胡息、红字数、省数填数字；来源按 Z（自摸）F（他家翻出）P（放炮）；王钓按 D、王钓王 W、王闯 C、无 0；"
    "Enter 按页面顺序跳到下一格，↑↓ 换行，Backspace 清除；Ctrl+Enter 保存并录下一副，Ctrl+S 保存。"
)


def entry_field_dicts(rules: Rules) -> list[dict[str, Any]]:
    """The entry page's fields (plain dicts, fresh copies): §3.2's keys in the order a referee
    records them. 胡息 takes any number the law can read (0–200): below `min_huxi` the engine
    refuses it in the law's words (V5) beside the field."""
    found = []
    for spec in entry_fields(rules):
        found.append(
            {
                "key": spec.key,
                "label": spec.label,
                "kind": spec.kind,
                "needed": spec.needed,
                "minimum": 0 if spec.key == "huxi" else spec.minimum,
                "maximum": spec.maximum,
                "choices": spec.choices,
                "default": spec.default,
                "words": dict(VALUE_WORDS.get(spec.key, {})),
                "hotkeys": dict(HOTKEYS.get(spec.key, {})),
            }
        )
    return found


# The deal key a refusal is about, by code, where its parameters do not name it (§3.2 V1–V11).
REFUSAL_KEYS = {
    "bad_wangba": "wangba",
    "bad_huxi": "huxi",
    "huxi_below_minimum": "huxi",
    "bad_red": "red",
    "bad_source": "source",
    "bad_from": "from",
    "wangba_self_draw_only": "source",
    "bad_wang": "wang",
    "bad_xing": "xing",
    "bad_adjusted": "adjusted",
}

# Players' statistics: wins, of them 自摸, 黄庄 played and the highest 番 of a win,
# counted from each stored deal (`seat_statistics`); an adjusted deal without its play counts
# as a deal only. `statistics_highest`: the figures a player's statistics keep the largest of
# (the others are sums).
STATISTICS = (
    ("wins", _("胡牌")),
    ("self_drawn", _("自摸")),
    ("huang", _("黄庄")),
    ("best_fan", _("最高番")),
)


def fan_of(deal: dict[str, Any]) -> int:
    """The 番 of a stored win (P3: colour × kind), 0 for a 黄庄 or a deal without its play."""
    if deal.get("winner") is None or "red" not in deal:
        return 0
    return colour_of(deal["red"])[1] * kind_of(deal.get("source"), deal.get("wang") or "none")[1]


def seat_statistics(deal: dict[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    """{seat: (won, won by 自摸, 黄庄, 番 of the win)} of one deal as stored (canonical JSON)."""
    deal = deal or {}
    played = "winner" in deal
    winner = deal.get("winner")
    huang = int(played and winner is None)
    fan = fan_of(deal)
    return {
        seat: (
            int(seat == winner),
            int(seat == winner and deal.get("source") == "self"),
            huang,
            fan if seat == winner else 0,
        )
        for seat in SEATS
    }


class Paohuzi(GameBase):
    id = GAME_ID
    name = GAME_NAME
    full_name = FULL_NAME
    seats = SEATS
    sides = SIDES
    rulesets = (GAME_ID,)
    default_ruleset = GAME_ID
    option_specs = DEAL_OPTIONS + EVENT_OPTIONS
    options = tuple(option.name for option in option_specs)
    # A match is a number of deals, not a points threshold: nothing for an event to choose here.
    match_thresholds = ()
    default_rules = DEFAULT_RULES
    event_kinds = ("individual",)  # §3.1: three players, each for himself, at tables of three
    generic_options = True
    deal_keys = ("dealer", "winner", *WIN_KEYS, "wangba")  # the deal is kept whole (`Deal.game_data`)
    takes_penalties = False  # the law has no penalty points: an arbiter adjusts the score
    # The law names no irregularity; the 2015 competition rules ask players not to delay play
    # and to call a referee on a dispute: the calls any table has, ruled without penalty points
    # (docs/games/paohuzi.md).
    call_kinds = calls.GENERIC_CALL_KINDS
    call_outcomes = calls.GENERIC_CALL_OUTCOMES
    breakdown_terms = BREAKDOWN_TERMS  # the words joining its notes, translated word by word
    statistics = tuple(name for name, _label in STATISTICS)
    statistics_labels = dict(STATISTICS)
    statistics_highest = ("best_fan",)
    seat_statistics = staticmethod(seat_statistics)
    entry_help = ENTRY_HELP

    def rules(
        self, ruleset: str = GAME_ID, options: dict[str, Any] | None = None, **settings: bool | float | str
    ) -> Rules | None:
        """The event's `Rules`: deal options as a dict, event options (`deals_per_match`,
        `standings`) as keywords. Raises `DealError` ("bad_option") for a wrong one."""
        if ruleset != GAME_ID:
            raise KeyError(ruleset)
        return rules_for(options, **settings)

    def read_deal(self, deal: dict[str, Any], rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
        return read_deal(deal, rules)

    # `score_deal(deal, rules=None)` itself, not a method around it: one call less a deal.
    score_deal = staticmethod(score_deal)

    def score_stored(
        self, rules: Rules, deal: dict[str, Any], adjusted: dict[str, bool | int] | list[int] | None = None
    ) -> dict[str, Any] | None:
        return score_stored(rules, deal, adjusted)

    def stored_statistics(self, rules: Rules, scored: dict[str, Any], adjusted: dict[str, int] | None = None) -> None:
        return None

    def entry_grid(self, rules: Rules) -> list[EntryField]:
        return entry_fields(rules)

    def entry_fields(self, rules: Rules | None = None) -> list[dict[str, Any]]:
        """The referee's entry page's fields (plain dicts, `scoring.entry.game_fields`)."""
        return entry_field_dicts(rules if rules is not None else DEFAULT_RULES)

    def refusal_key(self, error: DealError) -> str:
        """The deal key a refusal names (the entry page puts it beside that field), or None."""
        key = error.params.get("key") or error.params.get("where")
        if key in self.deal_keys:
            return key
        return REFUSAL_KEYS.get(error.code)

    def match_units(
        self, seat_scores: list[dict[str, int]], threshold: int = DEFAULT_RULES.event.deals_per_match
    ) -> list[TableMatch]:
        """A table's deals grouped into matches; `threshold` is the event's `deals_per_match`."""
        return split_matches(seat_scores, threshold)

    @staticmethod
    def next_dealer(dealer: Any, winner: Any) -> Any:
        return next_dealer(dealer, winner)

    @staticmethod
    def table_points(totals: dict[str, int]) -> dict[str, int]:
        return table_points(totals)

    def play_match(
        self, deals: list[dict[str, Any]], rules: Rules = DEFAULT_RULES, first_dealer: str | None = None
    ) -> dict[str, Any]:
        return play_match(deals, rules, first_dealer)

    def sample_deals(self, count: int, seed: int = 2026) -> list[dict[str, Any]]:
        from .samples import random_deals  # the benchmarks' generator, loaded only when asked

        return list(random_deals(count, seed))


PAOHUZI = Paohuzi()
