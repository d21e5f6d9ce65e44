"""Benchmark: from "the database is lost" to "the site is serving again" (docs/deploying.md, the
runbook), for the demo and for a 1,000-table round in progress, on SQLite and PostgreSQL.

For each database and each event it builds a fresh database (the demo: `manage.py load_demo`, as
`make run` loads it; the round: 2,000 pairs in `players` entry, round 1 official with 16 boards,
round 2's 1,000 tables in play with `--boards` boards entered), takes a backup with the site's own
service (`scoring.backups.services.take_backup`, proven by its check), then destroys the database
(the SQLite file deleted; the PostgreSQL database dropped) and times the runbook's steps, each in
its own process as an operator runs them:

1. `manage.py restore FILE --into NEW` (SQLite) or `--database NEW` (PostgreSQL): the checksum,
   the restore, the row counts and every event's standings against the manifest;
2. `manage.py migrate --check` on the restored database (exit 0: nothing to apply);
3. gunicorn started as shipped (gunicorn.conf.py, production settings) on the restored database,
   until it has served the event's standings page and a table link's page of the round, each 200.

The floors, in the same run, one for each step: a process that starts Django and then restores
the plainest way (a copy of the backup file; `createdb` and a plain `pg_restore` of the same dump),
a process that only starts Django, and gunicorn started the same way answering a static file.
Each restore goes into a new database, `--repeat` times; each figure is printed as the range of
the runs, and the ratio is the best run against the best floor. The machine's part only: the
operator's steps (stopping the hosts, finding the file, editing huapai.env) are not timed.

Run: .venv/bin/python bench/restore_time.py [--db sqlite postgres] [--events demo round]
     [--tables 1000] [--boards 8] [--repeat 3]
"""

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.referee_load import OUT, free_port, server_env  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"

SETUP = r"""
import json, sys, time
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
if sys.argv[3] == "1":
    call_command("collectstatic", verbosity=0, interactive=False)
from scoring.models import Deal, Round, Table

which, tables = sys.argv[1], int(sys.argv[2])
if which == "demo":
    from scoring.events.demo import DEMO_SLUG, load_demo
    load_demo()
    slug = DEMO_SLUG
else:
    from bench.big_event import generate
    from scoring.archive.database import import_archive
    boards = int(sys.argv[4])
    archive, _ = generate(2 * tables, rounds=2)
    slug = archive["event"]["slug"] = "restore-round"
    archive["event"]["entry"] = "players"
    playing = archive["rounds"][1]
    playing["status"] = "in_play"
    for match in playing["matches"]:
        if "deals" in match:
            match["deals"] = match["deals"][:boards]
    import_archive(archive)
# A table of the event's latest round (in play, for the round): its link's page must answer.
table = Table.objects.filter(round__event__slug=slug).order_by("-round__number", "number").first()
from scoring.backups.services import take_backup
started = time.perf_counter()
row = take_backup("bench")
print(json.dumps({
    "slug": slug, "token": table.token, "file": row.file, "status": row.status, "message": row.message,
    "size": row.size, "backup_seconds": time.perf_counter() - started,
    "tables": Table.objects.filter(round=table.round).count(), "round": table.round.number,
    "round_status": table.round.status,
    "deals": Deal.objects.filter(table__round__event__slug=slug).count(),
    "rounds_in_play": Round.objects.filter(event__slug=slug, status="in_play").count(),
}))
"""


def answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def psql(sql):
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(sql)


def sqlite_files(path):
    return [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")]


def env_for(url, backups):
    env = server_env(url)
    env.pop("REDIS_URL", None)  # each process's own cache: nothing outlives the lost database
    env.pop("HUAPAI_BACKUP_COPY_DIR", None)
    env["HUAPAI_BACKUP_DIR"] = str(backups)
    return env


def manage(env, *arguments):
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(arguments)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return seconds


def get(port, path):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": "127.0.0.1"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def serve_until(env, paths, deadline_seconds=120):
    """Start gunicorn as shipped (gunicorn.conf.py from the working directory) and return
    (seconds until every path answered 200, the server process)."""
    port = free_port()
    began = time.perf_counter()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi", "--log-level", "warning"],
        cwd=REPO,
        env=dict(env, BIND=f"127.0.0.1:{port}"),
        start_new_session=True,
    )
    waiting = list(paths)
    last = {}
    while waiting:
        if time.perf_counter() - began > deadline_seconds or server.poll() is not None:
            stop(server)
            raise SystemExit(f"the site did not serve {waiting} (last answers {last})")
        if not answers(port):
            time.sleep(0.02)
            continue
        last[waiting[0]] = get(port, waiting[0])
        if last[waiting[0]] == 200:
            waiting.pop(0)
        else:
            time.sleep(0.05)
    return time.perf_counter() - began, server


def stop(server):
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)


def build(db, which, args, first):
    """A fresh database holding `which`, and a proven backup of it: (live url, setup's report, backups folder)."""
    backups = OUT / "restore-backups" / f"{db}-{which}"
    shutil.rmtree(backups, ignore_errors=True)
    if db == "sqlite":
        live = OUT / f"restore-{which}.sqlite3"
        for path in sqlite_files(live):
            path.unlink(missing_ok=True)
        url = f"sqlite:///{live}"
    else:
        name = f"huapai_restore_{which}"
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{name}"')
        url = f"{PG}/{name}"
    env = env_for(url, backups)
    began = time.perf_counter()
    made = subprocess.run(
        [sys.executable, "-c", SETUP, which, str(args.tables), "1" if first else "0", str(args.boards)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        raise SystemExit(f"setup failed:\n{made.stderr[-4000:]}")
    report = json.loads(made.stdout.strip().splitlines()[-1])
    report["build_seconds"] = time.perf_counter() - began
    if report["status"] != "ok":
        raise SystemExit(f"the backup's check did not pass: {report['status']} {report['message']}")
    return url, report, backups


def destroy(db, url):
    if db == "sqlite":
        for path in sqlite_files(url.removeprefix("sqlite:///")):
            path.unlink(missing_ok=True)
        return
    name = url.rsplit("/", 1)[1]
    psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    # The site started on a restored database takes a backup at once (one is due), and stopping
    # it mid-check leaves the check's scratch database, which only a later check there would drop.
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        names = [row[0] for row in connection.execute("SELECT datname FROM pg_database").fetchall()]
    for left in names:
        if left.startswith(f"{name}_check_"):
            psql(f'DROP DATABASE IF EXISTS "{left}" WITH (FORCE)')


def floor_restore(db, backup, attempt):
    """The restore alone, the plainest way: a copy of the backup file; createdb + pg_restore."""
    began = time.perf_counter()
    if db == "sqlite":
        target = OUT / f"restore-floor-{attempt}.sqlite3"
        shutil.copyfile(backup, target)
        with open(target, "rb+") as handle:
            os.fsync(handle.fileno())
        seconds = time.perf_counter() - began
        target.unlink()
        return seconds
    name = f"huapai_restore_floor_{attempt}"
    psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    began = time.perf_counter()
    psql(f'CREATE DATABASE "{name}"')
    subprocess.run(
        ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--dbname", f"{PG}/{name}", str(backup)],
        check=True,
    )
    seconds = time.perf_counter() - began
    psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return seconds


def runbook(db, url, report, backups, attempt):
    """Steps 3 to 5 of the runbook, timed: {'restore', 'migrate', 'serve', 'total'}."""
    backup = backups / report["file"]
    env = env_for(url, backups)  # DATABASE_URL still names the lost database, as in the runbook
    if db == "sqlite":
        restored = OUT / f"restored-{attempt}.sqlite3"
        for path in sqlite_files(restored):
            path.unlink(missing_ok=True)
        target, restored_url = ["--into", str(restored)], f"sqlite:///{restored}"
    else:
        name = f"huapai_restored_{attempt}"
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        target, restored_url = ["--database", name], f"{PG}/{name}"
    figures = {"django": django_start(env), "restore": manage(env, "restore", str(backup), *target)}
    env = env_for(restored_url, backups)  # the site pointed at it
    figures["migrate"] = manage(env, "migrate", "--check")
    figures["serve"], server = serve_until(env, [f"/events/{report['slug']}/standings/", f"/t/{report['token']}/"])
    stop(server)
    # The floor of step 3: gunicorn started the same way on the same database, answering a static file.
    figures["static"], server = serve_until(env, ["/static/css/site.css"])
    stop(server)
    destroy(db, restored_url)
    return figures


def seconds_range(values):
    low, high = min(values), max(values)
    digits = 3 if high < 0.1 else 2
    return f"{low:.{digits}f} s" if high - low < 10**-digits else f"{low:.{digits}f}–{high:.{digits}f} s"


def django_start(env):
    """A process that starts Django and does nothing: what each manage.py step pays before its work."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=REPO, env=env, check=True)
    return time.perf_counter() - began


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"])
    parser.add_argument("--events", nargs="+", choices=["demo", "round"], default=["demo", "round"])
    parser.add_argument("--tables", type=int, default=1000, help="tables in the round in play")
    parser.add_argument("--boards", type=int, default=8, help="boards entered at each table of the round in play")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    first = True
    for db in args.db:
        if db == "postgres":
            if not answers(5432):
                print("PostgreSQL: skipped, nothing answers on 127.0.0.1:5432")
                continue
            missing = [tool for tool in ("pg_dump", "pg_restore") if shutil.which(tool) is None]
            if missing:
                print(f"PostgreSQL: skipped, {' and '.join(missing)} missing (apt-get install postgresql-client)")
                continue
        for which in args.events:
            url, report, backups = build(db, which, args, first)
            first = False
            print(
                f"\n{db}, {which}: {report['deals']} deals; round {report['round']} ({report['round_status']}), "
                f"{report['tables']} tables; built in {report['build_seconds']:.1f} s; "
                f"backup {report['size'] / 1e6:.1f} MB taken and proven in {report['backup_seconds']:.2f} s"
            )
            destroy(db, url)  # the database is lost
            floors, runs = [], []
            for attempt in range(args.repeat):
                floors.append(floor_restore(db, backups / report["file"], attempt))
                runs.append(runbook(db, url, report, backups, attempt))
            plain = "a copy of the file" if db == "sqlite" else "createdb + pg_restore"
            django = [r["django"] for r in runs]
            rows = [
                (
                    "1. manage.py restore (checked)",
                    [r["restore"] for r in runs],
                    [f + d for f, d in zip(floors, django, strict=True)],
                    f"Django started + {plain}",
                ),
                ("2. manage.py migrate --check", [r["migrate"] for r in runs], django, "Django started"),
                (
                    "3. gunicorn: standings + table link 200",
                    [r["serve"] for r in runs],
                    [r["static"] for r in runs],
                    "gunicorn: a static file 200",
                ),
            ]
            totals = [sum(r[key] for key in ("restore", "migrate", "serve")) for r in runs]
            floor_totals = [sum(row[2][i] for row in rows) for i in range(len(runs))]
            rows.append(("lost → serving (1 + 2 + 3)", totals, floor_totals, "the floors together"))
            print(f"  the plain restore alone ({plain}): {seconds_range(floors)}")
            for label, measured, floor, floor_label in rows:
                ratio = min(measured) / min(floor)
                print(
                    f"  {label:<42} {seconds_range(measured):>16}   floor ({floor_label}) "
                    f"{seconds_range(floor)}   {ratio:.1f}×"
                )
            shutil.rmtree(backups, ignore_errors=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
