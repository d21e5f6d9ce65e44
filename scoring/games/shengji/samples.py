"""Deterministic random valid 升级 deals for the benchmarks and the property tests (plain
`random` with a seed: the same deals on every machine). Busy: every band S2–S5, first deals
with and without a start level, later deals with and without a (matching) declarer, levels
past K, and keys the law ignores."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from .cards import POINTS_STEP, POINTS_TOTAL, START_LEVEL_MAX
from .deal import State
from .engine import next_state

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from random import Random
    from typing import Any


def random_points(rng: Random) -> int:
    """Points from every band, the band edges more often."""
    if rng.random() < 0.3:
        return rng.choice((0, 45, 50, 95, 100, 115, 120, 200))
    return POINTS_STEP * rng.randint(0, POINTS_TOTAL // POINTS_STEP)


def random_deals(count: int, seed: int = 2026) -> Iterator[dict[str, Any]]:
    """`count` valid deal dicts with the top-level "game" key: runs of deals threaded as
    matches (each later deal carries the state the one before left), up to level 40."""
    rng = random.Random(seed)
    state = None
    for _ in range(count):
        points = random_points(rng)
        deal = {"game": "shengji", "points": points}
        if state is None or max(state.ns, state.ew) > 40 or rng.random() < 0.05:
            start = rng.choice((1, 1, 2, rng.randint(1, START_LEVEL_MAX)))
            declarer = rng.choice(("NS", "EW"))
            deal["declarer"] = declarer
            if start != 1 or rng.random() < 0.2:
                deal["options"] = {"start_level": start}
            state = State(declarer, start, start)
        else:
            deal["state"] = state.as_json()
            if rng.random() < 0.3:
                deal["declarer"] = state.declarer
        if rng.random() < 0.1:
            deal["board"] = rng.randint(1, 32)
        state = next_state(state, points)[0]
        yield deal


def write_jsonl(path: Path, count: int, seed: int = 2026) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for deal in random_deals(count, seed):
            out.write(json.dumps(deal, ensure_ascii=False))
            out.write("\n")
