"""The 蚌埠斗地主 rules engine (law §1, `bengbu-doudizhu`): pure Python, plain data in and out.

Everything that computes a score calls `score_deal` (deal JSON) or `score_valid_deal` (a
`ValidDeal`); `DOUDIZHU` is the game behind the `Game` protocol.
"""

from scoring.games.refusals import DealError

from .cards import GAME_ID, GAME_NAME, SEATS
from .deal import ValidDeal, read_deal, validate_deal
from .engine import BREAKDOWN_TERMS, score_deal, score_valid_deal
from .game import DOUDIZHU
from .match import first_bidder, match_units, score_match, standing_points, table_points, winners
from .options import DEAL_OPTIONS, EVENT_OPTIONS, OPTIONS, Rules, rules_for
from .stored import score_stored

__all__ = [
    "BREAKDOWN_TERMS",
    "DEAL_OPTIONS",
    "DOUDIZHU",
    "EVENT_OPTIONS",
    "GAME_ID",
    "GAME_NAME",
    "OPTIONS",
    "SEATS",
    "DealError",
    "Rules",
    "ValidDeal",
    "first_bidder",
    "match_units",
    "read_deal",
    "rules_for",
    "score_deal",
    "score_match",
    "score_stored",
    "score_valid_deal",
    "standing_points",
    "table_points",
    "validate_deal",
    "winners",
]
