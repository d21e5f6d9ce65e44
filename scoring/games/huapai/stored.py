"""Translating stored deals to and from the rules engine. The only place the
site asks the engine for a deal's score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games import common
from scoring.games.huapai import SEATS, DealError, RuleSet, read_deal, rules_for, score_valid_deal
from scoring.games.refusals import _

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.huapai.deal import ValidDeal

# An arbiter's adjusted score (调整分) per seat lies within these bounds (§0's, for every game;
# named here for the entry form's fields, scoring/web/forms.py).
ADJUSTED_LIMIT = common.ADJUSTED_LIMIT


def event_rules(event: Any) -> RuleSet:
    """The event's rule set with its per-event options and 局 threshold."""
    return rules_for(event.ruleset, event.options or None).with_options(game_threshold=event.game_threshold)


def _has_captures(deal_json: dict[str, Any]) -> bool:
    captured = deal_json.get("captured")
    return isinstance(captured, dict) and any(captured.values())


def _read(rules: Any, deal_json: dict[str, Any]) -> ValidDeal:
    deal, problems = read_deal(deal_json, rules=rules)
    if problems:
        raise problems[0]
    return deal


def score_stored(
    rules: Any, deal_json: dict[str, Any], adjusted: dict[str, int] | None = None
) -> dict[str, dict[str, Any] | str]:
    """Score one deal of an event.

    Returns a dict with the canonical deal fields (`captured`, `holders`,
    `exposed`, `penalties`) and the engine's `scores`, `raw`, `sides` and
    `breakdown`. An adjusted score (调整分) replaces the computed scores and is
    the deal's raw score; penalties are still added. Raises `DealError`.
    """
    if not isinstance(deal_json, dict):
        raise DealError("bad_deal", _("牌局必须是 JSON 对象"))
    if adjusted is None:
        deal = _read(rules, deal_json)
        return {**deal.as_json(), **score_valid_deal(deal, rules)}
    scores = common.adjusted_scores(adjusted, SEATS)
    # An arbiter may adjust a deal that was never finished: captures are
    # optional then, but when given they must still make a valid deal.
    if _has_captures(deal_json):
        canonical = _read(rules, deal_json).as_json()
    else:
        canonical = {"captured": {seat: [] for seat in SEATS}, "holders": {}, "exposed": {}}
        canonical["penalties"] = _penalties_only(rules, deal_json)
    penalties = canonical["penalties"]
    raw = dict(scores)
    breakdown = {
        seat: [{"rule": "adjusted", "points": scores[seat], "text": f"调整分 {scores[seat]}"}] for seat in SEATS
    }
    for seat, points in penalties.items():
        scores[seat] += points
        breakdown[seat].append({"rule": "penalty", "points": points, "text": f"罚分 {points}"})
    return {
        **canonical,
        "ruleset": rules.name,
        "scores": scores,
        "raw": raw,
        "sides": {"NS": scores["N"] + scores["S"], "EW": scores["E"] + scores["W"]},
        "breakdown": breakdown,
    }


def _penalties_only(rules: Any, deal_json: dict[str, Any]) -> dict[str, int]:
    """Penalties of an adjusted deal without captures, read by the engine like any deal's:
    with no cards at all (`captured` empty) only the penalties can be wrong."""
    return _read(rules, {"captured": {}, "penalties": deal_json.get("penalties")}).as_json()["penalties"]
