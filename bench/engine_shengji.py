"""Benchmark of the 升级 engine, in one process.

1. Reading and scoring 20,000 sample deals (`scoring.games.shengji.samples`), in µs a deal,
   beside 华牌's on 20,000 of its own sample deals.
2. `score_stream` over 50,000 JSON Lines against a floor: orjson loads of each line and dumps
   of a result-sized object (the first deal's result), the JSON work any implementation does.

CPU time of this process, best of five (the stream and its floor interleaved);
the ratio must stay below 3× (aim 2×).
Run: .venv/bin/python bench/engine_shengji.py [--deals N] [--lines N]
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine.scorefile import score_stream
from scoring.games import GAMES
from scoring.games.huapai import score_deal as huapai_score_deal
from scoring.games.huapai.samples import random_deal
from scoring.games.shengji import score_deal, shengji_match
from scoring.games.shengji.samples import random_deals


def best(function, times=5):
    """The least CPU time of this process over `times` runs: other processes on a shared
    machine disturb it far less than the wall clock."""
    timings = []
    for _ in range(times):
        started = time.process_time()
        function()
        timings.append(time.process_time() - started)
    return min(timings)


def best_of_both(first, second, times=5):
    """`best` of two functions run in turns, so that a busy spell weighs on both alike."""
    one, two = [], []
    for _ in range(times):
        one.append(best(first, 1))
        two.append(best(second, 1))
    return min(one), min(two)


def per_deal(score, deals):
    def run():
        for deal in deals:
            score(deal)

    return best(run) / len(deals) * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=50_000)
    args = parser.parse_args()

    deals = list(random_deals(args.deals, seed=2026))
    rng = random.Random(2026)
    huapai = [random_deal(rng) for _ in range(args.deals)]
    shengji_us, huapai_us = per_deal(score_deal, deals), per_deal(huapai_score_deal, huapai)
    print(f"in-process, {args.deals:,} deals: 升级 {shengji_us:.2f} µs a deal, 华牌 {huapai_us:.2f} µs a deal")
    match = [{"declarer": "NS", "points": 40}, *({"points": p} for p in (80, 110, 135, 60, 0, 125, 95))]
    match_us = best(lambda: [shengji_match(match, {"target": None, "deals": 8}) for _ in range(2000)]) / 2000 * 1e6
    print(f"shengji_match, 8 deals: {match_us:.1f} µs a match")

    lines = [orjson.dumps(deal) for deal in random_deals(args.lines, seed=2027)]
    template = score_deal(orjson.loads(lines[0]))
    # Both write each line to /dev/null as `manage.py score_deal` writes to its output.
    out = open(os.devnull, "wb")  # noqa: SIM115
    write = out.write

    def emit(data):
        write(data)
        write(b"\n")

    def floor():
        loads, dumps = orjson.loads, orjson.dumps
        for line in lines:
            loads(line)
            emit(dumps(template))

    def stream():
        assert score_stream(iter(lines), emit) == 0

    floor_s, stream_s = best_of_both(floor, stream)

    class FixedResult:  # a game that costs nothing: what score_stream itself adds to the floor
        @staticmethod
        def score_deal(deal):
            return template

    real, GAMES["shengji"] = GAMES["shengji"], FixedResult
    try:
        fixed_s = best(stream)
    finally:
        GAMES["shengji"] = real
    errors = []
    score_stream(iter(lines), lambda line: errors.append(line) if b'"error"' in line else None)
    assert not errors, errors[:1]
    print(
        f"score_stream, {args.lines:,} lines: floor {floor_s * 1e6 / args.lines:.2f} µs a line, "
        f"score_stream {stream_s * 1e6 / args.lines:.2f} µs a line"
    )
    print(f"ratio score_stream / floor: {stream_s / floor_s:.2f}x (target < 3x, aim 2x)")
    print(
        f"score_stream with a game that returns a fixed result: {fixed_s * 1e6 / args.lines:.2f} µs a line, "
        f"{fixed_s / floor_s:.2f}x the floor (what the stream adds before any game's work)"
    )


if __name__ == "__main__":
    main()
