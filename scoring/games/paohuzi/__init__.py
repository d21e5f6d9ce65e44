"""The 跑胡子 / 永州双王扯胡子 rules engine (law §3 of shared/rules/games/README.md): pure Python,
no Django, plain data in and out. Everything that scores a deal calls `score_deal` (deal JSON)
or `score_valid_deal` (a `ValidDeal` read by `validate_deal` / `read_deal`)."""

from scoring.games.refusals import DealError

from .cards import GAME_ID, NEXT_SEAT, SEATS, SIDES
from .deal import ValidDeal, read_deal, validate_deal
from .engine import amount_of, score_deal, score_valid_deal
from .match import TableMatch, leaders, next_dealer, play_match, split_matches, table_points
from .options import (
    DEAL_OPTIONS,
    DEFAULT_RULES,
    EVENT_OPTIONS,
    DealOptions,
    EventOptions,
    Rules,
    read_deal_options,
    read_event_options,
    rules_for,
)
from .samples import random_deals

__all__ = [
    "DEAL_OPTIONS",
    "DEFAULT_RULES",
    "EVENT_OPTIONS",
    "GAME_ID",
    "NEXT_SEAT",
    "SEATS",
    "SIDES",
    "DealError",
    "DealOptions",
    "EventOptions",
    "Rules",
    "TableMatch",
    "ValidDeal",
    "amount_of",
    "leaders",
    "next_dealer",
    "play_match",
    "random_deals",
    "read_deal",
    "read_deal_options",
    "read_event_options",
    "rules_for",
    "score_deal",
    "score_valid_deal",
    "split_matches",
    "table_points",
    "validate_deal",
]
