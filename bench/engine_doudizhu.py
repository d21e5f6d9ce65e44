"""Benchmark: the 蚌埠斗地主 engine in-process, and `score_stream` against a floor.

1. Reading + scoring 20,000 busy sample deals (`samples.random_deals`) in-process, µs per deal,
   beside 华牌's figure on its own sample deals.
2. `scoring.engine.scorefile.score_stream` over 50,000 JSON Lines, against a floor in the same
   process: per line `orjson.loads` and `orjson.dumps` of that line's own result (computed
   beforehand), the JSON work any implementation must do. The two alternate, best of seven
   each; ratio < 3×, aim 2×.
Times are this process's CPU time (`time.process_time`): the machine is shared.

Run: /work/main/.venv/bin/python bench/engine_doudizhu.py [--deals N] [--lines N]
"""

import argparse
import random
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine.scorefile import score_stream
from scoring.games.doudizhu import score_deal
from scoring.games.doudizhu.samples import random_deals
from scoring.games.huapai import score_deal as huapai_score_deal
from scoring.games.huapai.samples import random_deal as huapai_random_deal


def best(function, times=5):
    runs = []
    for _ in range(times):
        started = time.process_time()
        function()
        runs.append(time.process_time() - started)
    return min(runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=50_000)
    args = parser.parse_args()

    deals = list(random_deals(args.deals, seed=1))
    per_deal = best(lambda: [score_deal(deal) for deal in deals]) / len(deals) * 1e6
    rng = random.Random(1)
    huapai = [huapai_random_deal(rng) for _ in range(args.deals)]
    huapai_per_deal = best(lambda: [huapai_score_deal(deal) for deal in huapai]) / len(huapai) * 1e6
    print(f"in-process, read + score: 蚌埠斗地主 {per_deal:.2f} µs/deal, 华牌 {huapai_per_deal:.2f} µs/deal")

    lines = [orjson.dumps(deal) + b"\n" for deal in random_deals(args.lines, seed=2)]
    results = [score_deal(orjson.loads(line)) for line in lines]
    out = []

    def floor():
        out.clear()
        write, loads, dumps = out.append, orjson.loads, orjson.dumps
        for line, result in zip(lines, results, strict=True):
            loads(line)
            write(dumps(result))

    def stream():
        out.clear()
        assert score_stream(iter(lines), out.append) == 0

    # Alternated, best of seven each: another process on the machine disturbs both alike.
    floor_runs, stream_runs = [], []
    for _ in range(7):
        floor_runs.append(best(floor, times=1))
        stream_runs.append(best(stream, times=1))
    floor_s, stream_s = min(floor_runs), min(stream_runs)
    n = len(lines)
    print(f"floor (orjson loads + dumps of the line's result): {floor_s * 1e6 / n:.2f} µs/line, {floor_s:.3f} s")
    print(f"score_stream: {stream_s * 1e6 / n:.2f} µs/line, {stream_s:.3f} s for {n:,} lines")
    print(f"ratio score_stream / floor: {stream_s / floor_s:.2f}x (target < 3x, aim 2x)")


if __name__ == "__main__":
    main()
