"""Benchmark: a 1,000-table round scored by the players at the tables (issue 22).

Sets up a fresh database (SQLite file or PostgreSQL) with a 2,000-pair event in `players`
entry mode whose round 1 has 1,000 tables, starts gunicorn exactly as shipped
(gunicorn.conf.py, production settings, DEBUG=0), and measures, in the same run:

0. (unmeasured) `--warm-up` seconds of polling after the server starts;
1. the floor: closed-loop keep-alive clients fetching a static file (WhiteNoise through the
   same gunicorn) for `--seconds`;
2. polling capacity: the same clients polling tables' state with the ETag they hold (what a
   phone sends every 5 s; unchanged tables answer 304), as a share of the floor;
3. the hall: `--phones` phones polling their table's state every 5 s (sharing `--connections`
   keep-alive connections, as a hall's phones share its Wi-Fi) while every table enters a
   board (NS's code) and verifies it (EW's code) about every `--board-minutes` minutes, for
   `--seconds`: the p95 of both, every write answered, 5xx counted;
4. the same writes through a network that loses `--drop` of the answers: the client sends
   the same request, with the same Idempotency-Key, until an answer arrives;
5. afterwards the database is checked: every board entered is confirmed exactly once, with
   one create and one confirmation in its history; and the referees' grid of the 1,000
   tables is rendered (first render) and polled (the HEAD the page sends), timed in-process.

The clients are asyncio in a child process, sharing the machine's cores with the server as
the floor's clients do. Everything talks to 127.0.0.1 only; every loop is bounded in time.

Run: .venv/bin/python bench/table_load.py [--db sqlite postgres] [--tables 1000] [--seconds 60]
"""

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.referee_load import OUT, database_url, free_port, server_env  # noqa: E402

SLUG = "hall"

SETUP = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from scoring.archive.database import import_archive
from scoring.events.accounts import role_grant
from scoring.models import Event, Table
from scoring.rounds.creation import round_pair
pairs = int(sys.argv[1])
players = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(2 * pairs)]
archive = {"format": "huapai-event/1",
           "event": {"slug": "hall", "name": "千桌赛", "kind": "pairs", "entry": "players"},
           "players": players,
           "pairs": [{"id": f"A{i}", "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i in range(pairs)],
           "rounds": []}
event = import_archive(archive)
round_pair(event, "swiss")
role_grant(username="hallref", role="referee", event=event)
from django.db import connection
if connection.vendor == "postgresql":
    # Fresh statistics, as autovacuum gathers them within a minute of the import and the pairing
    # (a round is paired minutes before it starts); without them the first minute is measured
    # with the planner guessing.
    # And the import's pages written out (CHECKPOINT), as they are long before a round starts:
    # otherwise the checkpoint after the import lands in the first measured minute.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("CHECKPOINT")
tables = Table.objects.filter(round__event=event).select_related("ns_entrant", "ew_entrant").order_by("number")
print(json.dumps([[t.token, t.ns_entrant.access_code, t.ew_entrant.access_code] for t in tables]))
"""

CHECK = r"""
import json, time
import django
django.setup()
from collections import Counter
from django.test import Client
from django.contrib.auth import get_user_model
from scoring.models import Deal, DealHistory
deals = Deal.objects.filter(table__round__event__slug="hall")
history = Counter(DealHistory.objects.filter(event__slug="hall").values_list("table_id", "board", "action"))
per_board = Counter((t, b) for (t, b, _a) in history)
creates = sum(1 for (t, b, a), n in history.items() if a == "create" and n == 1)
confirms = sum(1 for (t, b, a), n in history.items() if a == "confirm" and n == 1)
doubled = sum(1 for key, n in history.items() if n > 1)
client = Client(HTTP_HOST="127.0.0.1")  # a host the production settings allow
client.force_login(get_user_model().objects.get(username="hallref"))
started = time.perf_counter(); first = client.get("/referee/hall/rounds/1/"); cold = time.perf_counter() - started
started = time.perf_counter(); second = client.get("/referee/hall/rounds/1/"); render = time.perf_counter() - started
assert first.status_code == second.status_code == 200 and len(second.content) > 100_000, second.status_code
heads = []
for _ in range(20):
    started = time.perf_counter(); head = client.head("/referee/hall/rounds/1/")
    heads.append(time.perf_counter() - started)
    assert head.status_code == 200 and head.has_header("ETag"), head.status_code
heads.sort()
print(json.dumps({"deals": deals.count(), "confirmed": deals.filter(status="confirmed").count(),
                  "boards_with_history": len(per_board), "single_creates": creates, "single_confirms": confirms,
                  "doubled": doubled, "grid_status": first.status_code, "grid_render_ms": render * 1000,
                  "grid_cold_ms": cold * 1000,
                  "grid_head_ms_median": heads[len(heads) // 2] * 1000, "grid_head_ms_max": heads[-1] * 1000}))
"""


class Connection:
    """A keep-alive connection that reopens itself when the server closed it while idle
    (gunicorn's keep-alive is a few seconds; a phone's next poll comes 5 s later)."""

    def __init__(self, port):
        self.port, self.reader, self.writer = port, None, None

    async def request(self, method, path, headers=None, body=b""):
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await _request(self.reader, self.writer, method, path, headers, body)
            except (asyncio.IncompleteReadError, ConnectionError):
                self.writer.close()
                self.writer = None
                if attempt == 2:
                    raise
        return None

    def close(self):
        if self.writer is not None:
            self.writer.close()


async def _request(reader, writer, method, path, headers=None, body=b""):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Language: zh-CN"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length, etag = 0, None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        elif name.lower() == b"etag":
            etag = value.strip().decode()
    answer = await reader.readexactly(length)
    return status, etag, answer


async def closed_loop(port, paths, connections, seconds, conditional):
    """Clients sending back to back for `seconds`; `conditional`: each path's ETag is sent back."""
    latencies, statuses, etags = [], {}, {}
    stop_at = time.monotonic() + seconds

    async def client(offset):
        connection = Connection(port)
        index = offset
        try:
            while time.monotonic() < stop_at:
                path = paths[index % len(paths)]
                index += 1
                headers = {"If-None-Match": etags[path]} if conditional and path in etags else {}
                started = time.monotonic()
                status, etag, _ = await connection.request("GET", path, headers)
                latencies.append(time.monotonic() - started)
                statuses[status] = statuses.get(status, 0) + 1
                if etag:
                    etags[path] = etag
        finally:
            connection.close()

    started = time.monotonic()
    await asyncio.gather(*(client(k * len(paths) // connections) for k in range(connections)))
    return {"latencies": latencies, "statuses": statuses, "elapsed": time.monotonic() - started}


async def paced(items, gap, first_at, stop_at):
    """`(cycle, item)` for each of `items` in turn, one every `gap` seconds from `first_at`,
    over and over until `stop_at`."""
    next_at, cycle = first_at, 0
    while True:
        for item in items:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += gap
            if time.monotonic() >= stop_at:
                return
            yield cycle, item
        cycle += 1


async def hall(port, tables, phones, connections, seconds, board_seconds, drop, first_board, seed):
    """Phones poll every 5 s; each table enters and verifies a board every `board_seconds`."""
    rng = random.Random(seed)
    from scoring.games.huapai.samples import random_deal

    polls, writes, write_statuses, poll_statuses = [], [], {}, {}
    resent = [0]
    began = time.monotonic()
    stop_at = began + seconds
    per_connection = max(1, phones // connections)

    async def poller(connection_index):
        connection = Connection(port)
        mine = [(connection_index * per_connection + k) % len(tables) for k in range(per_connection)]
        etags = {}
        try:
            async for _cycle, table in paced(mine, 5.0 / len(mine), time.monotonic() + rng.random() * 5.0, stop_at):
                path = f"/t/{tables[table][0]}/state"
                headers = {"If-None-Match": etags[table]} if table in etags else {}
                started = time.monotonic()
                status, etag, _ = await connection.request("GET", path, headers)
                polls.append((started - began, time.monotonic() - started))
                poll_statuses[status] = poll_statuses.get(status, 0) + 1
                if etag:
                    etags[table] = etag
        finally:
            connection.close()

    async def send_once(connection, method, path, payload, key, version=None):
        """Send until an answer is kept: a lost answer (probability `drop`) is sent again, same key."""
        headers = {"Idempotency-Key": key}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        body = json.dumps(payload).encode()
        while True:
            started = time.monotonic()
            status, _etag, answer = await connection.request(method, path, headers, body)
            writes.append((started - began, time.monotonic() - started))
            if rng.random() >= drop:
                write_statuses[status] = write_statuses.get(status, 0) + 1
                return status, json.loads(answer or b"{}")
            resent[0] += 1

    async def table_writer(writer_index, writers):
        connection = Connection(port)
        mine = list(range(writer_index, len(tables), writers))
        gap = board_seconds / len(mine)
        try:
            async for cycle, table in paced(mine, gap, time.monotonic() + rng.random() * gap, stop_at):
                board = first_board + cycle
                token, ns_code, ew_code = tables[table]
                deal = random_deal(rng)
                deal.pop("ruleset", None)
                base = f"/t/{token}/boards/{board}"
                status, answer = await send_once(
                    connection, "PUT", base, {**deal, "code": ns_code}, f"put-{table}-{board}"
                )
                if status == 201:
                    await send_once(
                        connection, "POST", base + "/verify", {"code": ew_code}, f"ok-{table}-{board}",
                        version=answer["version"],
                    )  # fmt: skip
        finally:
            connection.close()

    writers = 20
    await asyncio.gather(
        *(poller(k) for k in range(connections)),
        *(table_writer(k, writers) for k in range(writers)),
    )
    return {
        "polls": polls,
        "poll_statuses": poll_statuses,
        "writes": writes,
        "write_statuses": write_statuses,
        "resent": resent[0],
    }


def in_child(function, *args):
    """Run an asyncio client in its own process (its Python never shares a GIL with the server's)."""
    script = (
        "import asyncio, json, sys; sys.path.insert(0, sys.argv[1]);"
        f"from bench.table_load import {function} as run;"
        "print(json.dumps(asyncio.run(run(*json.loads(sys.argv[2])))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(REPO), json.dumps(args)], capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


WARM_UP_SECONDS = 10  # every phone's first poll is a full state: 4,000 of them in the first 5 s


def steady(timed):
    """Latencies of the requests started after the warm-up."""
    return [latency for at, latency in timed if at >= WARM_UP_SECONDS]


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000 if ordered else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres"], nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--phones", type=int, default=4000)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--board-minutes", type=float, default=6)
    parser.add_argument("--drop", type=float, default=0.25)
    parser.add_argument("--warm-up", type=float, default=30, help="seconds of unmeasured polling after the start")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"gunicorn.conf.py as shipped; {args.tables} tables, {args.phones} phones polling every 5 s over "
        f"{args.connections} connections, a board entered and verified per table every {args.board_minutes} min; "
        f"{args.seconds:.0f} s per phase",
        flush=True,
    )
    for kind in args.db:
        env = server_env(database_url(kind))
        setup = subprocess.run(
            [sys.executable, "-c", SETUP, str(2 * args.tables)], env=env, cwd=REPO, capture_output=True, text=True
        )
        if setup.returncode:
            raise SystemExit(setup.stderr[-3000:])
        tables = json.loads(setup.stdout.strip().splitlines()[-1])
        port = free_port()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi"],
            env=dict(env, BIND=f"127.0.0.1:{port}"),
            cwd=REPO,
            start_new_session=True,
        )
        try:
            time.sleep(3)
            short = min(args.seconds, 15)
            state_paths = [f"/t/{token}/state" for token, _ns, _ew in tables]
            # Unmeasured: a started server's first half-minute (each worker's warmer computes the
            # event's public figures, every table's state is built for the first time).
            in_child("closed_loop", port, state_paths, 50, args.warm_up, True)
            floor = in_child("closed_loop", port, ["/static/css/site.css"], 50, short, False)
            polling = in_child("closed_loop", port, state_paths, 50, short, True)
            board_seconds = args.board_minutes * 60
            clean = in_child("hall", port, tables, args.phones, args.connections, args.seconds, board_seconds, 0, 1, 1)
            lossy = in_child(
                "hall", port, tables, args.phones, args.connections, args.seconds, board_seconds, args.drop, 2, 2
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
        check = subprocess.run([sys.executable, "-c", CHECK], env=env, cwd=REPO, capture_output=True, text=True)
        if check.returncode:
            raise SystemExit(check.stderr[-3000:])
        found = json.loads(check.stdout.strip().splitlines()[-1])
        floor_rate = sum(floor["statuses"].values()) / floor["elapsed"]
        poll_rate = sum(polling["statuses"].values()) / polling["elapsed"]
        print(
            f"{kind}: floor (static file, 50 clients) {floor_rate:,.0f}/s p95 {p95(floor['latencies']):.0f} ms; "
            f"state polls with ETag {poll_rate:,.0f}/s = {poll_rate / floor_rate:.0%} of the floor "
            f"p95 {p95(polling['latencies']):.0f} ms {polling['statuses']}",
            flush=True,
        )
        for name, run in (("clean network", clean), (f"{args.drop:.0%} of answers lost", lossy)):
            writes = sum(run["write_statuses"].values())
            print(
                f"  {name}: {len(run['polls']):,} polls p95 {p95([x for _a, x in run['polls']]):.0f} ms "
                f"(after the first {WARM_UP_SECONDS} s {p95(steady(run['polls'])):.0f} ms) {run['poll_statuses']}; "
                f"{writes:,} writes answered (+{run['resent']} resent with the same key) "
                f"p95 {p95([x for _a, x in run['writes']]):.0f} ms "
                f"(after the first {WARM_UP_SECONDS} s {p95(steady(run['writes'])):.0f} ms) {run['write_statuses']}",
                flush=True,
            )
        print(
            f"  database: {found['deals']:,} deals, {found['confirmed']:,} confirmed; "
            f"{found['single_creates']:,} boards with one create and "
            f"{found['single_confirms']:,} with one confirmation in their history, "
            f"{found['doubled']} doubled; referees' grid of {args.tables} tables: a render "
            f"{found['grid_render_ms']:.0f} ms (the first of a fresh process {found['grid_cold_ms']:.0f} ms), "
            f"live poll (HEAD) median {found['grid_head_ms_median']:.1f} ms "
            f"(max {found['grid_head_ms_max']:.1f} ms)",
            flush=True,
        )


if __name__ == "__main__":
    main()
