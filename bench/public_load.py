"""Benchmark: a crowd on the public pages after a publication.

Imports the generated 1,250-pair event (bench/big_event.py: 9 Swiss rounds × 16 boards,
90,000 deals) into a fresh SQLite (or PostgreSQL, --postgres) database, starts gunicorn
exactly as shipped (gunicorn.conf.py, production settings, DEBUG=0) with the Redis cache,
times each route's first request on that cold cache, then publishes (the public version
moves) and times each route's first request again while the publication's warm-up
(`scoring.cache.warmup`) runs beside it, and then, once it is done, for every public route and
every crowd size, runs closed-loop keep-alive clients (each sends its next request when the
previous answer arrived, `Accept-Encoding: gzip` as phones do) for `--seconds`. The floor
is the same clients fetching a static file (served by WhiteNoise through the same gunicorn)
in the same run. The entrant route cycles over 400 entrants: its first pass renders each.

The client is asyncio in its own process, so the server's two cores are shared with it
exactly as they are for the floor. Every loop is bounded in count and time and only talks
to 127.0.0.1.

With `--entry-rate R` (a real 2,500-table round produces about 7 deals a second) the next
round is paired and, after the quiet runs, every route is run again while a referee client
PUTs deals of that round through the API at R a second; the report gives each route's
throughput during entry as a share of its quiet figure.

Run: .venv/bin/python bench/public_load.py [--pairs 1250] [--clients 50 200] [--seconds 30] [--postgres]
     [--entry-rate 7]
"""

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.referee_load import free_port, server_env  # noqa: E402

SLUG = "crowd"
# A publication as the server sees it: the public version moves (every stored page and the
# standings are then out of date) and the warm-up (scoring.cache.warmup, as a worker's warmer would) runs beside the
# first readers, whom the bench times meanwhile.
PUBLISH = r"""
import sys, time
import django
django.setup()
from django.db import transaction
from scoring.models import Event
from scoring.cache import announce_results_changed
from scoring.cache.warmup import warm_event
event = Event.objects.get(slug=sys.argv[1])
with transaction.atomic():
    announce_results_changed(event, public=True)
print("published", flush=True)
started = time.perf_counter()
warm_event(event)
print(f"{time.perf_counter() - started:.1f}", flush=True)
"""
SETUP = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from scoring.archive.database import import_archive
with open(sys.argv[1], "rb") as handle:
    event = import_archive(handle.read(), consume=True)
from scoring.models import Entrant
codes = list(Entrant.objects.filter(event=event).values_list("code", flat=True)[:400])
token = None
if sys.argv[2] == "live":
    # The next round paired and in play, and a referee with an API token to enter it.
    from scoring.events.accounts import role_grant, token_for
    from scoring.rounds.creation import round_pair
    rnd, _ = round_pair(event, "swiss")
    token = token_for(role_grant(username="live-referee", role="referee", event=event)[0])
    print(json.dumps({"codes": codes, "token": token, "round": rnd.number, "tables": rnd.tables.count()}))
else:
    print(json.dumps({"codes": codes}))
"""

ENTRY = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from bench.referee_load import KeepAliveClient, deal_body, request_bytes
port, token = int(sys.argv[2]), sys.argv[3]
number, tables, rate, seconds = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
sent = int(sys.argv[8])  # deals entered by the earlier passes: each pass enters new boards
rng = random.Random(13)
client = KeepAliveClient(port)
statuses = {}
interval = 1 / rate
next_start = time.perf_counter()
stop_at = next_start + seconds
while time.perf_counter() < stop_at:
    time.sleep(max(0.0, next_start - time.perf_counter()))
    next_start += interval
    table, board = sent % tables + 1, sent // tables + 1
    path = f"/api/events/crowd/rounds/{number}/tables/{table}/boards/{board}"
    status = client.request(request_bytes("PUT", path, token, deal_body(rng)))
    statuses[status] = statuses.get(status, 0) + 1
    sent += 1
print(json.dumps(statuses))
"""


def routes(codes):
    """(name, list of paths a client cycles through)."""
    return [
        ("static floor", ["/static/css/site.css"]),
        ("event page", [f"/events/{SLUG}/"]),
        ("standings (100 rows)", [f"/events/{SLUG}/standings/?per_page=100"]),
        ("entrant record", [f"/events/{SLUG}/entrants/{code}/" for code in codes]),
        ("board traveller", [f"/events/{SLUG}/rounds/9/boards/{board}/" for board in range(1, 17)]),
        ("round results", [f"/events/{SLUG}/rounds/9/"]),
        ("draw", [f"/events/{SLUG}/rounds/9/draw/"]),
    ]


async def _client(port, paths, offset, stop_at, latencies, statuses):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    index = offset
    try:
        while time.monotonic() < stop_at:
            path = paths[index % len(paths)]
            index += 1
            started = time.monotonic()
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
                "Accept-Language: zh-CN\r\n\r\n".encode()
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            chunked = False
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
                elif name.lower() == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
            if chunked:
                while True:
                    size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                    await reader.readexactly(size + 2)
                    if size == 0:
                        break
            else:
                await reader.readexactly(length)
            latencies.append(time.monotonic() - started)
            statuses[status] = statuses.get(status, 0) + 1
    finally:
        writer.close()


async def _crowd(port, paths, clients, seconds):
    latencies, statuses = [], {}
    stop_at = time.monotonic() + seconds
    started = time.monotonic()
    # Each client starts at its own place in the list, spread over it, as players each open
    # their own page. Started side by side (client k at page k) they walked in step: each
    # next page was the one its neighbour was rendering, so one client rendered at a time
    # and the others waited for it (docs/performance.md, public pages under a crowd).
    offsets = [k * len(paths) // clients for k in range(clients)]
    await asyncio.gather(
        *(_client(port, paths, offset, stop_at, latencies, statuses) for offset in offsets),
        return_exceptions=True,
    )
    elapsed = time.monotonic() - started
    return latencies, statuses, elapsed


def crowd(port, paths, clients, seconds):
    """Run in a child process so that the client's Python never shares a GIL with anything."""
    script = (
        "import asyncio, json, sys; sys.path.insert(0, sys.argv[1]);"
        "from bench.public_load import _crowd;"
        "a = sys.argv;"
        "lat, st, el = asyncio.run(_crowd(int(a[2]), json.loads(a[3]), int(a[4]), float(a[5])));"
        "print(json.dumps({'latencies': lat, 'statuses': st, 'elapsed': el}))"
    )
    command = [sys.executable, "-c", script, str(REPO), str(port), json.dumps(paths), str(clients), str(seconds)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def first_request_seconds(port, path):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return time.perf_counter() - started, response.status


def live_entry(port, table, args, setup, quiet):
    """Every route again while a referee enters the next round at `--entry-rate` deals/s."""
    entered_so_far = 0
    for clients in args.clients:
        print(f"\n{clients} clients while a referee enters {args.entry_rate:g} deals/s (round {setup['round']}):")
        print(f"  {'route':24} {'req/s':>8} {'p95 ms':>8} {'of quiet':>9}  statuses  (entry statuses)")
        for name, paths in table:
            arguments = [str(REPO), str(port), setup["token"], str(setup["round"]), str(setup["tables"])]
            entry = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    ENTRY,
                    *arguments,
                    str(args.entry_rate),
                    str(args.seconds + 1),
                    str(entered_so_far),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(0.5)  # the entry client is pacing before the crowd starts
            run = crowd(port, paths, clients, args.seconds)
            entered = json.loads(entry.communicate(timeout=args.seconds + 60)[0])
            entered_so_far += sum(entered.values())
            rate = len(run["latencies"]) / run["elapsed"]
            p95 = percentile(run["latencies"], 0.95)
            share = rate / quiet[(name, clients)][0]
            print(f"  {name:24} {rate:8.0f} {p95 * 1000:8.0f} {share:9.1%}  {run['statuses']}  ({entered})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=1250)
    parser.add_argument("--clients", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--only", default="", help="run only the routes whose name contains this")
    parser.add_argument("--entry-rate", type=float, default=0, help="deals/s entered during a second pass")
    args = parser.parse_args()

    from bench.big_event import generate

    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "event.json"
        document, _swiss_seconds = generate(args.pairs)
        document["event"]["slug"] = SLUG
        archive.write_text(json.dumps(document, ensure_ascii=False))
        if args.postgres:
            url = "postgres://postgres@127.0.0.1:5432/huapai_public_load"
            subprocess.run(
                ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "huapai_public_load"], check=True
            )
            subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", "huapai_public_load"], check=True)
        else:
            url = f"sqlite:///{tmp}/db.sqlite3"
        env = dict(server_env(url), REDIS_URL=args.redis)
        subprocess.run(
            ["redis-cli", "-u", args.redis, "flushdb"], check=False, capture_output=True
        )  # a fresh cache: the first requests are cold
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", SETUP, str(archive), "live" if args.entry_rate else "quiet"],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode:
            raise SystemExit(f"setup failed:\n{out.stderr[-3000:]}")
        setup = json.loads(out.stdout.strip().splitlines()[-1])
        codes = setup["codes"]
        print(f"imported {args.pairs} pairs in {time.perf_counter() - started:.1f} s")
        port = free_port()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi"],
            env=dict(env, BIND=f"127.0.0.1:{port}"),
            cwd=REPO,
        )
        try:
            for _ in range(100):
                try:
                    first_request_seconds(port, "/static/css/site.css")
                    break
                except OSError:
                    time.sleep(0.2)
            table = [(name, paths) for name, paths in routes(codes) if name == "static floor" or args.only in name]
            print(
                f"machine: {platform.node()} {os.cpu_count()} cores, {platform.python_version()}, "
                f"{'PostgreSQL' if args.postgres else 'SQLite'}, Redis cache, gunicorn.conf.py"
            )
            print("first request (cold cache):")
            for name, paths in table:
                seconds, status = first_request_seconds(port, paths[0])
                print(f"  {name:24} {seconds * 1000:8.0f} ms  ({status})")
            # The first readers after a publication, while its warm-up runs (on a server that
            # has served before, as after the first requests above).
            publication = subprocess.Popen(
                [sys.executable, "-c", PUBLISH, SLUG], env=env, cwd=REPO, stdout=subprocess.PIPE, text=True
            )
            if publication.stdout.readline().strip() != "published":
                raise SystemExit("the publication failed")
            # Each worker reads the public version at most once a second (HUAPAI_PAGE_STAMP_SECONDS):
            # until then it answers with the page stored before the publication.
            time.sleep(1.1)
            print("first request after a publication (1.1 s after it, its warm-up running):")
            for name, paths in table:
                seconds, status = first_request_seconds(port, paths[-1])
                print(f"  {name:24} {seconds * 1000:8.0f} ms  ({status})")
            warm_seconds = publication.stdout.readline().strip()
            if publication.wait(timeout=600):
                raise SystemExit("the warm-up failed")
            print(f"the publication's warm-up (standings, labels, every player's statistics): {warm_seconds} s")
            results = {}
            for clients in args.clients:
                for name, paths in table:
                    run = crowd(port, paths, clients, args.seconds)
                    rate = len(run["latencies"]) / run["elapsed"]
                    results[(name, clients)] = (rate, percentile(run["latencies"], 0.95), run["statuses"])
            for clients in args.clients:
                floor = results[("static floor", clients)][0]
                print(f"\n{clients} keep-alive clients, {args.seconds:.0f} s each:")
                print(f"  {'route':24} {'req/s':>8} {'p95 ms':>8} {'of floor':>9}  statuses")
                for name, _paths in table:
                    rate, p95, statuses = results[(name, clients)]
                    print(f"  {name:24} {rate:8.0f} {p95 * 1000:8.0f} {rate / floor:9.1%}  {statuses}")
            if args.entry_rate:
                live_entry(port, table, args, setup, results)
        finally:
            server.terminate()
            server.wait(timeout=30)
            if args.postgres:
                subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "huapai_public_load"])


if __name__ == "__main__":
    main()
