"""Benchmark: slow-header clients (slowloris) against the shipped production setup.

Starts gunicorn exactly as shipped (gunicorn.conf.py: a worker per core × 8
threads; production settings, DEBUG=0) on a small SQLite event, and nginx with
deploy/nginx/huapai-proxy.conf in front of it. Then, for each number of slow
clients, it opens that many connections that send a request head one byte every
two seconds and never finish it, and meanwhile a real client fetches the event
page once every 0.2 s for `--seconds`. It reports how many of the real client's
requests were answered (and how fast), straight to gunicorn and through nginx.
The floor is the same real client with no slow clients at all. Every loop is
bounded in count and time and only talks to 127.0.0.1.

Needs Debian's nginx (`apt-get install nginx`); without it only gunicorn alone is measured.

Run: .venv/bin/python bench/slow_clients.py [--slow 16 64 512] [--seconds 15]
"""

import argparse
import contextlib
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.referee_load import free_port, server_env  # noqa: E402

SETUP = r"""
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from scoring.archive.database import import_archive
players = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(32)]
import_archive({"format": "huapai-event/1", "event": {"slug": "slow", "name": "慢连接测试", "kind": "pairs"},
                "players": players,
                "pairs": [{"id": f"A{i}", "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i in range(16)],
                "rounds": []})
"""

NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    limit_conn_zone $binary_remote_addr zone=per_address:10m;
    upstream huapai_upstream {{ server 127.0.0.1:{upstream}; keepalive 32; }}
    server {{
        listen 127.0.0.1:{port};
        include {repo}/deploy/nginx/huapai-proxy.conf;
    }}
}}
"""


def env_for(url, port):
    """The load benchmark's production environment, behind one trusted proxy, bound to `port`."""
    return dict(server_env(url), TRUSTED_PROXIES="1", BIND=f"127.0.0.1:{port}")


def wait_for(port, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


def slow_client(port, stop, opened):
    """A request head sent one byte every two seconds, never finished (bounded by `stop`)."""
    head = b"GET /events/slow/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        return
    opened.append(1)
    try:
        for byte in head:
            if stop.wait(2.0):
                break
            sock.sendall(bytes([byte]))
    except OSError:
        pass
    finally:
        sock.close()


def real_client(port, seconds):
    """One request every 0.2 s on a new connection; returns (answered, sent, latencies in ms)."""
    answered, sent, latencies = 0, 0, []
    end = time.monotonic() + seconds
    request = b"GET /events/slow/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    while time.monotonic() < end:
        sent += 1
        started = time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
                sock.settimeout(3)
                sock.sendall(request)
                first = sock.recv(64)
                if first.startswith(b"HTTP/1.1 200"):
                    answered += 1
                    latencies.append((time.perf_counter() - started) * 1000)
        except OSError:
            pass
        time.sleep(max(0.0, 0.2 - (time.perf_counter() - started)))
    return answered, sent, latencies


def measure(port, slow_count, seconds):
    stop = threading.Event()
    opened = []
    threads = [threading.Thread(target=slow_client, args=(port, stop, opened), daemon=True) for _ in range(slow_count)]
    for thread in threads:
        thread.start()
        time.sleep(0.002)
    time.sleep(1.0)  # every slow connection is open and waiting before the real client starts
    answered, sent, latencies = real_client(port, seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    p95 = statistics.quantiles(latencies, n=20)[18] if len(latencies) >= 20 else (max(latencies) if latencies else None)
    return answered, sent, p95, len(opened)


def report(label, slow_count, result):
    answered, sent, p95, opened = result
    p95_text = f"p95 {p95:.0f} ms" if p95 is not None else "no answer"
    print(f"{label:>22} | {slow_count:>5} slow ({opened} open) | answered {answered}/{sent} | {p95_text}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--slow", type=int, nargs="+", default=[16, 64, 512])
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="huapai-slow-"))
    tmp.chmod(0o755)  # nginx's worker (not root) reads its temp paths here
    processes = []
    try:
        url = f"sqlite:///{tmp / 'slow.sqlite3'}"
        gunicorn_port = free_port()
        env = env_for(url, gunicorn_port)
        subprocess.run([sys.executable, "-c", SETUP], cwd=REPO, env=env, check=True)
        gunicorn = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi", "--log-level", "error"],
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        processes.append(gunicorn)
        wait_for(gunicorn_port)
        nginx_port = None
        nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if nginx:
            nginx_port = free_port()
            conf = tmp / "nginx.conf"
            conf.write_text(NGINX_CONF.format(tmp=tmp, upstream=gunicorn_port, port=nginx_port, repo=REPO))
            processes.append(subprocess.Popen([nginx, "-c", str(conf), "-g", "daemon off;"], start_new_session=True))
            wait_for(nginx_port)
        cpus = os.cpu_count()
        print(f"machine: {platform.machine()} {cpus} cores, Python {platform.python_version()}")
        print(
            f"gunicorn.conf.py as shipped: {cpus} workers x 8 threads; real client: 1 request / 0.2 s, {args.seconds} s"
        )
        report("floor: gunicorn alone", 0, measure(gunicorn_port, 0, args.seconds))
        if nginx_port:
            report("floor: through nginx", 0, measure(nginx_port, 0, args.seconds))
        else:
            print("nginx not installed (apt-get install nginx): measuring gunicorn alone")
        for count in args.slow:
            report("gunicorn alone", count, measure(gunicorn_port, count, args.seconds))
            if nginx_port:
                report("through nginx", count, measure(nginx_port, count, args.seconds))
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
