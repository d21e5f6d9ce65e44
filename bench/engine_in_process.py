"""Benchmark: a game's engine in one process, and `score_stream` against an orjson floor.

For each game named by `--game` (by default 蚌埠斗地主, 升级 and 跑胡子):
1. Reading + scoring 20,000 busy sample deals (the game's `samples.random_deals`) in-process,
   µs a deal, beside 华牌's figure on as many of its own sample deals; and a whole match at a
   table (the game's own match function), µs a match.
2. `scoring.engine.scorefile.score_stream` over 50,000 JSON Lines of the game's sample deals,
   against a floor in the same process: per line `orjson.loads` of the line and `orjson.dumps`
   of that line's own result (computed beforehand by the stream's dispatcher, `result_of`), the
   JSON work any implementation must do. Both write each line to /dev/null, as
   `manage.py score_deal` writes to its output. The two alternate, best of seven each; the
   ratio must stay below 3× (aim 2×).
3. The same stream with a game that returns a fixed result (the first line's), against the floor
   dumping that result: what the stream adds before any game's work.
Times are this process's CPU time (`time.process_time`): the machine is shared, and another
busy process disturbs CPU time far less than the wall clock.

Run: .venv/bin/python bench/engine_in_process.py [--game ID ...] [--deals N] [--lines N]
"""

import argparse
import importlib
import os
import platform
import random
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import OTHER_GAMES  # each game's samples module, by id
from scoring.engine.scorefile import result_of, score_stream
from scoring.games import GAMES, get_game
from scoring.games.huapai import score_deal as huapai_score_deal
from scoring.games.huapai.samples import random_deal as huapai_random_deal

# A recorded 升级 match (its sample deals carry the state a stream threads, not a match's first deal).
SHENGJI_MATCH = [{"declarer": "NS", "points": 40}, *({"points": p} for p in (80, 110, 135, 60, 0, 125, 95))]
# A whole match at a table, by the game's own match function (beyond the `Game` protocol):
# (what it is, a function of the game's sample deals that plays one match).
MATCHES = {
    "bengbu-doudizhu": ("score_match, 8 deals", lambda deals: get_game("bengbu-doudizhu").score_match(deals[:8])),
    "shengji": ("match, 8 deals", lambda deals: get_game("shengji").match(SHENGJI_MATCH, {"target": None, "deals": 8})),
    "paohuzi": ("play_match, 9 deals", lambda deals: get_game("paohuzi").play_match(deals[:9])),
}


def best(function, times=5):
    """The least CPU time of this process over `times` runs."""
    runs = []
    for _ in range(times):
        started = time.process_time()
        function()
        runs.append(time.process_time() - started)
    return min(runs)


def alternated(first, second, times=7):
    """`best` of two functions run in turns, so that a busy spell weighs on both alike."""
    one, two = [], []
    for _ in range(times):
        one.append(best(first, 1))
        two.append(best(second, 1))
    return min(one), min(two)


def per_deal_us(score, deals):
    def run():
        for deal in deals:
            score(deal)

    return best(run) / len(deals) * 1e6


class FixedResult:
    """A game that costs nothing: every deal's result is the same object."""

    def __init__(self, result):
        self.result = result

    def score_deal(self, deal, rules=None):
        return self.result


def bench_game(game_id, args, huapai_us):
    game = GAMES[game_id]
    samples = importlib.import_module(OTHER_GAMES[game_id])
    deals = list(samples.random_deals(args.deals, seed=2026))
    game_us = per_deal_us(game.score_deal, deals)
    print(f"== {game.name} ({game_id})")
    print(
        f"in-process, {args.deals:,} deals read + scored: {game.name} {game_us:.2f} µs a deal, "
        f"华牌 {huapai_us:.2f} µs a deal"
    )
    what, play = MATCHES[game_id]
    match_us = best(lambda: [play(deals) for _ in range(1000)]) / 1000 * 1e6
    print(f"a whole match at a table ({what}): {match_us:.1f} µs a match")

    lines = [orjson.dumps(deal) for deal in samples.random_deals(args.lines, seed=2027)]
    results = [result_of(orjson.loads(line)) for line in lines]
    assert not any("error" in result for result in results), "the sample deals are valid"
    out = open(os.devnull, "wb")  # noqa: SIM115
    write = out.write

    def emit(data):
        write(data)
        write(b"\n")

    def floor():
        loads, dumps = orjson.loads, orjson.dumps
        for line, result in zip(lines, results, strict=True):
            loads(line)
            emit(dumps(result))

    def stream():
        assert score_stream(iter(lines), emit) == 0

    def fixed_floor():
        loads, dumps, fixed = orjson.loads, orjson.dumps, results[0]
        for line in lines:
            loads(line)
            emit(dumps(fixed))

    floor_s, stream_s = alternated(floor, stream)
    GAMES[game_id] = FixedResult(results[0])
    try:
        fixed_floor_s, fixed_s = alternated(fixed_floor, stream)
    finally:
        GAMES[game_id] = game
    out.close()
    n = len(lines)
    print(
        f"score_stream, {n:,} lines (CPU, alternated, best of 7): floor (orjson loads + dumps of the "
        f"line's result) {floor_s * 1e6 / n:.2f} µs a line, score_stream {stream_s * 1e6 / n:.2f} µs a line"
    )
    print(f"ratio score_stream / floor: {stream_s / floor_s:.2f}x (target < 3x, aim 2x)")
    print(
        f"score_stream with a game that returns a fixed result: {fixed_s * 1e6 / n:.2f} µs a line, "
        f"{fixed_s / fixed_floor_s:.2f}x its floor (dumps of that result, {fixed_floor_s * 1e6 / n:.2f} µs a line): "
        "what the stream adds before any game's work"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="+", choices=list(OTHER_GAMES), default=list(OTHER_GAMES))
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=50_000)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    rng = random.Random(2026)
    huapai_us = per_deal_us(huapai_score_deal, [huapai_random_deal(rng) for _ in range(args.deals)])
    for game_id in args.game:
        bench_game(game_id, args, huapai_us)


if __name__ == "__main__":
    main()
