"""Benchmark: the 跑胡子 engine in-process, and `score_stream` over JSON Lines against a floor.

1. Reading + scoring 20,000 busy sample deals (`scoring.games.paohuzi.samples`) in-process,
   µs per deal, beside 华牌's figure for the same count of its own sample deals.
2. `scoring.engine.scorefile.score_stream` over 50,000 JSON Lines of the same deals, against a
   floor in the same process: `orjson.loads` of each line and `orjson.dumps` of a result-sized
   object (the first deal's real result), which any implementation must do. Best of three, CPU
   time (another busy process disturbs it far less than the wall clock).

Run: .venv/bin/python bench/engine_paohuzi.py [--deals N] [--lines N]
"""

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.engine.scorefile import score_stream  # noqa: E402
from scoring.games.huapai import score_deal as huapai_score_deal  # noqa: E402
from scoring.games.huapai.samples import random_deal as huapai_random_deal  # noqa: E402
from scoring.games.paohuzi import random_deals, score_deal  # noqa: E402


def best_cpu(function, times=3):
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
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")

    deals = list(random_deals(args.deals, seed=2026))
    rng = random.Random(2026)
    huapai_deals = [huapai_random_deal(rng) for _ in range(args.deals)]

    def paohuzi():
        for deal in deals:
            score_deal(deal)

    def huapai():
        for deal in huapai_deals:
            huapai_score_deal(deal)

    paohuzi_s = best_cpu(paohuzi)
    huapai_s = best_cpu(huapai)
    print(f"in-process, {args.deals:,} deals read + scored:")
    print(f"  paohuzi {paohuzi_s / args.deals * 1e6:.2f} µs/deal; huapai {huapai_s / args.deals * 1e6:.2f} µs/deal")

    lines = [orjson.dumps(deal) + b"\n" for deal in random_deals(args.lines, seed=7)]
    template = score_deal(orjson.loads(lines[0]))
    sink = []

    def floor():
        loads, dumps, write = orjson.loads, orjson.dumps, sink.append
        for line in lines:
            loads(line)
            write(dumps(template))
        sink.clear()

    def stream():
        assert score_stream(lines, sink.append) == 0
        assert len(sink) == len(lines) and b'"error"' not in sink[-1]
        sink.clear()

    floor_s = best_cpu(floor)
    stream_s = best_cpu(stream)
    print(f"score_stream, {args.lines:,} JSON Lines (CPU, best of 3):")
    floor_us = floor_s / args.lines * 1e6
    print(f"  floor (orjson loads + dumps of a result-sized object): {floor_s:.3f} s, {floor_us:.2f} µs/line")
    print(f"  score_stream: {stream_s:.3f} s, {stream_s / args.lines * 1e6:.2f} µs/line")
    print(f"  ratio score_stream / floor: {stream_s / floor_s:.2f}x (must be < 3x, aim 2x)")


if __name__ == "__main__":
    main()
