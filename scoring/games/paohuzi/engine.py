"""Scoring a valid 跑胡子 deal (law §3.4): 囤, 子, 番, the payments of a win, and the 黄庄.

A result is `{"game", "scores", "breakdown", "result"[, "amount"]}`. Each breakdown entry is
`{"rule", "value", "note"}` with `rule` a rule number of the law (P5 a win's payments, P6 the
黄庄's) and a Chinese note; a seat's values add up to its score, and every deal is zero-sum (P7).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .cards import GAME_ID, RED_HU_MINIMUM, SEAT_TEXT, SEATS, colour_of, kind_of
from .deal import validate_deal

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.paohuzi.deal import ValidDeal
    from scoring.games.paohuzi.options import Rules

# The law's rule numbers a breakdown entry names.
WIN_RULE = "P5"
HUANG_RULE = "P6"
# The two payers of a win, named in the winner's note: 南(S)、西(W).
PAYERS_TEXT = {winner: "、".join(SEAT_TEXT[seat] for seat in SEATS if seat != winner) for winner in SEATS}


def amount_of(huxi: Any, xing: Any, red: Any, source: Any, wang: str, options: Any) -> Any:
    """X = z × F (P1–P4) and the note that shows how: "21胡息=3囤 +3省 =6子 × 红胡2×自摸2=4番 =24"."""
    return _amount(
        huxi, xing, _colour_class(red), source == "self", wang, options.min_huxi, options.tun_step, options.di
    )


def _colour_class(red: Any) -> Any:
    """The red count as P3 sees it: 0, 1, 10 (any count ≥ 10) or 2 (any other count)."""
    return red if red < 2 else RED_HU_MINIMUM if red >= RED_HU_MINIMUM else 2


@lru_cache(maxsize=1 << 16)
def _amount(
    huxi: int, xing: int, colour_class: int, self_drawn: bool, wang: str, min_huxi: int, tun_step: int, di: int
) -> tuple[int, str]:
    tun = 1 + (huxi - min_huxi) // tun_step  # P1
    zi = tun + xing + di  # P2
    colour, colour_fan = colour_of(colour_class)  # P3
    kind, kind_fan = kind_of("self" if self_drawn else "draw", wang)
    fan = colour_fan * kind_fan
    amount = zi * fan  # P4
    counted = f"{huxi}胡息={tun}囤"
    if xing:
        counted += f" +{xing}省"
    if di:
        counted += f" +{di}底"
    if colour and kind:
        fans = f"{colour}{colour_fan}×{kind}{kind_fan}={fan}番"
    elif colour or kind:
        fans = f"{colour or kind}{fan}番"
    else:
        fans = "1番"
    return amount, f"{counted} ={zi}子 × {fans} ={amount}"


@lru_cache(maxsize=1 << 16)
def _win_notes(winner: str, *amount_key: Any) -> tuple[int, str, str]:
    """X and the notes of a win paid by both other seats: the winner's and each payer's."""
    amount, how = _amount(*amount_key)
    return amount, f"{PAYERS_TEXT[winner]}各付 {amount}（{how}）", f"付给{SEAT_TEXT[winner]} {amount}（{how}）"


def score_valid_deal(deal: ValidDeal) -> dict[str, Any]:
    """The result of a `ValidDeal` (law §3.4 and §0 Output)."""
    winner = deal.winner
    if winner is None:
        return _huang(deal)
    options = deal.options
    red = deal.red
    amount_key = (
        deal.huxi,
        deal.xing,
        red if red < 2 else RED_HU_MINIMUM if red >= RED_HU_MINIMUM else 2,  # _colour_class, inlined
        deal.source == "self",
        deal.wang,
        options.min_huxi,
        options.tun_step,
        options.di,
    )
    if deal.source == "discard" and options.discard_pays == "discarder":
        # P5, option discarder: the discarder pays the whole 2X, the third seat nothing.
        amount, how = _amount(*amount_key)
        paid = 2 * amount
        discarder = deal.discarder
        discarder_text = SEAT_TEXT[discarder]
        scores = {}
        breakdown = {}
        for seat in SEATS:
            if seat == winner:
                value, note = paid, f"{discarder_text}放炮独付 2×{amount}（{how}）"
            elif seat == discarder:
                value, note = -paid, f"放炮独付给{SEAT_TEXT[winner]} 2×{amount}（{how}）"
            else:
                value, note = 0, f"{discarder_text}放炮独付，本家不付"
            scores[seat] = value
            breakdown[seat] = [{"rule": WIN_RULE, "value": value, "note": note}]
        return {"game": GAME_ID, "scores": scores, "breakdown": breakdown, "result": "win", "amount": amount}
    # P5: each of the other two seats pays X.
    amount, won_note, lost = _win_notes(winner, *amount_key)
    paid, lose = 2 * amount, -amount
    # Literal dicts in seat order rather than a loop: this is the path of most deals.
    won = [{"rule": WIN_RULE, "value": paid, "note": won_note}]
    one = [{"rule": WIN_RULE, "value": lose, "note": lost}]
    other = [{"rule": WIN_RULE, "value": lose, "note": lost}]
    if winner == "E":
        scores = {"E": paid, "S": lose, "W": lose}
        breakdown = {"E": won, "S": one, "W": other}
    elif winner == "S":
        scores = {"E": lose, "S": paid, "W": lose}
        breakdown = {"E": one, "S": won, "W": other}
    else:
        scores = {"E": lose, "S": lose, "W": paid}
        breakdown = {"E": one, "S": other, "W": won}
    return {"game": GAME_ID, "scores": scores, "breakdown": breakdown, "result": "win", "amount": amount}


def _huang(deal: ValidDeal) -> dict[str, dict[str, Any] | str]:
    """P6: every seat holding h ≥ 1 王霸 pays `huang_per_wangba` × h to each seat holding none."""
    wangba = deal.wangba
    scores, entries = _huang_payments(wangba["E"], wangba["S"], wangba["W"], deal.options.huang_per_wangba)
    breakdown = {
        seat: [{"rule": HUANG_RULE, "value": value, "note": note} for value, note in seat_entries]
        for seat, seat_entries in zip(SEATS, entries, strict=True)
    }
    return {"game": GAME_ID, "scores": dict(zip(SEATS, scores, strict=True)), "breakdown": breakdown, "result": "huang"}


@lru_cache(maxsize=1024)
def _huang_payments(*held_and_stake: Any) -> tuple[tuple[int, int, int], tuple[Any, Any, Any]]:
    """Per seat (in seat order) the 黄庄's score and its (value, note) entries."""
    *held_by_seat, stake = held_and_stake
    wangba = dict(zip(SEATS, held_by_seat, strict=True))
    scores = dict.fromkeys(SEATS, 0)
    entries = {seat: [] for seat in SEATS}
    empty = [seat for seat in SEATS if not wangba[seat]]
    for holder in SEATS:
        held = wangba[holder]
        if not held:
            continue
        paid = stake * held
        for seat in empty:
            scores[holder] -= paid
            scores[seat] += paid
            entries[holder].append((-paid, f"黄庄：{held}张王霸 ×{stake} 付给{SEAT_TEXT[seat]}"))
            entries[seat].append((paid, f"黄庄：{SEAT_TEXT[holder]} {held}张王霸 ×{stake}"))
    return tuple(scores[seat] for seat in SEATS), tuple(tuple(entries[seat]) for seat in SEATS)


def score_deal(raw: dict[str, Any], rules: Rules | None = None) -> dict[str, Any] | None:
    """Deal JSON in, result JSON out; raises the first `DealError` of an invalid deal."""
    return score_valid_deal(validate_deal(raw, rules))


__all__ = ["amount_of", "score_deal", "score_valid_deal"]
