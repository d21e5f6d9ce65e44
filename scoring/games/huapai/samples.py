"""Deterministic random valid deals, one deck or two, for the benchmarks and the tests'
whole-event oracles (plain `random` with a seed: the same deals on every machine)."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from .cards import EXPOSABLE, POINT_CARDS, SEATS
from .rulesets import RULESETS

if TYPE_CHECKING:
    from pathlib import Path
    from random import Random
    from typing import Any


def random_deal(rng: Random, ruleset: str = "huapai") -> dict[str, dict[str, Any] | str]:
    decks = RULESETS[ruleset].decks
    captured = {seat: [] for seat in SEATS}
    for card in POINT_CARDS:
        for _ in range(decks):
            captured[rng.choice(SEATS)].append(card)
    holders, exposed, firsts = {}, {}, set()
    for card in EXPOSABLE:
        copy_holders, kinds = [], []
        for _ in range(decks):
            holder = rng.choice(SEATS)
            copy_holders.append(holder)
            kind = rng.choice((None, None, "shown", "first"))
            if kind == "first" and holder in firsts:
                kind = "shown"
            if kind and len(kinds) == len(copy_holders) - 1:
                kinds.append(kind)
                if kind == "first":
                    firsts.add(holder)
        holders[card] = copy_holders[0] if decks == 1 else copy_holders
        if kinds:
            exposed[card] = kinds[0] if decks == 1 else kinds
    deal = {"ruleset": ruleset, "captured": captured, "holders": holders, "exposed": exposed}
    if rng.random() < 0.05:
        deal["penalties"] = {rng.choice(SEATS): -10 * rng.randint(1, 10)}
    return deal


def write_jsonl(path: Path, count: int, seed: int = 2026, ruleset: str = "huapai") -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(json.dumps(random_deal(rng, ruleset)))
            out.write("\n")
