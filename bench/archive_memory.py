"""Benchmark: the memory an archive import takes, against the file's size (issue 37, issue 44).

For the generated event of `bench/big_event.py` (N pairs, 9 rounds of 16 boards), as the site
exports it (indent=1) and compact, each in its own process:
- check: `format.read_archive` of the file (no Django, no database);
- import: `manage.py import_event FILE` into a fresh SQLite database (settings as in production:
  DEBUG off, so no query log).
Growth is the peak resident set during the stage (VmHWM, reset just before) minus the resident
set before it, with Django and the game's code loaded and warm.

`--shape` NAME (or `hostile`, every one in turn) measures instead an archive built to take as much
memory as it can per byte of its file, written compact (the smallest file for its content):
- one-deal-tables: 100,000 tables (the bound) of one deal each, the smallest valid deal
  (`{"board":1,"captured":{}}`); teams-one-deal and individual-one-deal: the same for teams
  (two tables a match) and individuals (four seats a table);
- tiny-deals: 2,000 tables of 200 such deals each; giant-match: one table with as many as fit
  in one match's 4 M characters;
- tiny-rounds: 200 rounds (the bound) of one table of one deal;
- long-strings: 5,000 matches each carrying its own 1,000 random CJK characters, every name at 100;
- many-entrants: 20,000 players (the bound) in 10,000 pairs, one round of 5,000 one-deal tables.

Run: .venv/bin/python bench/archive_memory.py [--pairs 1000] [--shape hostile]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"


def _status(key):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(key + ":"))


def _reset_peak():
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return _status("VmRSS")


def stage(name, path):
    sys.path.insert(0, str(REPO))
    if name == "check":
        from scoring.archive.format import parse_archive, read_archive
        from tests.archives import four_pairs_two_rounds

        parse_archive(four_pairs_two_rounds())
        before = _reset_peak()
        started = time.perf_counter()
        with open(path, "rb") as handle:
            read_archive(handle)
    else:
        database = OUT / f"archive-memory-{os.getpid()}.sqlite3"
        os.environ.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_SETTINGS_MODULE="huapai.settings")
        os.environ.setdefault("SECRET_KEY", "archive-memory-bench-" * 3)
        import django

        django.setup()
        from django.core.management import call_command

        from scoring.archive.database import import_archive
        from tests.archives import four_pairs_two_rounds

        call_command("migrate", verbosity=0)
        import_archive(four_pairs_two_rounds())
        before = _reset_peak()
        started = time.perf_counter()
        with open(os.devnull, "w") as quiet:
            call_command("import_event", str(path), stdout=quiet)
        for suffix in ("", "-wal", "-shm", ".writers"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "growth": _status("VmHWM") - before, "size": os.path.getsize(path)}


TINY = {"board": 1, "captured": {}}  # a valid 华牌 deal: nothing captured, every seat 0


def _tiny_deals(count):
    return [{**TINY, "board": board} for board in range(1, count + 1)]


def _people(count, name="某"):
    return [{"id": f"p{n}", "name": name} for n in range(count)]


def _pairs(pairs, rounds, tables, deals=1, note=None, name="某"):
    """`pairs` pairs, `rounds` rounds of `tables` tables (pairs 2t and 2t+1, moved on one each round)."""
    codes = [f"A{n}" for n in range(pairs)]
    archive_rounds = []
    for number in range(1, rounds + 1):
        matches = []
        for table in range(tables):
            ns, ew = (2 * table + number) % pairs, (2 * table + 1 + number) % pairs
            match = {"table": table + 1, "ns": codes[ns], "ew": codes[ew], "deals": _tiny_deals(deals)}
            if note:
                match["note"] = note(number * tables + table)
            matches.append(match)
        archive_rounds.append({"number": number, "matches": matches})
    return {
        "format": "huapai-event/1",
        "event": {"slug": "hostile", "kind": "pairs"},
        "players": _people(2 * pairs, name),
        "pairs": [
            {"id": code, "name": name[:200], "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i, code in enumerate(codes)
        ],
        "rounds": archive_rounds,
    }


def _teams(teams, rounds):
    codes = [f"T{n}" for n in range(teams)]
    archive_rounds = []
    for number in range(1, rounds + 1):
        matches = []
        for match in range(teams // 2):
            home, away = (2 * match + number) % teams, (2 * match + 1 + number) % teams
            h, a = [f"p{4 * home + i}" for i in range(4)], [f"p{4 * away + i}" for i in range(4)]
            tables = [
                {"table": 2 * match + 1, "ns_team": codes[home], "ew_team": codes[away], "ns": h[:2], "ew": a[:2]},
                {"table": 2 * match + 2, "ns_team": codes[away], "ew_team": codes[home], "ns": a[2:], "ew": h[2:]},
            ]
            for table in tables:
                table["deals"] = _tiny_deals(1)
            matches.append({"home": codes[home], "away": codes[away], "tables": tables})
        archive_rounds.append({"number": number, "matches": matches})
    return {
        "format": "huapai-event/1",
        "event": {"slug": "hostile", "kind": "teams"},
        "players": _people(4 * teams),
        "teams": [{"id": code, "players": [f"p{4 * i + k}" for k in range(4)]} for i, code in enumerate(codes)],
        "rounds": archive_rounds,
    }


def _individual(players, rounds):
    archive_rounds = []
    for number in range(1, rounds + 1):
        matches = []
        for table in range(players // 4):
            seats = {seat: f"p{(4 * table + k + number) % players}" for k, seat in enumerate("NESW")}
            matches.append({"table": table + 1, "seats": seats, "deals": _tiny_deals(1)})
        archive_rounds.append({"number": number, "matches": matches})
    return {
        "format": "huapai-event/1",
        "event": {"slug": "hostile", "kind": "individual"},
        "players": _people(players),
        "rounds": archive_rounds,
    }


def _long_text(length, seed=0):
    # Characters of the CJK block drawn at random, a different text for each seed, so that nothing
    # repeats for compression to find.
    rng = random.Random(seed)
    return "".join(chr(0x4E00 + rng.randrange(20000)) for _ in range(length))


SHAPES = {
    "one-deal-tables": lambda: _pairs(2000, 100, 1000),
    "teams-one-deal": lambda: _teams(1000, 100),
    "individual-one-deal": lambda: _individual(4000, 100),
    "tiny-deals": lambda: _pairs(400, 10, 200, deals=200),
    "giant-match": lambda: _pairs(2, 1, 1, deals=130_000),
    "tiny-rounds": lambda: _pairs(2, 200, 1),
    "long-strings": lambda: _pairs(2000, 5, 1000, note=lambda n: _long_text(1000, n), name=_long_text(100)),
    "many-entrants": lambda: _pairs(10_000, 1, 5000),
}


def write_shape(name):
    path = OUT / f"hostile-{name}.json"
    if not path.exists():
        path.write_text(json.dumps(SHAPES[name](), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return path


def child(name, path):
    done = subprocess.run(
        [sys.executable, __file__, "--stage", name, str(path)], cwd=REPO, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"stage {name} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--stage")
    parser.add_argument("--shape", choices=[*SHAPES, "hostile"])
    args, rest = parser.parse_known_args()
    if args.stage:
        print(json.dumps(stage(args.stage, rest[0])))
        return
    OUT.mkdir(exist_ok=True)
    if args.shape:
        show([write_shape(name) for name in (SHAPES if args.shape == "hostile" else [args.shape])])
        return
    compact = OUT / f"big-{args.pairs}.json"
    if not compact.exists():
        subprocess.run(
            [sys.executable, "bench/big_event.py", "--pairs", str(args.pairs), "--out", str(compact)],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
    exported = OUT / f"big-{args.pairs}-indent.json"
    if not exported.exists():
        with open(compact, encoding="utf-8") as source:
            data = json.load(source)
        exported.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    show([exported, compact])


def show(paths):
    print("file | MB | stage | seconds | growth MB | growth / file")
    for path in paths:
        for name in ("check", "import"):
            r = child(name, path)
            mb = r["size"] / 2**20
            print(
                f"{path.name} | {mb:.2f} | {name} | {r['seconds']:.1f} | {r['growth'] / 2**20:.1f} | "
                f"{r['growth'] / r['size']:.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
