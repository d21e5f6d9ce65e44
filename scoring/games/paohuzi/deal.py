"""Reading a 跑胡子 deal: the common checks G1–G3 of law §0, then V1–V11 of §3.2, in order.

The first failure wins and is the deal's one refusal, with the law's code and a message naming
the key, seat or value at fault. Any JSON value of the wrong type is a refusal, never an
exception. `validate_deal` raises it; `read_deal` returns it in a list, as 华牌's reader does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.games.refusals import DealError, _, preview

from .cards import (
    COPIES,
    GAME_ID,
    MAX_HUXI,
    MAX_RED,
    SEAT_SET,
    SEATS,
    SOURCES,
    WANG_NAMES,
    WANG_NEEDS,
    WANGBA_CARDS,
    WANGS,
    WIN_KEYS,
    seat_label,
)
from .options import DEFAULT_DEAL_OPTIONS, DealOptions, read_deal_options

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.paohuzi.options import Rules

SOURCE_SET = frozenset(SOURCES)
WANG_SET = frozenset(WANGS)


@dataclass(slots=True)
class ValidDeal:
    """A valid deal in canonical form. `winner` None is a 黄庄; the win keys are then None."""

    options: DealOptions
    wangba: dict  # seat -> 王霸 held at the end of the deal, every seat
    winner: str | None
    dealer: str | None = None
    huxi: int | None = None
    red: int | None = None
    source: str | None = None
    discarder: str | None = None  # the deal JSON's "from"
    wang: str = "none"
    xing: int = 0

    def as_json(self) -> dict[str, Any]:
        """The deal JSON in canonical form: every seat's 王霸, defaults written out."""
        deal = {"winner": self.winner, "wangba": dict(self.wangba)}
        if self.dealer is not None:
            deal["dealer"] = self.dealer
        if self.winner is not None:
            deal.update(huxi=self.huxi, red=self.red, source=self.source, wang=self.wang, xing=self.xing)
            if self.discarder is not None:
                deal["from"] = self.discarder
        if self.options != DEFAULT_DEAL_OPTIONS:
            deal["options"] = self.options.as_json()
        return deal


def _missing(key: str) -> DealError:
    return DealError("missing_key", _("缺少“{key}”"), key=key)


def _unknown_seat(where: str, value: Any) -> DealError:
    return DealError("unknown_seat", _("{where}：座位 {value} 无效（E / S / W）"), where=where, value=preview(value))


def validate_deal(raw: dict[str, Any], rules: Rules | None = None) -> ValidDeal | None:
    """The `ValidDeal` of deal JSON `raw`, or raise the first failure as a `DealError`.

    `rules` (an event's `Rules`) gives the deal options a deal's own `"options"` start from.
    A top-level `"game"` may be left out (the tournament core strips it) or name this game.
    """
    # G1
    if not isinstance(raw, dict):
        raise DealError("bad_json", _("牌局必须是 JSON 对象"))
    get = raw.get
    # G2
    game = get("game")
    if game is not None and game != GAME_ID:
        raise DealError("unknown_game", _("未知的游戏 {game}"), game=preview(game))
    # G3
    base = DEFAULT_DEAL_OPTIONS if rules is None else rules.deal
    options = get("options")
    options = base if options is None else read_deal_options(options, base)

    # V1
    dealer = get("dealer")
    if dealer is not None and (type(dealer) is not str or dealer not in SEAT_SET):
        raise _unknown_seat("dealer", dealer)

    # V2
    given = get("wangba")
    if given is None:
        raise _missing("wangba")
    if not isinstance(given, dict):
        raise DealError("bad_wangba", _("“{key}” 必须是对象"), key="wangba")
    wangba = {"E": 0, "S": 0, "W": 0}
    total = 0
    for seat, count in given.items():
        if type(seat) is not str or seat not in SEAT_SET:
            raise _unknown_seat("wangba", seat)
        if count is None:
            continue
        if not (type(count) is int and 0 <= count <= WANGBA_CARDS):
            raise DealError(
                "bad_wangba",
                _("{seat} 的王霸数 {value} 无效（0 到 {most} 的整数）"),
                seat=seat_label(seat),
                value=preview(count),
                most=WANGBA_CARDS,
            )
        wangba[seat] = count
        total += count
    if total > WANGBA_CARDS:
        raise DealError("bad_wangba", _("王霸共 {total} 张，最多 {most} 张"), total=total, most=WANGBA_CARDS)

    # V3
    if "winner" not in raw:
        raise _missing("winner")
    winner = raw["winner"]
    if winner is not None and (type(winner) is not str or winner not in SEAT_SET):
        raise _unknown_seat("winner", winner)

    # V4 黄庄
    if winner is None:
        for key in WIN_KEYS:
            if get(key) is not None:
                raise DealError("unexpected_key", _("黄庄不能有“{key}”"), key=key)
        if total != WANGBA_CARDS:
            raise DealError(
                "bad_wangba",
                _("黄庄时两张王霸都在玩家手中：王霸共 {total} 张，应为 {most} 张"),
                total=total,
                most=WANGBA_CARDS,
            )
        return ValidDeal(options, wangba, None, dealer)

    # V5
    huxi = get("huxi")
    if huxi is None:
        raise _missing("huxi")
    if not (type(huxi) is int and 0 <= huxi <= MAX_HUXI):
        raise DealError("bad_huxi", _("胡息 {value} 无效（0 到 {most} 的整数）"), value=preview(huxi), most=MAX_HUXI)
    if huxi < options.min_huxi:
        raise DealError(
            "huxi_below_minimum", _("胡息 {huxi} 不足 {minimum}，不能胡"), huxi=huxi, minimum=options.min_huxi
        )

    # V6
    red = get("red")
    if red is None:
        raise _missing("red")
    if not (type(red) is int and 0 <= red <= MAX_RED):
        raise DealError("bad_red", _("红字数 {value} 无效（0 到 {most} 的整数）"), value=preview(red), most=MAX_RED)

    # V7
    source = get("source")
    if source is None:
        raise _missing("source")
    if type(source) is not str or source not in SOURCE_SET:
        raise DealError("bad_source", _("“source” 的值 {value} 无效（self / draw / discard）"), value=preview(source))

    # V8
    discarder = get("from")
    if source == "self":
        if discarder is not None:
            raise DealError("bad_from", _("自摸不能有“from”"))
    elif discarder is None:
        if source == "discard":
            raise _missing("from")
    elif type(discarder) is not str or discarder not in SEAT_SET:
        raise _unknown_seat("from", discarder)
    elif discarder == winner:
        raise DealError("bad_from", _("“from” 是胡牌者 {seat} 自己"), seat=seat_label(winner))

    # V9
    held = wangba[winner]
    if held and source != "self":
        raise DealError("wangba_self_draw_only", _("{seat} 手中有王霸，只能自摸"), seat=seat_label(winner))

    # V10
    wang = get("wang")
    if wang is None:
        wang = "none"
    elif type(wang) is not str or wang not in WANG_SET:
        raise DealError(
            "bad_wang",
            _("“wang” 的值 {value} 无效（none / wangdiao / wangdiaowang / wangchuang）"),
            value=preview(wang),
        )
    elif wang != "none":
        if source != "self":
            raise DealError("bad_wang", _("{wang} 必须自摸"), wang=f"{WANG_NAMES[wang]}({wang})")
        if held < WANG_NEEDS[wang]:
            raise DealError(
                "bad_wang",
                _("{wang} 要求胡牌者手中有 {need} 张王霸，{seat} 只有 {held} 张"),
                wang=f"{WANG_NAMES[wang]}({wang})",
                need=WANG_NEEDS[wang],
                seat=seat_label(winner),
                held=held,
            )

    # V11
    xing = get("xing")
    if xing is None:
        xing = 0
    elif not (type(xing) is int and 0 <= xing <= COPIES + held):
        raise DealError(
            "bad_xing",
            _("省数 {value} 无效（0 到 {most} 的整数：4 张省牌加胡牌者的王霸）"),
            value=preview(xing),
            most=COPIES + held,
        )

    return ValidDeal(options, wangba, winner, dealer, huxi, red, source, discarder, wang, xing)


def read_deal(raw: dict[str, Any], rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
    """`(deal, [])` for a valid deal, `(None, [refusal])` for an invalid one: the law's first failure."""
    try:
        return validate_deal(raw, rules), []
    except DealError as problem:
        return None, [problem]


__all__ = ["SEATS", "ValidDeal", "read_deal", "validate_deal"]
