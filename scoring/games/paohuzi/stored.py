"""A stored 跑胡子 deal scored for the site: its canonical fields and its result, or an
arbiter's adjusted score (调整分) in place of the computed one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.common import adjusted_scores
from scoring.games.refusals import DealError, _

from .cards import GAME_ID, SEATS
from .deal import validate_deal
from .engine import score_valid_deal

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.paohuzi.options import Rules


def score_stored(
    rules: Rules, deal_json: dict[str, Any], adjusted: dict[str, bool | int] | list[int] | None = None
) -> dict[str, Any]:
    """Score one deal of an event under the event's `Rules`.

    Returns the canonical deal fields (`ValidDeal.as_json`) with the result (`game`, `scores`,
    `breakdown`, `result`, `amount`), plus `raw` (the scores before any adjustment) and `sides`
    (each seat is its own side). An adjusted score replaces the computed one; the deal's own
    fields are then optional (an unfinished deal), but when it names a `winner` it must be valid.
    Raises `DealError`.
    """
    if adjusted is None:
        deal = validate_deal(deal_json, rules)
        result = score_valid_deal(deal)
        return {**deal.as_json(), **result, "raw": dict(result["scores"]), "sides": dict(result["scores"])}
    scores = adjusted_scores(adjusted, SEATS)
    if not isinstance(deal_json, dict):
        raise DealError("bad_json", _("牌局必须是 JSON 对象"))
    canonical = validate_deal(deal_json, rules).as_json() if "winner" in deal_json else {}
    breakdown = {
        seat: [{"rule": "adjusted", "value": scores[seat], "note": f"调整分 {scores[seat]}"}] for seat in SEATS
    }
    return {
        **canonical,
        "game": GAME_ID,
        "scores": scores,
        "breakdown": breakdown,
        "result": "adjusted",
        "raw": dict(scores),
        "sides": dict(scores),
    }
