"""Deterministic random valid deals for the benchmarks (no hypothesis: plain `random`)."""

import json
import random

from scoring.rules import EXPOSABLE, POINT_CARDS, SEATS


def random_deal(rng, ruleset="huapai"):
    captured = {seat: [] for seat in SEATS}
    for card in POINT_CARDS:
        captured[rng.choice(SEATS)].append(card)
    holders, exposed, firsts = {}, {}, set()
    for card in EXPOSABLE:
        holder = rng.choice(SEATS)
        holders[card] = holder
        kind = rng.choice((None, None, "shown", "first"))
        if kind == "first" and holder in firsts:
            kind = "shown"
        if kind:
            exposed[card] = kind
            if kind == "first":
                firsts.add(holder)
    deal = {"ruleset": ruleset, "captured": captured, "holders": holders, "exposed": exposed}
    if rng.random() < 0.05:
        deal["penalties"] = {rng.choice(SEATS): -10 * rng.randint(1, 10)}
    return deal


def write_jsonl(path, count, seed=2026):
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(json.dumps(random_deal(rng)))
            out.write("\n")
