"""Benchmark: `manage.py score_deal` on 100,000 JSON Lines deals against a floor.

The floor is a bare Python process that reads the same file line by line,
parses each line with the standard library's `json.loads` and writes a result-sized JSON object
(the real result of the first deal) with `json.dumps`: the I/O and JSON work
any implementation must do. Both run as separate processes taking turns, best of five;
peak memory is the child's maximum resident set.

A line per game: 华牌 with one deck and with two, then every other game on its own busy samples.

Run: .venv/bin/python bench/engine.py [--deals N] [--games ID …]
"""

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.games.huapai.samples import write_jsonl  # noqa: E402

# The other games' busy sample deals (each game's samples.random_deals), with their "game" key.
OTHER_GAMES = {
    "bengbu-doudizhu": "scoring.games.doudizhu.samples",
    "shengji": "scoring.games.shengji.samples",
    "paohuzi": "scoring.games.paohuzi.samples",
}


def write_game_jsonl(path, count, game):
    import importlib
    import json

    samples = importlib.import_module(OTHER_GAMES[game])
    with open(path, "w", encoding="utf-8") as out:
        for deal in samples.random_deals(count):
            out.write(json.dumps({"game": game, **deal}, ensure_ascii=False))
            out.write("\n")


FLOOR = r"""
import json, sys
from scoring.engine.scorefile import result_of
with open(sys.argv[1], encoding="utf-8") as handle:
    template = result_of(json.loads(handle.readline()))
out = sys.stdout
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        json.loads(line)
        out.write(json.dumps(template, ensure_ascii=False))
        out.write("\n")
"""


def run(argv):
    """Wall time, CPU time (user + system) and peak RSS (MB) of one child process, output
    discarded. The ratio is taken on CPU time, which another busy process on the machine
    disturbs far less than the wall clock."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with open(os.devnull, "w") as sink:
        subprocess.run(argv, stdout=sink, check=True, cwd=REPO)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, max(after.ru_maxrss, before.ru_maxrss) / 1024


def best_of_each(commands, times=5):
    """Each command's best wall and CPU time and its peak memory over `times` runs, the commands
    taking turns: a machine busy for a while then slows the floor and the command alike, where
    running one command's runs after the other's would put the busy spell in one ratio only."""
    runs = [[] for _ in commands]
    for _ in range(times):
        for measured, argv in zip(runs, commands, strict=True):
            measured.append(run(argv))
    return [(min(r[0] for r in rs), min(r[1] for r in rs), max(r[2] for r in rs)) for rs in runs]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument(
        "--games",
        nargs="*",
        default=["huapai", "online-2deck", *OTHER_GAMES],
        help="华牌 rule sets and/or other games' ids (default: both 华牌 rule sets and every other game)",
    )
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"deals: {args.deals:,} per rule set")
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset in args.games:
            path = Path(tmp) / f"{ruleset}.jsonl"
            if ruleset in OTHER_GAMES:
                write_game_jsonl(path, args.deals, ruleset)
            else:
                write_jsonl(path, args.deals, ruleset=ruleset)
            (floor_s, floor_cpu, floor_mb), (command_s, command_cpu, command_mb) = best_of_each(
                [[sys.executable, "-c", FLOOR, str(path)], [sys.executable, "manage.py", "score_deal", str(path)]]
            )
            kind = "game" if ruleset in OTHER_GAMES else "two decks" if ruleset.endswith("2deck") else "one deck"
            print(f"== {ruleset} ({kind})")
            print(
                f"floor (json.loads + json.dumps per line): {floor_s:.2f} s wall, {floor_cpu:.2f} s CPU, "
                f"{args.deals / floor_s:,.0f} lines/s"
            )
            print(
                f"score_deal: {command_s:.2f} s wall, {command_cpu:.2f} s CPU, {args.deals / command_s:,.0f} deals/s, "
                f"peak {command_mb:.0f} MB (floor process peak {floor_mb:.0f} MB)"
            )
            print(
                f"ratio score_deal / floor: {command_cpu / floor_cpu:.2f}x CPU, {command_s / floor_s:.2f}x wall "
                "(target: within 2x)"
            )


if __name__ == "__main__":
    main()
