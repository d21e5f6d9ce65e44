"""A chief arbiter's ruling on a match that did not finish by itself (a game whose match carries
a state, 升级: a target level nobody passed when time was called). Pure and generic: the outcomes
a ruling may have, and reading one as stored or as an archive carries it; what an outcome means
for a match (who wins) is the game's (`Game.ruled_winner`), asked through `scoring.games.stored`.

A ruling is plain data, `{"outcome", "reason", "deals"}`: the outcome, the reason written with it
(required: a result nobody played to is decided in words), and the deals the match had when it was
ruled (the deals it is decided on; later deals are not expected).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.refusals import DealError, _

if TYPE_CHECKING:
    from scoring.games.base import Game

# "As it stands": the match is decided by where it stands (升级: the levels reached, equal levels
# drawn). "draw": drawn whatever it stands at. Otherwise a side of the game's (`Game.sides`), the
# winner the event's regulations name.
AS_IT_STANDS = "as_it_stands"
DRAWN = "draw"
REASON_LIMIT = 500


def ruling_outcomes(game: Game) -> tuple[str, ...]:
    """The outcomes a ruling on the game's match may have: as it stands, drawn, or a side."""
    return (AS_IT_STANDS, DRAWN, *game.sides)


def read_ruling(game: Game, raw: dict[str, str] | None, deals: int) -> dict:
    """A ruling as stored, from `{"outcome", "reason"}` (an archive's match, the arbiter's form):
    `{"outcome", "reason", "deals"}`, `deals` the deals the match had when ruled. Raises
    `DealError` (`bad_ruling`) for a ruling the game cannot have or one without a reason."""
    if not isinstance(raw, dict):
        raise DealError("bad_ruling", _("裁定必须是对象：outcome 与 reason"))
    outcome = raw.get("outcome")
    if outcome not in ruling_outcomes(game):
        raise DealError(
            "bad_ruling",
            _("裁定结果 {outcome!r:.40} 无效（可选：{allowed}）"),
            outcome=outcome,
            allowed=", ".join(ruling_outcomes(game)),
        )
    reason = raw.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise DealError("bad_ruling", _("裁定比赛结果必须写明理由"))
    if len(reason) > REASON_LIMIT:
        raise DealError("bad_ruling", _("裁定的理由不能超过 {limit} 个字"), limit=REASON_LIMIT)
    return {"outcome": outcome, "reason": reason.strip(), "deals": deals}
