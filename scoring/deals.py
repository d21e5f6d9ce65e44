"""Translating stored deals to and from the rules engine. The only place the
site asks the engine for a deal's score."""

from scoring.rules import SEATS, DealError, RuleSet, read_deal, score_valid_deal
from scoring.rules.rulesets import RULESETS


def event_rules(event) -> RuleSet:
    """The event's rule set with its options (the 局 threshold)."""
    return RULESETS[event.ruleset].with_options(game_threshold=event.game_threshold)


def _adjusted_scores(adjusted):
    if not isinstance(adjusted, dict) or set(adjusted) != set(SEATS):
        raise DealError("bad_adjusted", "调整分必须给出四个座位的整数 / adjusted needs an integer for N, E, S and W")
    for seat in SEATS:
        value = adjusted[seat]
        if isinstance(value, bool) or not isinstance(value, int):
            raise DealError("bad_adjusted", f"{seat} 的调整分必须是整数 / adjusted {seat} must be an integer")
    return {seat: adjusted[seat] for seat in SEATS}


def _has_captures(deal_json):
    captured = deal_json.get("captured")
    return isinstance(captured, dict) and any(captured.values())


def score_stored(rules, deal_json, adjusted=None):
    """Score one deal of an event.

    Returns a dict with the canonical deal fields (`captured`, `holders`,
    `exposed`, `penalties`) and the engine's `scores`, `sides` and
    `breakdown`. An adjusted score (调整分) replaces the computed scores;
    penalties are still added. Raises `DealError`.
    """
    if adjusted is None:
        deal, problems = read_deal(dict(deal_json, ruleset=rules.name))
        if problems:
            raise problems[0]
        return {**deal.as_json(), **score_valid_deal(deal, rules)}
    scores = _adjusted_scores(adjusted)
    # An arbiter may adjust a deal that was never finished: captures are
    # optional then, but when given they must still make a valid deal.
    if _has_captures(deal_json):
        deal, problems = read_deal(dict(deal_json, ruleset=rules.name))
        if problems:
            raise problems[0]
        canonical = deal.as_json()
    else:
        canonical = {"captured": {seat: [] for seat in SEATS}, "holders": {}, "exposed": {}}
        canonical["penalties"] = _penalties_only(deal_json)
    penalties = canonical["penalties"]
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
        "sides": {"NS": scores["N"] + scores["S"], "EW": scores["E"] + scores["W"]},
        "breakdown": breakdown,
    }


def _penalties_only(deal_json):
    """Penalties of an adjusted deal without captures, validated like any deal's penalties."""
    probe = {"captured": {seat: [] for seat in SEATS}, "penalties": deal_json.get("penalties") or {}}
    _, problems = read_deal(probe)
    bad = [p for p in problems if p.code in {"bad_penalty", "unknown_seat", "bad_deal"}]
    if bad:
        raise bad[0]
    return {seat.strip().upper(): points for seat, points in (deal_json.get("penalties") or {}).items() if points}


def apply_result(stored, scored):
    """Write a `score_stored` result (canonical deal and scores) onto a `models.Deal`."""
    stored.captured = scored["captured"]
    stored.holders = scored["holders"]
    stored.exposed = scored["exposed"]
    stored.penalties = scored["penalties"]
    stored.set_scores(scored["scores"], stored.penalties)
