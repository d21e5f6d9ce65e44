"""Reading a 升级 deal: the common checks G1–G3 (law §0) and V1–V3 (§2.2), in that order.

The first failure is the deal's refusal (`DealError` with the law's code and a message that
names the key, side or value at fault); any JSON value of any type is a refusal, never
another exception. A match reads each deal against the state it has reached (M1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from scoring.games.refusals import DealError, Text, _, shown

from .cards import LEVEL_MAX, LEVEL_MIN, POINTS_STEP, POINTS_TOTAL, SIDE_SET
from .options import START_LEVEL, read_deal_options

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.refusals import _Shown
    from scoring.games.shengji.options import Rules

GAME_ID = "shengji"
ALONE = object()  # `reached` of a deal read on its own, outside a match


class State(NamedTuple):
    """The state between two deals: the side on 台上 and both sides' absolute levels."""

    declarer: str
    ns: int
    ew: int

    def as_json(self) -> dict[str, dict[str, int] | str]:
        return {"declarer": self.declarer, "levels": {"NS": self.ns, "EW": self.ew}}


class ValidDeal(NamedTuple):
    """A valid deal: the state before it (`first`: none was given, both sides at the start
    level) and the points the 台下 side captured."""

    before: State
    points: int
    first: bool

    def as_json(self) -> dict[str, Any]:
        """The deal in canonical form: what a referee recorded, nothing the law ignores."""
        if self.first:
            deal = {"declarer": self.before.declarer, "points": self.points}
            if self.before.ns != START_LEVEL.default:
                deal["options"] = {"start_level": self.before.ns}
            return deal
        return {"state": self.before.as_json(), "points": self.points}


# A side named in full, one message a side: put together from the short name ("东西" is "EW" in
# English, the table's column) it read "EW (EW)".
SIDE_LABELS = {"NS": _("南北(NS)"), "EW": _("东西(EW)")}


def side_label(side: str) -> Text:
    """A side named in a message: 南北(NS), or North-South (NS) in English."""
    return Text(SIDE_LABELS[side])


def _bad_state(template: str, **params: float | _Shown | str | None) -> DealError:
    return DealError("bad_state", template, **params)


def _level(levels: dict[str, Any], side: str) -> int:
    value = levels.get(side)
    if type(value) is not int or not LEVEL_MIN <= value <= LEVEL_MAX:
        raise _bad_state(
            _("“state” 的 levels.{side} 必须是 {low} 到 {high} 的整数，而不是 {value!r:.40}"),
            side=side,
            low=LEVEL_MIN,
            high=LEVEL_MAX,
            value=shown(value),
        )
    return value


def read_state(raw: dict[str, dict[str, Any] | str] | int | None) -> State | None:
    """V1: the state a deal carries, or None when it carries none (absent or null)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _bad_state(_("“state” 必须是对象，而不是 {value!r:.40}"), value=shown(raw))
    declarer = raw.get("declarer")
    if type(declarer) is not str or declarer not in SIDE_SET:
        raise _bad_state(_('“state” 的 declarer 必须是 "NS" 或 "EW"，而不是 {value!r:.40}'), value=shown(declarer))
    levels = raw.get("levels")
    if not isinstance(levels, dict):
        raise _bad_state(_("“state” 的 levels 必须是对象，而不是 {value!r:.40}"), value=shown(levels))
    ns, ew = _level(levels, "NS"), _level(levels, "EW")
    if len(levels) > 2:
        extra = next((key for key, value in levels.items() if key not in SIDE_SET and value is not None), None)
        if extra is not None:
            raise _bad_state(_("“state” 的 levels 只能有 NS 和 EW，不能有 {key!r:.40}"), key=shown(extra))
    return State(declarer, ns, ew)


def _declarer(raw: dict[str, Any], state: State | None) -> str:
    """V2: the side on 台上 in this deal."""
    declarer = raw.get("declarer")
    if declarer is None:
        if state is None:
            raise DealError("missing_key", _("第一副缺少“declarer”（台上的一方：NS 或 EW）"))
        return state.declarer
    if type(declarer) is not str or declarer not in SIDE_SET:
        raise DealError(
            "unknown_side", _('“declarer” 必须是 "NS" 或 "EW"，而不是 {value!r:.40}'), value=shown(declarer)
        )
    if state is not None and declarer != state.declarer:
        raise DealError(
            "declarer_mismatch",
            _("“declarer” 为 {declarer}，但“state”中台上的是 {expected}"),
            declarer=side_label(declarer),
            expected=side_label(state.declarer),
        )
    return declarer


def _points(raw: dict[str, Any]) -> int:
    """V3: the points the 台下 side captured."""
    points = raw.get("points")
    if points is None:
        raise DealError("missing_key", _("缺少“points”（台下一方的得分）"))
    if type(points) is not int or not 0 <= points <= POINTS_TOTAL or points % POINTS_STEP:
        raise DealError(
            "bad_points",
            _("“points” 必须是 0 到 {total} 之间 {step} 的倍数，而不是 {value!r:.40}"),
            total=POINTS_TOTAL,
            step=POINTS_STEP,
            value=shown(points),
        )
    return points


def check_deal(raw: dict[str, Any] | str, start_level: int | None = None, reached: Any = ALONE) -> ValidDeal | None:
    """The `ValidDeal` a deal JSON object records; raises its first refusal.

    `start_level` (an event's or a match's) replaces the deal's own option, which is still
    checked. `reached` is the state a match has reached before this deal (None before its
    first deal): a deal's own state must then equal it (M1, `state_mismatch`), and the deal
    is read as carrying it.
    """
    if not isinstance(raw, dict):  # G1
        raise DealError("bad_json", _("牌局必须是 JSON 对象"))
    game = raw.get("game")
    if game is not None and game != GAME_ID:  # G2: the dispatcher strips the key; a direct call may not
        raise DealError("unknown_game", _("未知的游戏 {game!r:.40}"), game=shown(game))
    own_start = read_deal_options(raw.get("options"))  # G3
    if start_level is None:
        start_level = own_start
    state = read_state(raw.get("state"))  # V1
    if reached is not ALONE:
        if state is not None and state != reached:
            if reached is None:
                raise DealError("state_mismatch", _("比赛的第一副不能带“state”：双方从 start_level 开始"))
            raise DealError(
                "state_mismatch",
                _("“state” 与比赛进行到的状态不符：应为台上 {declarer}，级数 NS {ns}、EW {ew}"),
                declarer=side_label(reached.declarer),
                ns=reached.ns,
                ew=reached.ew,
            )
        state = reached
    declarer = _declarer(raw, state)  # V2
    points = _points(raw)  # V3
    if state is None:
        return ValidDeal(State(declarer, start_level, start_level), points, True)
    return ValidDeal(state, points, False)


def quick_read(raw: dict[str, Any], start_level: int = 1) -> tuple[str, int, int, int] | None:
    """The usual valid deal without options, read without the checks' machinery:
    `(declarer, NS level, EW level, points)` before the deal, or None for any other value,
    which `check_deal` then reads (and refuses, or accepts alike). Scoring a stream of deals
    is mostly this (tests/games/shengji/test_validation.py holds the two readings equal)."""
    if type(raw) is not dict or raw.get("options") is not None:
        return None
    game = raw.get("game")
    points = raw.get("points")
    if (
        (game is not None and game != GAME_ID)
        or type(points) is not int
        or not 0 <= points <= POINTS_TOTAL
        or points % POINTS_STEP
    ):
        return None
    state = raw.get("state")
    declarer = raw.get("declarer")
    if state is None:
        if type(declarer) is str and declarer in SIDE_SET:
            return declarer, start_level, start_level, points
        return None
    if type(state) is not dict:
        return None
    levels = state.get("levels")
    if type(levels) is not dict or len(levels) != 2:
        return None
    ns, ew, on = levels.get("NS"), levels.get("EW"), state.get("declarer")
    if (
        type(ns) is int
        and type(ew) is int
        and LEVEL_MIN <= ns <= LEVEL_MAX
        and LEVEL_MIN <= ew <= LEVEL_MAX
        and type(on) is str
        and on in SIDE_SET
        and (declarer is None or declarer == on)
    ):
        return on, ns, ew, points
    return None


def read_deal(raw: dict[str, Any], rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
    """`(deal, problems)`: a `ValidDeal` and `[]`, or None and the one refusal (the law's
    first failure wins). `rules` (an event's) give the start level of a first deal."""
    try:
        return check_deal(raw, None if rules is None else rules.start_level), []
    except DealError as problem:
        return None, [problem]


def validate_deal(raw: dict[str, Any], rules: Rules | None = None) -> ValidDeal | None:
    return check_deal(raw, None if rules is None else rules.start_level)
