"""Benchmark: a whole large event on SQLite and PostgreSQL — import, standings, one Swiss round.

Each stage runs in its own process (so peak memory is that stage's own);
each has a floor measured in the same run:
- import: `json.load` of the same file plus a bare `executemany` of as many
  deal rows of the same shape into a scratch table (the driver alone);
- standings: one bare SQL `GROUP BY` summing the side scores per table;
- Swiss: sorting the entrants and pairing neighbours (no rematch check).

Run: .venv/bin/python bench/event_scale.py [--pairs 5000 1250] [--no-postgres]
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def child(stage, database_url, *args):
    # Production settings, as a deployment imports: DEBUG off (no query log), a key of its own.
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="huapai.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "k" * 60,
    )
    completed = subprocess.run(
        [sys.executable, str(Path(__file__)), "--stage", stage, *args],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode:
        raise SystemExit(f"stage {stage} failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def peak_mb():
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stage(name, args):
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Event

    if name == "migrate":
        call_command("migrate", verbosity=0)
        return {}
    if name == "import":
        from scoring.archive.database import import_archive

        started, cpu = time.perf_counter(), time.process_time()
        with open(args[0], "rb") as handle:
            event = import_archive(handle)  # checked as it is read, as `manage.py import_event` does
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        return {"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb(), "deals": _deal_count(event)}
    if name == "import_floor":
        started, cpu = time.perf_counter(), time.process_time()
        with open(args[0], encoding="utf-8") as handle:
            data = json.load(handle)
        rows = [
            (
                table["table"],
                deal["board"],
                json.dumps(deal["captured"]),
                json.dumps(deal.get("holders", {})),
                json.dumps(deal.get("exposed", {})),
                json.dumps(deal.get("penalties", {})),
                0,
                0,
                0,
                0,
                0,
                0,
            )
            for rnd in data["rounds"]
            for table in rnd["matches"]
            if "deals" in table
            for deal in table["deals"]
        ]
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_floor")
            cursor.execute(
                "CREATE TABLE bench_floor (t integer, b integer, c text, h text, e text, p text,"
                " n integer, e2 integer, s integer, w integer, ns integer, ew integer)"
            )
            cursor.executemany("INSERT INTO bench_floor VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)", rows)
            cursor.execute("DROP TABLE bench_floor")
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        return {"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb(), "deals": len(rows)}
    event = Event.objects.get(slug=args[0])
    if name == "standings":
        from django.core.cache import cache

        from scoring.results.standings import event_standings

        timings = []
        for _ in range(3):
            cache.clear()  # measure the computation, not the cache
            started = time.perf_counter()
            rows = event_standings(event, published_only=True)
            timings.append(time.perf_counter() - started)
        return {"seconds": min(timings), "first": timings[0], "rows": len(rows), "peak_mb": peak_mb()}
    if name == "standings_floor":
        with connection.cursor() as cursor:
            timings = []
            for _ in range(3):
                started = time.perf_counter()
                cursor.execute(
                    "SELECT table_id, SUM(ns_score), SUM(ew_score), SUM(ns_penalty), SUM(ew_penalty),"
                    " COUNT(*) FROM scoring_deal GROUP BY table_id"
                )
                cursor.fetchall()
                timings.append(time.perf_counter() - started)
        return {"seconds": min(timings), "peak_mb": peak_mb()}
    if name == "swiss":
        from scoring.rounds.creation import round_pair

        started = time.perf_counter()
        rnd = round_pair(event, "swiss")[0]
        return {"seconds": time.perf_counter() - started, "tables": rnd.tables.count(), "peak_mb": peak_mb()}
    if name == "swiss_floor":
        from scoring.results.standings import event_standings

        rows = event_standings(event)
        started = time.perf_counter()
        ordered = sorted(rows, key=lambda r: (-r.match_points, -r.score_difference))
        pairs = [(ordered[i].id, ordered[i + 1].id) for i in range(0, len(ordered) - 1, 2)]
        return {"seconds": time.perf_counter() - started, "tables": len(pairs), "peak_mb": peak_mb()}
    raise SystemExit(f"unknown stage {name}")


def _deal_count(event):
    from scoring.models import Deal

    return Deal.objects.filter(table__round__event=event).count()


def fresh_database(kind, pairs):
    if kind == "sqlite":
        path = OUT / f"bench-{pairs}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    name = f"huapai_bench_{pairs}"
    with psycopg.connect(PG_ADMIN.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def run(kind, pairs):
    archive = OUT / f"big-{pairs}.json"
    if not archive.exists():
        subprocess.run(
            [sys.executable, "bench/big_event.py", "--pairs", str(pairs), "--out", str(archive)],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
    url = fresh_database(kind, pairs)
    child("migrate", url)
    floor_import = child("import_floor", url, str(archive))
    imported = child("import", url, str(archive))
    slug = f"big-{pairs}"
    standings = child("standings", url, slug)
    standings_floor = child("standings_floor", url, slug)
    swiss_floor = child("swiss_floor", url, slug)
    swiss = child("swiss", url, slug)
    return {
        "database": kind,
        "pairs": pairs,
        "deals": imported["deals"],
        "import_s": imported["seconds"],
        "import_floor_s": floor_import["seconds"],
        # The process's own CPU time: a shared machine's other work moves it far less than the wall clock.
        "import_cpu_s": imported["cpu"],
        "import_floor_cpu_s": floor_import["cpu"],
        "import_peak_mb": imported["peak_mb"],
        "standings_s": standings["seconds"],
        "standings_first_s": standings["first"],
        "standings_floor_s": standings_floor["seconds"],
        "standings_peak_mb": standings["peak_mb"],
        "swiss_s": swiss["seconds"],
        "swiss_floor_s": swiss_floor["seconds"],
        "swiss_peak_mb": swiss["peak_mb"],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stage")
    parser.add_argument("--pairs", type=int, nargs="+", default=[1250, 5000])
    parser.add_argument("--no-postgres", action="store_true")
    args, rest = parser.parse_known_args()
    if args.stage:
        sys.path.insert(0, str(REPO))
        print(json.dumps(stage(args.stage, rest)))
        return
    OUT.mkdir(exist_ok=True)
    kinds = ["sqlite"] + ([] if args.no_postgres else ["postgres"])
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    header = (
        "db",
        "pairs",
        "deals",
        "import s (floor)",
        "import CPU s (floor)",
        "peak MB",
        "standings s (floor)",
        "swiss s (floor)",
    )
    print(" | ".join(header))
    for pairs in args.pairs:
        for kind in kinds:
            r = run(kind, pairs)
            print(
                f"{kind} | {pairs} | {r['deals']:,} | {r['import_s']:.1f} ({r['import_floor_s']:.1f}, "
                f"{r['import_s'] / r['import_floor_s']:.1f}x) | "
                f"{r['import_cpu_s']:.1f} ({r['import_floor_cpu_s']:.1f}, "
                f"{r['import_cpu_s'] / r['import_floor_cpu_s']:.1f}x) | {r['import_peak_mb']:.0f} | "
                f"{r['standings_s']:.2f} ({r['standings_floor_s']:.2f}) first {r['standings_first_s']:.2f} | "
                f"{r['swiss_s']:.2f} ({r['swiss_floor_s']:.3f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
