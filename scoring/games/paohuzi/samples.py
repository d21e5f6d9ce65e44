"""Deterministic random valid 跑胡子 deals for benchmarks and property tests (plain `random` with a
seed: the same deals on every machine). Busy on purpose: wins of every source, colour and 王 kind,
省, 黄庄 with one or two holders, deal options, recorded dealers."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import GAME_ID, MAX_HUXI, MAX_RED, SEATS, WANGBA_CARDS
from .options import DEAL_OPTIONS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from random import Random
    from typing import Any

OPTION_CHOICES = {
    "min_huxi": (10, 15, 18),
    "tun_step": (1, 3, 5),
    "di": (0, 1, 2),
    "discard_pays": ("all", "discarder"),
    "huang_per_wangba": (0, 3, 5, 10),
}
assert set(OPTION_CHOICES) == {option.name for option in DEAL_OPTIONS}


def _wangba(rng: Random, total: int) -> dict[str, int]:
    counts = dict.fromkeys(SEATS, 0)
    for _ in range(total):
        counts[rng.choice(SEATS)] += 1
    return counts


def random_deal(rng: Random) -> dict[str, Any]:
    """One valid deal, with its top-level "game"."""
    deal = {"game": GAME_ID}
    if rng.random() < 0.5:
        deal["dealer"] = rng.choice(SEATS)
    options = {}
    if rng.random() < 0.25:
        for name in rng.sample(sorted(OPTION_CHOICES), rng.randint(1, 3)):
            options[name] = rng.choice(OPTION_CHOICES[name])
        deal["options"] = options
    if rng.random() < 0.15:
        counts = _wangba(rng, WANGBA_CARDS)
        deal["winner"] = None
        deal["wangba"] = {seat: n for seat, n in counts.items() if n or rng.random() < 0.3}
        return deal
    counts = _wangba(rng, rng.choice((0, 0, 1, 2)))
    winner = rng.choice(SEATS)
    held = counts[winner]
    others = [seat for seat in SEATS if seat != winner]
    source = "self" if held else rng.choice(("self", "draw", "discard", "discard"))
    minimum = options.get("min_huxi", 15)
    deal["winner"] = winner
    deal["wangba"] = {seat: n for seat, n in counts.items() if n or rng.random() < 0.3}
    deal["huxi"] = rng.randint(minimum, min(MAX_HUXI, minimum + 40))
    deal["red"] = rng.choice((0, 1, rng.randint(2, 9), rng.randint(10, MAX_RED)))
    deal["source"] = source
    if source == "discard" or (source == "draw" and rng.random() < 0.5):
        deal["from"] = rng.choice(others)
    if source == "self":
        kinds = (
            ["none", "none"] + (["wangdiao"] if held else []) + (["wangdiaowang", "wangchuang"] if held == 2 else [])
        )
        wang = rng.choice(kinds)
        if wang != "none" or rng.random() < 0.3:
            deal["wang"] = wang
    if rng.random() < 0.7:
        deal["xing"] = rng.randint(0, 4 + held)
    return deal


def random_deals(count: int, seed: int = 2026) -> Iterator[dict[str, Any]]:
    """`count` valid deals, the same ones for the same seed."""
    rng = random.Random(seed)
    for _ in range(count):
        yield random_deal(rng)
