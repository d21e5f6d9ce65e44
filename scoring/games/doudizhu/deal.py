"""Reading a deal (law §0 G1–G3, §1.2 V1–V8): first failure wins, each with the law's code.

`validate_deal` returns a `ValidDeal` or raises the first `DealError`; `read_deal` is the
protocol's form, `(deal, [])` or `(None, [the refusal])`. Any JSON value of any type anywhere
is a refusal with a code, never another exception. A key whose value is null is absent; keys
the law does not define are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring.games.refusals import DealError, _, preview

from .cards import (
    BASE_OF_BID,
    FEIDAN_MOST_FARMER,
    FEIDAN_MOST_LANDLORD,
    GAME_ID,
    GRAB,
    PASS,
    PLAY_KEYS,
    SEAT_SET,
    SEATS,
    seat_label,
)
from .options import DEFAULT_RULES, Rules, apply_options, check_options

if TYPE_CHECKING:
    from typing import Any


@dataclass(slots=True)
class ValidDeal:
    """A valid deal. A 天炸/天尊 deal (`tian`) has only `tianzha` and `tianzun`; a played deal
    has the rest, with `open` true for "grab" and `feidan` holding only seats with 飛彈."""

    rules: Rules
    tian: bool = False
    tianzha: tuple = ()  # seats dealt 天炸, in the order given
    tianzun: str | None = None
    landlord: str | None = None
    bid: int | str | None = None  # 1, 2, 3 or "grab"
    open: bool = False
    first_out: str | None = None
    feidan: dict = field(default_factory=dict)  # seat -> count (> 0)

    def as_json(self) -> dict[str, Any]:
        """The canonical deal JSON (without options: they are the rules'), keys in the law's order."""
        if self.tian:
            return {"game": GAME_ID, "tianzha": list(self.tianzha), "tianzun": self.tianzun}
        return {
            "game": GAME_ID,
            "landlord": self.landlord,
            "bid": self.bid,
            "open": self.open,
            "first_out": self.first_out,
            "feidan": {seat: self.feidan[seat] for seat in SEATS if seat in self.feidan},
        }


def _not_object() -> DealError:
    return DealError("bad_json", _("牌局必须是 JSON 对象"))


def _check_game(raw: dict[str, Any]) -> None:
    """§0 G2 for a deal handed over with its "game" key (the score file strips it)."""
    game = raw.get("game")
    if game is not None and game != GAME_ID:
        raise DealError("unknown_game", _("未知的游戏 {game}"), game=preview(game))


def _unknown_seat(key: str, value: Any) -> DealError:
    return DealError("unknown_seat", _("“{key}”：座位 {value} 无效（N、E、S、W）"), key=key, value=preview(value))


def _seat(raw: dict[str, Any], key: str) -> str:
    """A required seat (V5, V7): absent → missing_key, anything but "N" "E" "S" "W" → unknown_seat."""
    value = raw.get(key)
    if type(value) is str and value in SEAT_SET:
        return value
    if value is None:
        raise DealError("missing_key", _("缺少“{key}”"), key=key)
    raise _unknown_seat(key, value)


def _tian(raw: dict[str, Any]) -> tuple[tuple[str, ...], str | None]:
    """V1, V2: the seats dealt 天炸 and the seat dealt 天尊."""
    tianzha = raw.get("tianzha")
    if tianzha is None:
        tianzha = ()
    elif type(tianzha) is not list:
        raise DealError("bad_tian", _("“tianzha” 必须是座位列表，而不是 {value}"), value=preview(tianzha))
    else:
        seen = set()
        for seat in tianzha:
            if type(seat) is not str or seat not in SEAT_SET:
                raise _unknown_seat("tianzha", seat)
            if seat in seen:
                raise DealError("duplicate_seat", _("“tianzha”：座位 {seat} 出现两次"), seat=seat_label(seat))
            seen.add(seat)
        tianzha = tuple(tianzha)
    tianzun = raw.get("tianzun")
    if tianzun is not None:
        if type(tianzun) is not str:
            raise DealError("bad_tian", _("“tianzun” 必须是一个座位，而不是 {value}"), value=preview(tianzun))
        if tianzun not in SEAT_SET:
            raise _unknown_seat("tianzun", tianzun)
    return tianzha, tianzun


def _feidan(raw: dict[str, Any], landlord: str) -> dict[str, int]:
    """V8: seat → number of 飛彈, at most 5 for the landlord and 3 for a farmer; entries in order."""
    value = raw.get("feidan")
    if value is None:
        return {}
    if type(value) is not dict:
        raise DealError("bad_feidan", _("“feidan” 必须是对象（座位 → 飞弹个数），而不是 {value}"), value=preview(value))
    counts = {}
    for seat, count in value.items():
        if type(seat) is not str or seat not in SEAT_SET:
            raise _unknown_seat("feidan", seat)
        if count is None:
            continue
        if seat == landlord:
            if type(count) is not int or not 0 <= count <= FEIDAN_MOST_LANDLORD:
                raise DealError(
                    "bad_feidan",
                    _("“feidan”：地主 {seat} 的飞弹数 {value} 无效（0 到 {most} 的整数）"),
                    seat=seat_label(seat),
                    value=preview(count),
                    most=FEIDAN_MOST_LANDLORD,
                )
        elif type(count) is not int or not 0 <= count <= FEIDAN_MOST_FARMER:
            raise DealError(
                "bad_feidan",
                _("“feidan”：农民 {seat} 的飞弹数 {value} 无效（0 到 {most} 的整数）"),
                seat=seat_label(seat),
                value=preview(count),
                most=FEIDAN_MOST_FARMER,
            )
        if count:
            counts[seat] = count
    return counts


def validate_deal(raw: dict[str, Any], rules: Rules | None = None) -> ValidDeal | None:
    """The deal as a `ValidDeal`, or the first refusal raised (§0 G1–G3, then V1–V8).

    `rules` (an event's) override the deal's own `"options"`, which are still checked (G3).
    """
    if type(raw) is not dict:
        if not isinstance(raw, dict):
            raise _not_object()
        raw = dict(raw)
    if "game" in raw:
        _check_game(raw)
    options = raw.get("options")
    if rules is None:
        rules = DEFAULT_RULES if options is None else apply_options(DEFAULT_RULES, options)
    elif options is not None:
        check_options(options)

    # V1–V3: a 天炸/天尊 deal is settled right after dealing and is not played.
    if "tianzha" in raw or "tianzun" in raw:
        tianzha, tianzun = _tian(raw)
        if tianzha or tianzun is not None:
            for key in PLAY_KEYS:
                if raw.get(key) is not None:
                    raise DealError("tian_with_play", _("发到天炸或天尊的牌局不打牌，不能有“{key}”"), key=key)
            return ValidDeal(rules, tian=True, tianzha=tianzha, tianzun=tianzun)

    # V4: the bid. (A bool is not an int here: True == 1 but is not a bid.)
    bid = raw.get("bid")
    if type(bid) is int or type(bid) is str:
        if bid not in BASE_OF_BID:
            if bid == PASS:
                raise DealError("passed_out", _("四家都不叫（pass）：重新发牌，这一副不记录"))
            raise _bad_bid(bid)
    elif bid is None:
        raise DealError("missing_key", _("缺少“{key}”"), key="bid")
    else:
        raise _bad_bid(bid)

    landlord = _seat(raw, "landlord")  # V5

    # V6: 明打 or 暗打; 搶牌 is always 明打.
    is_open = raw.get("open")
    if is_open is None:
        is_open = bid == GRAB
    elif type(is_open) is not bool:
        raise DealError("bad_open", _("“open” 必须是 true 或 false，而不是 {value}"), value=preview(is_open))
    elif not is_open and bid == GRAB:
        raise DealError("grab_is_open", _("抢牌（grab）必定明打：“open” 不能是 false"))

    first_out = _seat(raw, "first_out")  # V7
    feidan = _feidan(raw, landlord)  # V8
    return ValidDeal(rules, landlord=landlord, bid=bid, open=is_open, first_out=first_out, feidan=feidan)


def _bad_bid(bid: Any) -> DealError:
    return DealError("bad_bid", _('叫分 {value} 无效（1、2、3 或 "grab" 抢牌）'), value=preview(bid))


def read_deal(raw: dict[str, Any], rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
    """`(ValidDeal, [])`, or `(None, [the first refusal])`: the law stops at the first failure."""
    try:
        return validate_deal(raw, rules), []
    except DealError as error:
        return None, [error]
