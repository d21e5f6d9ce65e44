"""Deterministic random valid deals (plain `random` with a seed: the same on every machine),
busy enough to exercise every rule: each bid, 明打 and 暗打, wins and losses, 飛彈 on both
sides up to their maxima (B5 and the B6 cut), every deal option, 天炸 and 天尊 (T1)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import FEIDAN_MOST_FARMER, FEIDAN_MOST_LANDLORD, GAME_ID, SEATS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from random import Random
    from typing import Any


def random_deal(rng: Random) -> dict[str, Any]:
    """One valid deal dict, with its top-level "game" key."""
    deal = {"game": GAME_ID}
    roll = rng.random()
    if roll < 0.06:
        tianzha = rng.sample(SEATS, rng.choice((0, 1, 1, 1, 2, 3)))
        tianzun = rng.choice((None, None, *SEATS))
        if not tianzha and tianzun is None:
            tianzha = [rng.choice(SEATS)]
        deal["tianzha"] = tianzha
        if tianzun is not None or rng.random() < 0.5:
            deal["tianzun"] = tianzun
        if rng.random() < 0.3:
            deal["options"] = {"tianzha_points": rng.randint(0, 60), "tianzun_points": rng.randint(0, 12)}
        return deal
    landlord = rng.choice(SEATS)
    bid = rng.choice((1, 2, 3, 3, "grab"))
    deal["landlord"] = landlord
    deal["bid"] = bid
    if bid == "grab":
        if rng.random() < 0.5:
            deal["open"] = True
    elif rng.random() < 0.8:
        deal["open"] = rng.random() < 0.4
    deal["first_out"] = landlord if rng.random() < 0.45 else rng.choice(SEATS)
    if rng.random() < 0.7:
        feidan = {}
        for seat in rng.sample(SEATS, rng.randint(1, 3)):
            most = FEIDAN_MOST_LANDLORD if seat == landlord else FEIDAN_MOST_FARMER
            feidan[seat] = rng.choice((0, 1, 1, 1, 2, 2, 3, most))
        deal["feidan"] = feidan
    if rng.random() < 0.15:
        deal["options"] = rng.choice(
            (
                {"feidan_stack": "once"},
                {"feidan_reversal": True},
                {"feidan_stack": "add", "feidan_reversal": False},
                {"feidan_stack": "once", "feidan_reversal": True},
            )
        )
    if rng.random() < 0.1:
        deal["board"] = rng.randint(1, 32)  # a key the law does not define: ignored
    return deal


def random_deals(count: int, seed: int = 2026) -> Iterator[dict[str, Any]]:
    """`count` valid deal dicts from `seed`."""
    rng = random.Random(seed)
    for _ in range(count):
        yield random_deal(rng)


def write_jsonl(path: Path, count: int, seed: int = 2026) -> None:
    import json

    with open(path, "w", encoding="utf-8") as out:
        for deal in random_deals(count, seed):
            out.write(json.dumps(deal))
            out.write("\n")
