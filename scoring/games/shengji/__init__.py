"""The 升级 rules engine (law §2 of shared/rules/games/README.md): pure Python, no Django,
plain data in and out.

`score_deal` scores one deal JSON object; `shengji_match` plays a match's list of deals;
`SHENGJI` is the game behind the `Game` protocol.
"""

from scoring.games.refusals import DealError

from .cards import RANKS, SEATS, SIDES, rank
from .deal import GAME_ID, State, ValidDeal, check_deal, read_deal, read_state, validate_deal
from .engine import next_state, score_deal, score_valid_deal
from .game import SHENGJI, EntryField, Shengji
from .match import MATCH_POINTS, match_outcome, match_standing, shengji_match
from .options import (
    DEAL_OPTIONS,
    DEFAULT_RULESET,
    EVENT_OPTIONS,
    RULESETS,
    Rules,
    read_deal_options,
    read_event_options,
    rules_for,
)
from .samples import random_deals

__all__ = [
    "DEAL_OPTIONS",
    "DEFAULT_RULESET",
    "EVENT_OPTIONS",
    "GAME_ID",
    "MATCH_POINTS",
    "RANKS",
    "RULESETS",
    "SEATS",
    "SHENGJI",
    "SIDES",
    "DealError",
    "EntryField",
    "Rules",
    "Shengji",
    "State",
    "ValidDeal",
    "check_deal",
    "match_outcome",
    "match_standing",
    "next_state",
    "random_deals",
    "rank",
    "read_deal",
    "read_deal_options",
    "read_event_options",
    "read_state",
    "rules_for",
    "score_deal",
    "score_valid_deal",
    "shengji_match",
    "validate_deal",
]
