"""升级 as a `Game` (scoring.games.base): law §2 of ../shared/rules/games/README.md behind
the protocol, and what the protocol does not have (deal options, a match by levels) beside it."""

from dataclasses import dataclass

from scoring.games.refusals import DealError, _

from .cards import POINTS_STEP, POINTS_TOTAL, SEATS, SIDES
from .deal import GAME_ID, read_deal, validate_deal
from .engine import score_deal, score_valid_deal
from .match import match_outcome, match_standing, shengji_match
from .options import DEFAULT_RULESET, EVENT_OPTIONS, RULESETS, read_event_options, rules_for
from .terms import BREAKDOWN_TERMS


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field a referee fills in for a deal, described as plain data for the entry page.
    `first_deal_only`: asked on a match's first deal only (later deals take the state)."""

    key: str
    label: str
    kind: str  # "choice" or "integer"
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    first_deal_only: bool = False


ENTRY_FIELDS = [
    EntryField("declarer", _("台上"), "choice", choices=tuple(SIDES), first_deal_only=True),
    EntryField("points", _("台下得分"), "integer", minimum=0, maximum=POINTS_TOTAL, step=POINTS_STEP),
]


class Shengji:
    id = GAME_ID
    name = "升级"
    seats = SEATS
    sides = SIDES
    rulesets = tuple(RULESETS)
    default_ruleset = DEFAULT_RULESET
    # start_level (a deal option the event sets too), then the event (match) options target, deals
    option_specs = tuple(EVENT_OPTIONS.values())
    options = tuple(EVENT_OPTIONS)
    # 升级 has no score threshold: a match ends by levels (`match`, `match_outcome`).
    match_thresholds = ()
    # What the site asks (`scoring.games.stored`). Events of 升级 are not run yet: a pairs match
    # is won by levels, which the standings do not read yet (issue 24); `score_deal` scores it.
    event_kinds = ()
    deal_keys = ("declarer", "points", "state")
    generic_options = True
    takes_penalties = False  # the law has no penalty points
    breakdown_terms = BREAKDOWN_TERMS
    statistics = ()

    def rules(self, ruleset=DEFAULT_RULESET, options=None, **settings):
        return rules_for(ruleset, options, **settings)

    def stored_statistics(self, rules, scored, adjusted=None):
        return None

    def read_deal(self, deal, rules=None):
        return read_deal(deal, rules)

    # Deal JSON in, result out (raises `DealError`); the engine's own function, called per line.
    score_deal = staticmethod(score_deal)

    def score_stored(self, rules, deal, adjusted=None):
        """A stored deal's result with its canonical form under `"deal"` (the result's
        `"state"` is the state after the deal, the deal's the state before). An adjusted score
        is refused: the levels are the match's state, so an arbiter corrects the points."""
        if adjusted is not None:
            raise DealError("bad_adjusted", _("升级不设调整分：请更正台下得分"))
        valid = validate_deal(deal, rules)
        return {**score_valid_deal(valid), "deal": valid.as_json()}

    def entry_grid(self, rules=None):
        """The deal's fields as plain descriptions (`EntryField`), not 华牌's point-card rows."""
        return list(ENTRY_FIELDS)

    def match_units(self, side_scores, threshold=None):
        """No units by score: a 升级 match is won by levels, so this is always empty."""
        return []

    def match(self, deals, options=None):
        """`shengji_match`: a whole match from its deals and the event's match options."""
        return shengji_match(deals, options)

    def match_outcome(self, state, deals_played, rules):
        return match_outcome(state, deals_played, read_event_options(rules))

    def match_standing(self, result):
        """A finished match's 场分 and level difference per side (`match_standing`)."""
        return match_standing(result)


SHENGJI = Shengji()
