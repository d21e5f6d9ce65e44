"""跑胡子 as a `Game` (scoring.games.base): law §3 of shared/rules/games/README.md behind the protocol.

Beyond the protocol, the class offers `entry_fields` (the same as `entry_grid`), `next_dealer`,
`table_points` and `play_match`.
"""

from dataclasses import dataclass

from scoring.games.refusals import _

from .cards import FULL_NAME, GAME_ID, GAME_NAME, MAX_HUXI, MAX_RED, MAX_XING, SEATS, SIDES, SOURCES, WANGS, WIN_KEYS
from .deal import read_deal
from .engine import score_deal
from .match import next_dealer, play_match, split_matches, table_points
from .options import DEAL_OPTIONS, DEFAULT_RULES, EVENT_OPTIONS, rules_for
from .stored import score_stored
from .terms import BREAKDOWN_TERMS


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


def entry_fields(rules):
    """The deal's fields in the order a referee records them (§3.2)."""
    return [
        EntryField("winner", _("胡牌者（空：黄庄）"), "seat_or_huang", "always", choices=SEATS),
        EntryField("wangba", _("王霸（每家张数）"), "per_seat", "always", minimum=0, maximum=2, default=0),
        EntryField("huxi", _("胡息"), "int", "win", minimum=rules.deal.min_huxi, maximum=MAX_HUXI),
        EntryField("red", _("红字数"), "int", "win", minimum=0, maximum=MAX_RED),
        EntryField("source", _("胡牌来源"), "choice", "win", choices=SOURCES),
        EntryField("from", _("放炮/翻牌者"), "seat", "discard", choices=SEATS),
        EntryField("wang", _("王钓/王钓王/王闯"), "choice", "win", choices=WANGS, default="none"),
        EntryField("xing", _("省数"), "int", "win", minimum=0, maximum=MAX_XING, default=0),
        EntryField("dealer", _("庄家"), "seat", "optional", choices=SEATS),
    ]


class Paohuzi:
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
    # §3.1: three players, each for himself — but tables of three are not built yet (issue 24):
    # no events of 跑胡子 until they are; `score_deal` scores its deals.
    event_kinds = ()
    generic_options = True
    deal_keys = ("dealer", "winner", *WIN_KEYS, "wangba")  # the deal is kept whole (`Deal.game_data`)
    takes_penalties = False  # the law has no penalty points: an arbiter adjusts the score
    breakdown_terms = BREAKDOWN_TERMS
    statistics = ()

    def rules(self, ruleset=GAME_ID, options=None, **settings):
        """The event's `Rules`: deal options as a dict, event options (`deals_per_match`,
        `standings`) as keywords. Raises `DealError` ("bad_option") for a wrong one."""
        if ruleset != GAME_ID:
            raise KeyError(ruleset)
        return rules_for(options, **settings)

    def read_deal(self, deal, rules=None):
        return read_deal(deal, rules)

    # `score_deal(deal, rules=None)` itself, not a method around it: one call less a deal.
    score_deal = staticmethod(score_deal)

    def score_stored(self, rules, deal, adjusted=None):
        return score_stored(rules, deal, adjusted)

    def stored_statistics(self, rules, scored, adjusted=None):
        return None

    def entry_grid(self, rules):
        return entry_fields(rules)

    def match_units(self, seat_scores, threshold=DEFAULT_RULES.event.deals_per_match):
        """A table's deals grouped into matches; `threshold` is the event's `deals_per_match`."""
        return split_matches(seat_scores, threshold)

    @staticmethod
    def next_dealer(dealer, winner):
        return next_dealer(dealer, winner)

    @staticmethod
    def table_points(totals):
        return table_points(totals)

    def play_match(self, deals, rules=DEFAULT_RULES, first_dealer=None):
        return play_match(deals, rules, first_dealer)


PAOHUZI = Paohuzi()
