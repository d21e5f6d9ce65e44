"""Benchmark: a 1,000-table round scored by the players at the tables.

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
   one create and one confirmation in its history;
6. the referees' grid of the 1,000 tables, timed in-process (`GRID`): every table is first
   brought to `--fill-boards` boards entered and verified (through the table services, a
   clock moved so that a verification comes 20–60 s after its entry, as at a table), then the
   page's first render (after a table acted: a referee opening the page in a live hall), and
   its live update after tables acted since the page's last poll (one table, and `--acting`
   tables: a hall of 1,000 tables entering and verifying a board every 6 minutes moves ~14
   tables between two polls 5 s apart), answered by the worker that answered the page's last
   poll (one request: the moved rows come with it) and by two workers taking turns (each
   keeps its own rows and grids, as gunicorn's processes do: a worker computes again the
   tables that moved since it last answered, sends the rows that moved since the newest grid
   it keeps, and the page asks for any row it still lacks — a second request), each answer
   checked: the acting tables' versions moved, their rows show their new boards, the counts
   add up.

The clients are asyncio in a child process, sharing the machine's cores with the server as
the floor's clients do. Everything talks to 127.0.0.1 only; every loop is bounded in time.

Run: .venv/bin/python bench/table_load.py [--db sqlite postgres] [--tables 1000] [--seconds 60]
     [--fill-boards 12] [--acting 14] [--grid-only] [--pg-name huapai_load]
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
import json
import django
django.setup()
from collections import Counter
from scoring.models import Deal, DealHistory
deals = Deal.objects.filter(table__round__event__slug="hall")
history = Counter(DealHistory.objects.filter(event__slug="hall").values_list("table_id", "board", "action"))
per_board = Counter((t, b) for (t, b, _a) in history)
creates = sum(1 for (t, b, a), n in history.items() if a == "create" and n == 1)
confirms = sum(1 for (t, b, a), n in history.items() if a == "confirm" and n == 1)
doubled = sum(1 for key, n in history.items() if n > 1)
print(json.dumps({"deals": deals.count(), "confirmed": deals.filter(status="confirmed").count(),
                  "boards_with_history": len(per_board), "single_creates": creates, "single_confirms": confirms,
                  "doubled": doubled}))
"""


GRID = r"""
import json, random, re, statistics, sys, time
from datetime import timedelta
from unittest import mock
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db.models import Max
from django.test import Client
from django.utils import timezone
from scoring.cache import grid as kept
from scoring.games.huapai.samples import random_deal
from scoring.models import Deal, Table
from scoring.table_entry.services import table_deal_put, table_verify

fill, acting, trials = (int(x) for x in sys.argv[1:4])
rng = random.Random(7)
tables = list(Table.objects.filter(round__event__slug="hall").select_related("round__event", "ns_entrant", "ew_entrant")
              .order_by("number"))
length = tables[0].round.event.match_length


def last_boards():
    return dict(Deal.objects.filter(table__in=tables).values_list("table_id").annotate(last=Max("board")).order_by())


def act(table, board, verify_after):
    deal = random_deal(rng)
    deal.pop("ruleset", None)
    entered, _ = table_deal_put(table, board, {**deal, "code": table.ns_entrant.access_code}, expected_version=None,
                                device=f"ns-{table.number}")
    clock[0] += verify_after
    table_verify(table, board, {"code": table.ew_entrant.access_code}, expected_version=entered.version,
                 device=f"ew-{table.number}")


# Fill: the round as it stands after ~2 h of play, every table at `fill` boards, board by board
# across the hall. A verification comes 20-60 s after its entry (a few within seconds: flags).
started = time.perf_counter()
played = last_boards()
clock = [timezone.now() - timedelta(hours=2)]
step = timedelta(hours=2) / max(1, len(tables) * fill)
with mock.patch("django.utils.timezone.now", lambda: clock[0]):
    for board in range(1, fill + 1):
        for table in tables:
            if board > played.get(table.id, 0):
                clock[0] += step
                act(table, board, timedelta(seconds=2 if rng.random() < 0.02 else rng.uniform(20, 60)))
filled = time.perf_counter() - started
from django.db import connection
if connection.vendor == "postgresql":
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum does within a minute of so many new rows
clock = [timezone.now()]
kept.forget()
client = Client(HTTP_HOST="127.0.0.1")  # a host the production settings allow
client.force_login(get_user_model().objects.get(username="hallref"))
page = "/referee/hall/rounds/1/"
live = page + "live"


def timed(path, **headers):
    began = time.perf_counter()
    answer = client.get(path, headers=headers)
    return answer, (time.perf_counter() - began) * 1000


first, cold = timed(page)
assert first.status_code == 200 and first.content.count(b'class="grid-row') == len(tables), first.status_code
next_board = last_boards()
renders = []
for table in rng.sample(tables, 7):  # a referee opens the page after a table acted
    next_board[table.id] += 1
    act(table, next_board[table.id], timedelta(0))
    renders.append(timed(page)[1])
answer, _ = timed(live)
etag, versions = answer.headers["ETag"], dict(answer.json()["versions"])
unchanged = []
for _ in range(20):
    same, ms = timed(live, **{"If-None-Match": etag})
    assert same.status_code == 304, same.status_code
    unchanged.append(ms)


def check_rows(html, movers):
    for table in movers:
        confirmed = Deal.objects.filter(table=table, status="confirmed").count()
        assert f" {confirmed}/{length}" in html[str(table.number)], html[str(table.number)][:300]


# Two workers, as gunicorn ships (each keeps its own rows and grids): the page's polls are answered
# by the worker that answered its last poll, or by the other one.
workers = [(kept._rounds, kept._grids), (type(kept._rounds)(), type(kept._grids)())]


def on(worker):
    kept._rounds, kept._grids = workers[worker]


on(1)
timed(live)  # the other worker has shown this round before (unmeasured: its first time is the cold one)
updates = {}
for count in (1, acting):
    same, other, second = [], [], 0
    for trial in range(2 * trials):
        turns = trial >= trials  # first the worker that answered the last poll, then the two in turn
        # Tables act since the page's last poll (now, on the real clock).
        movers = [t for t in rng.sample(tables, count) if next_board[t.id] < length]
        for table in movers:
            next_board[table.id] += 1
            act(table, next_board[table.id], timedelta(0))
        on(trial % 2 if turns else 0)
        answer, ms = timed(live, **{"If-None-Match": etag})
        assert answer.status_code == 200, answer.status_code
        data = answer.json()
        etag, fresh = answer.headers["ETag"], dict(data["versions"])
        moved = sorted(n for n, v in fresh.items() if versions.get(n) != v)
        assert {t.number for t in movers} <= set(moved), (movers, moved)
        counted = sum(int(n) for n in re.findall(r"(\d+)</span>", data["counts"]))
        assert counted >= len(tables), data["counts"]  # every table in one state (plus late, flagged)
        versions = fresh
        rows = data["rows"]
        lacking = [n for n in moved if str(n) not in rows]
        if lacking:  # the page asks for the rows it still lacks, from either worker
            second += 1
            on(rng.randrange(2))
            more, extra = timed(live + "?rows=" + ",".join(map(str, lacking)))
            rows = {**rows, **more.json()["rows"]}
            ms += extra
        check_rows(rows, movers)
        (other if turns else same).append((ms, len(moved)))
    updates[count] = {
        "same_ms": statistics.median(s[0] for s in same), "same_max_ms": max(s[0] for s in same),
        "other_ms": statistics.median(s[0] for s in other), "other_max_ms": max(s[0] for s in other),
        "moved": statistics.median(s[1] for s in same + other), "second_requests": second,
    }
on(0)
renders.sort()
unchanged.sort()
print(json.dumps({"fill_seconds": filled, "deals": Deal.objects.filter(table__in=tables).count(),
                  "page_bytes": len(first.content), "cold_ms": cold, "render_ms": renders[len(renders) // 2],
                  "unchanged_ms": unchanged[len(unchanged) // 2], "updates": updates}))
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
    parser.add_argument("--fill-boards", type=int, default=12, help="boards per table before the grid is timed")
    parser.add_argument("--acting", type=int, default=14, help="tables acting between two of the grid's polls")
    parser.add_argument("--trials", type=int, default=10, help="updates timed per number of acting tables and path")
    parser.add_argument("--grid-only", action="store_true", help="no server: set up, fill and time the grid")
    parser.add_argument("--pg-name", default="huapai_load", help="the PostgreSQL database (dropped and created)")
    parser.add_argument("--no-grid", action="store_true", help="the hall only: do not fill and time the grid")
    parser.add_argument("--timeline", action="store_true", help="the hall's p95 in each 5 s of its minute")
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
        env = server_env(database_url(kind, args.pg_name))
        setup = subprocess.run(
            [sys.executable, "-c", SETUP, str(2 * args.tables)], env=env, cwd=REPO, capture_output=True, text=True
        )
        if setup.returncode:
            raise SystemExit(setup.stderr[-3000:])
        tables = json.loads(setup.stdout.strip().splitlines()[-1])
        if args.grid_only:
            print(f"{kind}:", flush=True)
            grid(env, args)
            continue
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
            if args.timeline:
                print(f"    5 s windows, polls / writes p95 ms: {timeline(run)}", flush=True)
        print(
            f"  database: {found['deals']:,} deals, {found['confirmed']:,} confirmed; "
            f"{found['single_creates']:,} boards with one create and "
            f"{found['single_confirms']:,} with one confirmation in their history, "
            f"{found['doubled']} doubled",
            flush=True,
        )
        if not args.no_grid:
            grid(env, args)


def timeline(run, window=5.0):
    """Each `window` seconds of a hall run: the p95 of the polls and of the writes started in it."""
    spans = []
    end = max((at for at, _latency in run["polls"] + run["writes"]), default=0.0)
    start = 0.0
    while start <= end:
        polls = [x for at, x in run["polls"] if start <= at < start + window]
        writes = [x for at, x in run["writes"] if start <= at < start + window]
        spans.append(f"{start:.0f}s {p95(polls):.0f}/{p95(writes):.0f}")
        start += window
    return " · ".join(spans)


def grid(env, args):
    """The referees' grid, timed in-process on the round as it stands (`GRID`)."""
    run = subprocess.run(
        [sys.executable, "-c", GRID, str(args.fill_boards), str(args.acting), str(args.trials)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if run.returncode:
        raise SystemExit(run.stderr[-3000:])
    found = json.loads(run.stdout.strip().splitlines()[-1])
    one, many = (found["updates"][str(n)] for n in (1, args.acting))
    print(
        f"  referees' grid of {args.tables} tables with {found['deals']:,} deals"
        f" (filled in {found['fill_seconds']:.0f} s): first render {found['render_ms']:.0f} ms"
        f" ({found['page_bytes'] / 1e6:.1f} MB; the first of a fresh process {found['cold_ms']:.0f} ms);"
        f" a poll with nothing new (304) {found['unchanged_ms']:.1f} ms; an update after 1 table acted"
        f" {one['same_ms']:.1f} ms (max {one['same_max_ms']:.1f}; the two workers taking turns"
        f" {one['other_ms']:.1f}, max {one['other_max_ms']:.1f}), after {args.acting} acted"
        f" ({many['moved']:.0f} rows) {many['same_ms']:.1f} ms (max {many['same_max_ms']:.1f}; taking turns"
        f" {many['other_ms']:.1f}, max {many['other_max_ms']:.1f}); medians of {args.trials} each;"
        f" {one['second_requests'] + many['second_requests']} of {4 * args.trials} updates needed a second"
        f" request",
        flush=True,
    )


if __name__ == "__main__":
    main()
