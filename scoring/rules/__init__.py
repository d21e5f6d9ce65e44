"""The 华牌 rules engine: pure Python, no Django, plain data in and out.

Everything that computes a score calls `score_deal` (deal JSON) or
`score_valid_deal` (an already validated `Deal`).
"""

from .cards import EXPOSABLE, POINT_CARDS, SEATS, SIDES, card_label, parse_card
from .deal import EXPOSURES, Deal, read_deal, validate_deal
from .engine import score_deal, score_valid_deal
from .errors import DealError
from .games import split_games
from .rulesets import DEFAULT_RULESET, RULESETS, RuleSet

__all__ = [
    "DEFAULT_RULESET",
    "EXPOSABLE",
    "EXPOSURES",
    "POINT_CARDS",
    "RULESETS",
    "SEATS",
    "SIDES",
    "Deal",
    "DealError",
    "RuleSet",
    "card_label",
    "parse_card",
    "read_deal",
    "score_deal",
    "score_valid_deal",
    "split_games",
    "validate_deal",
]
