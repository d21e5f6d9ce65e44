"""Scoring a valid deal (law §1.4): B1–B7 for a played deal, T1 for 天炸/天尊.

The result is `{"game", "scores", "breakdown", "result"}` (§0 Output): integer scores per seat,
and per seat a list of `{"rule", "value", "note"}` that sums to its score. Notes are made of
the closed vocabulary `BREAKDOWN_TERMS`, seat letters and numbers, so the site can render
them in another language word by word, as it does 华牌's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from scoring.games.refusals import pgettext

from .cards import BASE_OF_BID, FARMERS, GAME_ID, GRAB, LANDLORD, OPEN_LOSS, OPEN_WIN, SEATS, TIAN
from .deal import validate_deal

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.doudizhu.deal import ValidDeal
    from scoring.games.doudizhu.options import Rules

BREAKDOWN_TERMS = (
    pgettext("breakdown", "地主胜"),
    pgettext("breakdown", "农民胜"),
    pgettext("breakdown", "明打"),
    pgettext("breakdown", "暗打"),
    pgettext("breakdown", "抢牌"),
    pgettext("breakdown", "底分"),
    pgettext("breakdown", "飞弹"),
    pgettext("breakdown", "地主"),
    pgettext("breakdown", "农民"),
    pgettext("breakdown", "不反向"),
    pgettext("breakdown", "天炸"),
    pgettext("breakdown", "天尊"),
    pgettext("breakdown", "各付"),
    pgettext("breakdown", "付给"),
    pgettext("breakdown", "家"),
    pgettext("breakdown", "对"),
    pgettext("breakdown", "调整分"),
    pgettext("breakdown", "（"),
    pgettext("breakdown", "）"),
    pgettext("breakdown", "、"),
)


def _signed(n: Any) -> Any:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


@lru_cache(maxsize=64)
def _play_notes(bid: int | str, is_open: bool, landlord_wins: bool) -> tuple[str, str]:
    """B1–B3 in words: the landlord's note (three farmers) and a farmer's."""
    mode = "抢牌 明打" if bid == GRAB else "明打" if is_open else "暗打"
    verdict = "地主胜" if landlord_wins else "农民胜"
    base = BASE_OF_BID[bid]
    factor = (OPEN_WIN if landlord_wins else OPEN_LOSS) if is_open else 1
    times = f"{factor}×底分 {base}" if factor > 1 else f"底分 {base}"
    return f"{verdict} {mode} {times} ×3 家", f"{verdict} {mode} {times}"


@lru_cache(maxsize=1024)
def _feidan_note(farmer: str, k_landlord: int, k_farmer: int, base: int) -> tuple[str, str]:
    """B5 in words: the two counts of one landlord–farmer pair (D-B5), in 底分 (D-B4)."""
    pair = f"地主 {k_landlord}−农民 {k_farmer}"
    return f"飞弹 {pair} ×底分 {base}", f"对 {farmer} 飞弹 {pair} ×底分 {base}"


def score_valid_deal(deal: ValidDeal, rules: Rules | None = None) -> dict[str, dict[str, Any] | str]:
    """Score a `ValidDeal`; `rules` override those it was read with."""
    if deal.tian:
        return _score_tian(deal, rules or deal.rules)
    landlord = deal.landlord
    bid = deal.bid
    base = BASE_OF_BID[bid]  # B1
    wins = deal.first_out == landlord  # B2
    # B3: t_f, what each farmer pays the landlord before 飛彈.
    factor = (OPEN_WIN if wins else OPEN_LOSS) if deal.open else 1
    paid = factor * base if wins else -factor * base
    landlord_note, farmer_note = _play_notes(bid, deal.open, wins)
    result = LANDLORD if wins else FARMERS
    landlord_entries = [{"rule": "B3", "value": 3 * paid, "note": landlord_note}]
    feidan = deal.feidan
    if not feidan:
        return {
            "game": GAME_ID,
            "scores": {seat: 3 * paid if seat == landlord else -paid for seat in SEATS},
            "breakdown": {
                seat: landlord_entries if seat == landlord else [{"rule": "B3", "value": -paid, "note": farmer_note}]
                for seat in SEATS
            },
            "result": result,
        }

    rules = rules or deal.rules
    once = rules.feidan_stack == "once"
    reversal = rules.feidan_reversal
    k_landlord = feidan.get(landlord, 0)
    if once and k_landlord:
        k_landlord = 1
    scores = {}
    breakdown = {}
    total = 0
    for seat in SEATS:
        if seat == landlord:
            scores[seat] = 0
            breakdown[seat] = landlord_entries
            continue
        k_farmer = feidan.get(seat, 0)
        if once and k_farmer:
            k_farmer = 1
        entries = [{"rule": "B3", "value": -paid, "note": farmer_note}]
        t = paid
        if k_landlord != k_farmer:
            extra = base * (k_landlord - k_farmer)  # B5
            t += extra
            note, landlord_note = _feidan_note(seat, k_landlord, k_farmer, base)
            entries.append({"rule": "B5", "value": -extra, "note": note})
            landlord_entries.append({"rule": "B5", "value": extra, "note": landlord_note})
            if not reversal and (t < 0 if paid > 0 else t > 0):  # B6: cut to zero, never reversed
                entries.append({"rule": "B6", "value": t, "note": "不反向"})
                landlord_entries.append({"rule": "B6", "value": -t, "note": f"对 {seat} 不反向"})
                t = 0
        scores[seat] = -t  # B7
        breakdown[seat] = entries
        total += t
    scores[landlord] = total
    return {"game": GAME_ID, "scores": scores, "breakdown": breakdown, "result": result}


def _score_tian(deal: ValidDeal, rules: Rules) -> dict[str, dict[str, Any] | str]:
    """T1: every seat holding neither pays each 天炸 holder and the 天尊 holder; holders pay
    each other nothing; a seat holding both is paid both, each once (D-B6, D-B8)."""
    holders = set(deal.tianzha)
    if deal.tianzun is not None:
        holders.add(deal.tianzun)
    payers = [seat for seat in SEATS if seat not in holders]
    scores = dict.fromkeys(SEATS, 0)
    breakdown = {seat: [] for seat in SEATS}
    paid = [(seat, "天炸", rules.tianzha_points) for seat in SEATS if seat in deal.tianzha]
    if deal.tianzun is not None:
        paid.append((deal.tianzun, "天尊", rules.tianzun_points))
    for holder, name, points in paid:
        if not points or not payers:
            continue
        gain = points * len(payers)
        scores[holder] += gain
        breakdown[holder].append({"rule": "T1", "value": gain, "note": f"{name} {len(payers)} 家各付 {points}"})
        for payer in payers:
            scores[payer] -= points
            breakdown[payer].append({"rule": "T1", "value": -points, "note": f"付给 {holder} {name} {points}"})
    return {"game": GAME_ID, "scores": scores, "breakdown": breakdown, "result": TIAN}


def score_deal(raw: dict[str, Any], rules: Rules | None = None) -> dict[str, dict[str, Any] | str] | None:
    """Deal JSON in, result JSON out; raises `DealError` (the law's code) on an invalid deal."""
    return score_valid_deal(validate_deal(raw, rules))
