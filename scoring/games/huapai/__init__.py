"""The 华牌 rules engine: pure Python, no Django, plain data in and out.

Everything that computes a score calls `score_deal` (deal JSON) or
`score_valid_deal` (an already validated `Deal`).
"""

from scoring.games.refusals import DealError

from .cards import EXPOSABLE, POINT_CARDS, SEATS, SIDES, card_label, parse_card
from .deal import EXPOSURES, PENALTY_MIN, ValidDeal, read_deal, validate_deal
from .engine import score_deal, score_valid_deal
from .game_totals import split_games
from .rulesets import DEFAULT_RULESET, OPTIONS, RULESETS, RuleSet, read_options, rules_for

__all__ = [
    "DEFAULT_RULESET",
    "EXPOSABLE",
    "EXPOSURES",
    "OPTIONS",
    "PENALTY_MIN",
    "POINT_CARDS",
    "RULESETS",
    "SEATS",
    "SIDES",
    "DealError",
    "RuleSet",
    "ValidDeal",
    "card_label",
    "parse_card",
    "read_deal",
    "read_options",
    "rules_for",
    "score_deal",
    "score_valid_deal",
    "split_games",
    "validate_deal",
]
