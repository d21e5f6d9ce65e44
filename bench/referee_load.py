"""Benchmark: 50 concurrent referee clients entering every deal of 2,500 tables over loopback.

Sets up a fresh database (SQLite file or PostgreSQL) with a 5,000-pair event
whose round 1 has 2,500 tables, starts gunicorn (production settings, DEBUG=0,
gunicorn.conf.py), and runs 50 client threads in five client processes; each
client owns 50 tables and PUTs their boards through the referee API over one
keep-alive connection, one after another, with no think time (the hardest
case). Then it checks that every deal was stored exactly once and counts 5xx
answers. The floor is the same clients fetching a static file (two per table), which
the server returns without touching Django's views or the database. The report
gives the CPU each PUT cost the server, PostgreSQL's backends and the clients.
`--rate R` paces the clients to R deals per second in all (a real event of
2,500 tables produces about 7 a second); without it they send back to back.

Run: .venv/bin/python bench/referee_load.py [--boards 16] [--clients 50] [--db sqlite|postgres]
"""

import argparse
import json
import multiprocessing
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"
sys.path.insert(0, str(REPO))


def database_url(kind, name="huapai_load"):
    """A fresh database: SQLite in bench/out, or PostgreSQL `name` (dropped and created)."""
    if kind == "sqlite":
        path = OUT / "load.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def server_env(url):
    return dict(
        os.environ,
        DATABASE_URL=url,
        DEBUG="0",
        SECRET_KEY="bench-" + "k" * 60,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="huapai.settings",
    )


SETUP = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from scoring.archive.database import import_archive
from scoring.rounds.creation import round_pair
from scoring.events.accounts import role_grant, token_for
pairs, clients = int(sys.argv[1]), int(sys.argv[2])
players = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(2 * pairs)]
archive = {"format": "huapai-event/1", "event": {"slug": "load", "name": "压力测试", "kind": "pairs"},
           "players": players,
           "pairs": [{"id": f"A{i}", "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i in range(pairs)],
           "rounds": []}
event = import_archive(archive)
round_pair(event, "swiss")
tokens = [token_for(role_grant(username=f"load{i}", role="referee", event=event)[0]) for i in range(clients)]
print(json.dumps(tokens))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env, port, workers, threads, extra=()):
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "huapai.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers),
            "--threads",
            str(threads),
            "-k",
            "gthread",
            "--log-level",
            "warning",
            *extra,
        ],
        cwd=REPO,
        env=env,
        start_new_session=True,
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")


def deal_body(rng):
    from scoring.games.huapai.samples import random_deal

    deal = random_deal(rng)
    del deal["ruleset"]
    return json.dumps(deal).encode()


class KeepAliveClient:
    """One keep-alive HTTP/1.1 connection: requests are written as ready-made bytes
    and responses read by Content-Length.

    The load generator shares the two cores with the server, so its own cost per
    request counts against the server: http.client and its header parsing took
    ~0.34 ms of CPU per request, this ~0.1 ms (`cpu` in the report line).
    """

    def __init__(self, port):
        self.port = port
        self.sock = None
        self.pending = b""

    def _connect(self):
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.pending = b""

    def _read_until(self, marker):
        while marker not in self.pending:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.pending += chunk
        head, _, self.pending = self.pending.partition(marker)
        return head

    def request(self, raw):
        """Send one request; return its status. A connection the server closed while
        idle (keep-alive timeout) is reopened and the request sent on the new one."""
        for attempt in (1, 2):
            if self.sock is None:
                self._connect()
            try:
                self.sock.sendall(raw)
                head = self._read_until(b"\r\n\r\n")
                break
            except ConnectionError:
                self.sock.close()
                self.sock = None
                if attempt == 2:
                    raise
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines[1:])}
        length = int(headers.get(b"content-length", b"0"))
        while len(self.pending) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection mid-response")
            self.pending += chunk
        self.pending = self.pending[length:]
        if headers.get(b"connection", b"").lower() == b"close":
            self.sock.close()
            self.sock = None
        return status


def request_bytes(method, path, token, body=b""):
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def client_process(port, jobs, boards, floor, queue, interval):
    """Run one thread per (token, tables) job; put (latencies, statuses, cpu seconds) on the queue.

    Requests are built before the clock starts. With `interval` > 0 each client
    starts a request every `interval` seconds (an open pace, as referees at
    tables produce deals); 0 means back to back.
    """
    results = []

    def worker(token, tables, seed):
        rng = random.Random(seed)
        requests = []
        for table in tables:
            for board in range(1, boards + 1):
                if floor:
                    requests.append(request_bytes("GET", "/static/css/site.css", token))
                else:
                    path = f"/api/events/load/rounds/1/tables/{table}/boards/{board}"
                    requests.append(request_bytes("PUT", path, token, deal_body(rng)))
        ready.wait()
        next_start = time.perf_counter() + random.Random(seed).random() * interval
        client = KeepAliveClient(port)
        latencies, statuses = [], []
        for raw in requests:
            if interval:
                time.sleep(max(0.0, next_start - time.perf_counter()))
                next_start += interval
            started = time.perf_counter()
            status = client.request(raw)
            latencies.append(time.perf_counter() - started)
            statuses.append(status)
        results.append((latencies, statuses))

    ready = threading.Event()
    threads = [threading.Thread(target=worker, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # let every thread build its requests first
    cpu_before = time.process_time()
    ready.set()
    for thread in threads:
        thread.join()
    queue.put((results, time.process_time() - cpu_before))


def run_clients(port, tokens, tables, boards, floor, interval=0.0, processes=5):
    per_client = [list(range(i + 1, tables + 1, len(tokens))) for i in range(len(tokens))]
    jobs = [(token, per_client[i], i) for i, token in enumerate(tokens)]
    queue = multiprocessing.Queue()
    chunks = [jobs[i::processes] for i in range(processes)]
    started = time.perf_counter()
    workers = [
        multiprocessing.Process(target=client_process, args=(port, chunk, boards, floor, queue, interval))
        for chunk in chunks
    ]
    for worker in workers:
        worker.start()
    answers = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    collected = [results for results, _ in answers]
    client_cpu = sum(cpu for _, cpu in answers)
    latencies = [x for result in collected for lat, _ in result for x in lat]
    statuses = [x for result in collected for _, st in result for x in st]
    return elapsed, latencies, statuses, client_cpu


def _cpu_seconds(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu(root):
    """CPU seconds used so far by a process and its children (Linux /proc)."""
    children = subprocess.run(["pgrep", "-P", str(root)], capture_output=True, text=True).stdout.split()
    return sum(_cpu_seconds(pid) for pid in [root, *children])


def database_backends_cpu():
    """CPU seconds used so far by the PostgreSQL backends serving the benchmark (0 for SQLite)."""
    found = subprocess.run(["pgrep", "-f", "postgres.*huapai_load"], capture_output=True, text=True).stdout.split()
    return sum(_cpu_seconds(pid) for pid in found)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def verify(env, tables, boards):
    code = (
        "import django, json; django.setup();"
        "from scoring.models import Deal, DealHistory;"
        "d = Deal.objects.filter(table__round__event__slug='load');"
        "print(json.dumps({'deals': d.count(), 'versions': sorted(set(d.values_list('version', flat=True))),"
        " 'history': DealHistory.objects.filter(event__slug='load').count()}))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres"], nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--boards", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--gunicorn", default="", help="more gunicorn options, e.g. '--worker-connections 25'")
    parser.add_argument("--rate", type=float, default=0, help="total deals per second (0: back to back)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    tables = args.pairs // 2
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"gunicorn {args.workers} workers × {args.threads} threads; {args.clients} clients; "
        f"{tables} tables × {args.boards} boards; pace {args.rate or 'back to back'} deals/s"
    )
    for kind in args.db:
        url = database_url(kind)
        env = server_env(url)
        setup = subprocess.run(
            [sys.executable, "-c", SETUP, str(args.pairs), str(args.clients)],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
        tokens = json.loads(setup.stdout.strip().splitlines()[-1])
        port = free_port()
        server = start_server(env, port, args.workers, args.threads, args.gunicorn.split())
        try:
            interval = args.clients / args.rate if args.rate else 0.0
            # 5,000 requests are plenty for the floor's percentiles.
            _, floor_lat, _, _ = run_clients(port, tokens, tables, 2, floor=True, interval=interval)
            server_cpu, database_cpu = process_cpu(server.pid), database_backends_cpu()
            elapsed, latencies, statuses, client_cpu = run_clients(
                port, tokens, tables, args.boards, floor=False, interval=interval
            )
            server_cpu = process_cpu(server.pid) - server_cpu
            database_cpu = database_backends_cpu() - database_cpu
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
        check = verify(env, tables, args.boards)
        errors = sum(status >= 500 for status in statuses)
        others = sorted({s for s in statuses if s != 201})
        print(
            f"{kind}: {len(statuses):,} PUTs in {elapsed:.1f} s = {len(statuses) / elapsed:,.0f}/s; "
            f"latency p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms; 5xx {errors}; other statuses {others}; "
            f"stored {check['deals']:,} deals (versions {check['versions']}), history {check['history']:,}; "
            f"floor (static file) p95 {percentile(floor_lat, 0.95) * 1000:.0f} ms; "
            f"CPU per PUT: server {server_cpu / len(statuses) * 1000:.2f} ms, "
            f"database {database_cpu / len(statuses) * 1000:.2f} ms, "
            f"clients {client_cpu / len(statuses) * 1000:.2f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
