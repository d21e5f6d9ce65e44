"""A 升级 match at one table (law §2.1 M1–M4): the state threaded from deal to deal, how the
match ends and who wins. `shengji_match` plays a whole list of deals; the site, which stores
one deal at a time, threads each result's `"state"` into the next deal and asks
`match_outcome` whether the match has ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.refusals import DealError, _

from .cards import rank
from .deal import State, check_deal, side_label
from .engine import next_state
from .options import read_event_options

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.shengji.options import Rules


def _state(raw: dict[str, dict[str, int] | str] | State) -> State:
    if raw is None or isinstance(raw, State):
        return raw
    levels = raw["levels"]
    return State(raw["declarer"], levels["NS"], levels["EW"])


def match_outcome(
    state: dict[str, dict[str, int] | str] | State, deals_played: int, rules: Rules
) -> tuple[bool, str | None]:
    """`(finished, winner)` of a match that has reached `state` (a `State`, its JSON, or None
    before the first deal) after `deals_played` deals: the first side above `target` wins
    (M2); after `deals` deals the higher level wins, equal levels draw (M3); whichever comes
    first (M4). `winner` is "NS", "EW", "draw", or None while the match goes on."""
    state = _state(state)
    if state is None:
        return False, None
    above_target = rules.target is not None and max(state.ns, state.ew) > rules.target
    deals_done = rules.deals is not None and deals_played >= rules.deals
    if not (above_target or deals_done):
        return False, None
    if state.ns == state.ew:
        return True, "draw"
    return True, "NS" if state.ns > state.ew else "EW"


def _refusal(error: DealError, position: int | None = None) -> dict[str, dict[str, int | str]]:
    result = error.as_json()
    if position is not None:
        result["error"]["deal"] = position
    return result


def shengji_match(deals: list[dict[str, Any] | str] | str, options: Any = None) -> dict[str, Any]:
    """A whole match: `{"state", "ranks", "deals_played", "finished", "winner"}`, or
    `{"error": {"code", "message", "deal"}}` for the first refused deal, `"deal"` being its
    position in the list counted from 1 (an error in the options or the list names no deal).

    `options` are the event's match options (a dict, or `Rules`). Before any deal the state
    is null and both sides' ranks are the start level's.
    """
    try:
        rules = read_event_options(options)
    except DealError as error:
        return _refusal(error)
    if not isinstance(deals, list | tuple):
        return _refusal(DealError("bad_json", _("一场比赛必须是牌局的列表")))
    state, played, finished, winner = None, 0, False, None
    for position, raw in enumerate(deals, 1):
        if finished:
            return _refusal(match_over(played, winner, position), position)
        try:
            deal = check_deal(raw, rules.start_level, reached=state)
        except DealError as error:
            return _refusal(error, position)
        state = next_state(deal.before, deal.points)[0]
        played += 1
        finished, winner = match_outcome(state, played, rules)
    if state is None:
        ranks = {"NS": rank(rules.start_level), "EW": rank(rules.start_level)}
    else:
        ranks = {"NS": rank(state.ns), "EW": rank(state.ew)}
    return {
        "state": None if state is None else state.as_json(),
        "ranks": ranks,
        "deals_played": played,
        "finished": finished,
        "winner": winner,
    }


def match_over(played: int, winner: str, position: int) -> DealError:
    # 副 (a deal), never 局: 升级 has no 局, and the site calls a board 副 everywhere.
    if winner == "draw":
        return DealError(
            "match_over",
            _("比赛已在第 {ended} 副结束，双方打平；第 {position} 副不能再记"),
            ended=played,
            position=position,
        )
    return DealError(
        "match_over",
        _("比赛已在第 {ended} 副结束，{winner} 获胜；第 {position} 副不能再记"),
        ended=played,
        winner=side_label(winner),
        position=position,
    )


MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}


def match_standing(result: dict[str, Any]) -> dict[str, dict[str, int]] | None:
    """What a finished match gives each side for the standings (§2.1 Standings): its 场分
    (win 2, draw 1, loss 0) and its level minus the opponent's, the first tie-break. None for
    a match that has not finished (or a refusal)."""
    if not result.get("finished"):
        return None
    levels, winner = result["state"]["levels"], result["winner"]
    standing = {}
    for side, other in (("NS", "EW"), ("EW", "NS")):
        outcome = "draw" if winner == "draw" else "win" if winner == side else "loss"
        standing[side] = {"match_points": MATCH_POINTS[outcome], "level_difference": levels[side] - levels[other]}
    return standing
