"""Benchmark: the memory an archive import takes, against the file's size (issue 37, issue 44).

For the generated event of `bench/big_event.py` (N pairs, 9 rounds of 16 boards), as the site
exports it (indent=1) and compact, each in its own process:
- check: `format.read_archive` of the file (no Django, no database);
- import: `manage.py import_event FILE` into a fresh SQLite database (settings as in production:
  DEBUG off, so no query log).
Growth is the peak resident set during the stage (VmHWM, reset just before) minus the resident
set before it, with Django and the game's code loaded and warm.

Run: .venv/bin/python bench/archive_memory.py [--pairs 1000]
"""

import argparse
import json
import os
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
    args, rest = parser.parse_known_args()
    if args.stage:
        print(json.dumps(stage(args.stage, rest[0])))
        return
    OUT.mkdir(exist_ok=True)
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
    print("file | MB | stage | seconds | growth MB | growth / file")
    for path in (exported, compact):
        for name in ("check", "import"):
            r = child(name, path)
            mb = r["size"] / 2**20
            print(
                f"{path.name} | {mb:.1f} | {name} | {r['seconds']:.1f} | {r['growth'] / 2**20:.0f} | "
                f"{r['growth'] / r['size']:.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
