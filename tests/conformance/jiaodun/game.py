"""叫墩 (Oh Hell, in the tests' own words): four players, each for himself, bid how many of the
13 tricks of a deal they will take; an exact bid scores a bonus, a missed one loses a point a
trick. Pure Python, as every game of the site is.

The law, a dozen rules:
- J1 A table is four seats N E S W; every player scores alone.
- J2 A deal JSON is `{"game": "jiaodun", "bids": {seat: int}, "tricks": {seat: int}, "options"?}`.
- J3 `bids` gives every seat, and only the seats, an integer 0–13 (`bad_bid`).
- J4 `tricks` likewise (`bad_tricks`).
- J5 The tricks add up to 13 (`tricks_total`).
- J6 With the option `hook` (default true) the bids do not add up to 13 (`hooked`).
- J7 A seat that took exactly its bid scores `exact_bonus` (default 10) plus its bid.
- J8 A seat that missed scores −(the difference) × `miss_cost` (default 1).
- J9 Deal options: `hook`, `exact_bonus` (0–50), `miss_cost` (1–5).
- J10 Event options: `deals_per_match` (1–100, default 4) and the games law's `standings`.
- J11 A match at a table is `deals_per_match` deals; its total per seat is the sum.
- J12 The law has no penalty points: an arbiter gives an adjusted score for all four seats.
"""

import random
from dataclasses import dataclass, replace

from scoring.games import calls
from scoring.games.base import GameBase
from scoring.games.common import STANDINGS, adjusted_scores, group_deals, table_points
from scoring.games.options import DEAL, EVENT, Option, read_option_values
from scoring.games.refusals import DealError, _, pgettext
from scoring.games.seats import TABLE_SEATS

GAME_ID = "jiaodun"
SEATS = TABLE_SEATS
TRICKS = 13
DEAL_KEYS = ("bids", "tricks", "options")

HOOK = Option(
    "hook",
    DEAL,
    True,
    _("叫墩总数不得等于 13"),
    choices=(True, False),
    short_label=_("叫墩限制"),
    phrase=_("叫墩总数%(value)s"),
    words=((True, _("不得等于 13")), (False, _("不限"))),
)
EXACT_BONUS = Option(
    "exact_bonus",
    DEAL,
    10,
    _("叫准的奖励分"),
    minimum=0,
    maximum=50,
    short_label=_("叫准奖励"),
    phrase=_("叫准奖励 %(value)s"),
)
MISS_COST = Option(
    "miss_cost",
    DEAL,
    1,
    _("每差一墩扣的分"),
    minimum=1,
    maximum=5,
    short_label=_("每差一墩"),
    phrase=_("每差一墩扣 %(value)s"),
)
DEALS_PER_MATCH = Option(
    "deals_per_match",
    EVENT,
    4,
    _("每场每桌打的副数"),
    minimum=1,
    maximum=100,
    short_label=_("每场副数"),
    phrase=_("每场 %(value)s 副"),
)
OPTION_SPECS = (HOOK, EXACT_BONUS, MISS_COST, DEALS_PER_MATCH, STANDINGS)
DEAL_OPTIONS = {spec.name: spec for spec in OPTION_SPECS if spec.level == DEAL}
EVENT_OPTIONS = {spec.name: spec for spec in OPTION_SPECS if spec.level == EVENT}


@dataclass(frozen=True)
class Rules:
    name: str = GAME_ID
    hook: bool = True
    exact_bonus: int = 10
    miss_cost: int = 1
    deals_per_match: int = 4
    standings: str = "total"


def _per_seat(raw, key, code):
    """J3/J4: every seat an integer 0–13, and only the seats."""
    if not isinstance(raw, dict) or set(raw) != set(SEATS):
        raise DealError(code, _("{key} 必须给出 N、E、S、W 每一家"), key=key)
    for seat in SEATS:
        value = raw[seat]
        if type(value) is not int or not 0 <= value <= TRICKS:
            raise DealError(code, _("{key} 中 {seat} 的值必须是 0 到 13 的整数"), key=key, seat=seat)
    return {seat: raw[seat] for seat in SEATS}


def read(deal, rules=None):
    """The canonical deal, or `DealError` for the first rule it breaks."""
    if not isinstance(deal, dict):
        raise DealError("bad_json", _("牌局必须是 JSON 对象"))
    rules = rules or Rules()
    overrides = read_option_values(deal.get("options"), DEAL_OPTIONS)
    rules = replace(rules, **overrides) if overrides else rules
    bids = _per_seat(deal.get("bids"), "bids", "bad_bid")
    tricks = _per_seat(deal.get("tricks"), "tricks", "bad_tricks")
    if sum(tricks.values()) != TRICKS:
        raise DealError("tricks_total", _("各家墩数之和必须是 13（现在是 {total}）"), total=sum(tricks.values()))
    if rules.hook and sum(bids.values()) == TRICKS:
        raise DealError("hooked", _("叫墩总数不得等于 13"))
    canonical = {"game": GAME_ID, "bids": bids, "tricks": tricks}
    if overrides:
        canonical["options"] = overrides
    return canonical, rules


def score(canonical, rules):
    scores, breakdown = {}, {}
    for seat in SEATS:
        bid, took = canonical["bids"][seat], canonical["tricks"][seat]
        if bid == took:
            value, rule, note = rules.exact_bonus + bid, "J7", f"叫 {bid} 得 {took}"
        else:
            value, rule, note = -abs(took - bid) * rules.miss_cost, "J8", f"叫 {bid} 得 {took}"
        scores[seat] = value
        breakdown[seat] = [{"rule": rule, "value": value, "note": note}]
    return {**canonical, "scores": scores, "breakdown": breakdown}


class Jiaodun(GameBase):
    id = GAME_ID
    name = _("叫墩")
    seats = SEATS
    sides = {seat: (seat,) for seat in SEATS}
    rulesets = (GAME_ID,)
    default_ruleset = GAME_ID
    options = tuple(spec.name for spec in OPTION_SPECS)
    option_specs = OPTION_SPECS
    match_thresholds = ()
    event_kinds = ("individual",)
    deal_keys = DEAL_KEYS
    generic_options = True
    takes_penalties = False
    # Its law names no irregularity: the calls any card table has, ruled without penalty points
    # (J12: an adjusted score for all four seats).
    call_kinds = calls.GENERIC_CALL_KINDS
    call_outcomes = calls.GENERIC_CALL_OUTCOMES
    breakdown_terms = (pgettext("breakdown", "叫"), pgettext("breakdown", "得"))
    statistics = ()

    def rules(self, ruleset=GAME_ID, options=None, **settings):
        if ruleset != GAME_ID:
            raise DealError("unknown_ruleset", _("未知规则 {name!r:.40}"), name=ruleset)
        deal = read_option_values(options, DEAL_OPTIONS)
        event = read_option_values(settings or None, EVENT_OPTIONS, "event")
        return Rules(**deal, **event)

    def read_deal(self, deal, rules=None):
        try:
            canonical, _rules = read(deal, rules)
        except DealError as error:
            return None, [error]
        return canonical, []

    def score_deal(self, deal, rules=None):
        return score(*read(deal, rules))

    def score_stored(self, rules, deal, adjusted=None):
        if adjusted is None:
            return score(*read(deal, rules))
        scores = adjusted_scores(adjusted, SEATS)
        given = isinstance(deal, dict) and any(deal.get(key) is not None for key in ("bids", "tricks"))
        canonical = read(deal, rules)[0] if given else {"game": GAME_ID}
        breakdown = {seat: [{"rule": "adjusted", "value": scores[seat], "note": "调整分"}] for seat in SEATS}
        return {**canonical, "scores": scores, "breakdown": breakdown, "result": "adjusted"}

    def stored_statistics(self, rules, scored, adjusted=None):
        return None

    def entry_fields(self, rules=None):
        return [
            {"key": "bids", "label": _("叫墩数"), "kind": "per_seat", "required": True, "minimum": 0, "maximum": 13},
            {"key": "tricks", "label": _("得墩数"), "kind": "per_seat", "required": True, "minimum": 0, "maximum": 13},
        ]

    def refusal_key(self, error):
        return error.params.get("key") if error.params.get("key") in DEAL_KEYS else None

    def entry_grid(self, rules=None):
        return self.entry_fields(rules)

    def match_units(self, side_scores, threshold=None):
        return group_deals(side_scores, threshold or DEALS_PER_MATCH.default, SEATS)

    def sample_deals(self, count, seed=2026):
        """Seeded valid deals: tricks that add up to 13, bids near them that do not."""
        rng = random.Random(seed)
        deals = []
        while len(deals) < count:
            cuts = sorted(rng.randint(0, TRICKS) for _ in range(3))
            taken = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], TRICKS - cuts[2]]
            tricks = dict(zip(SEATS, taken, strict=True))
            bids = {seat: max(0, min(TRICKS, tricks[seat] + rng.choice((-1, 0, 0, 1)))) for seat in SEATS}
            if sum(bids.values()) != TRICKS:
                deals.append({"game": GAME_ID, "bids": bids, "tricks": tricks})
        return deals

    table_points = staticmethod(table_points)


JIAODUN = Jiaodun()
