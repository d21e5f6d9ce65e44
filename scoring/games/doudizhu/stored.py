"""A stored deal of an event: its canonical fields and scores, an arbiter's adjusted score
(调整分) replacing the computed ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.common import adjusted_scores

from .cards import GAME_ID, PLAY_KEYS, SEATS
from .deal import validate_deal
from .engine import score_valid_deal

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.doudizhu.options import Rules

DEAL_KEYS = ("tianzha", "tianzun", *PLAY_KEYS)


def score_stored(
    rules: Rules, deal_json: dict[str, Any], adjusted: dict[str, bool | int] | list[int] | None = None
) -> dict[str, Any]:
    """`{**canonical deal, "game", "scores", "breakdown", "result"}`; raises `DealError`.

    With `adjusted` ({seat: int}) the scores are the arbiter's (result "adjusted", breakdown rule
    "adjusted"). A deal never finished may then leave out every key of the law; any it gives must
    still make a valid deal."""
    if adjusted is None:
        deal = validate_deal(deal_json, rules)
        return {**deal.as_json(), **score_valid_deal(deal, rules)}
    scores = adjusted_scores(adjusted, SEATS)
    if isinstance(deal_json, dict) and all(deal_json.get(key) is None for key in DEAL_KEYS):
        canonical = {"game": GAME_ID}
    else:
        canonical = validate_deal(deal_json, rules).as_json()
    breakdown = {seat: [{"rule": "adjusted", "value": scores[seat], "note": "调整分"}] for seat in SEATS}
    return {**canonical, "game": GAME_ID, "scores": scores, "breakdown": breakdown, "result": "adjusted"}
