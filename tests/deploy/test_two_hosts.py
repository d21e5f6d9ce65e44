"""Two application hosts behind one nginx, sharing one PostgreSQL and one Redis
(docs/deploying.md): a write through one is read through the other, the login throttle counts
across both, and killing one loses no acknowledged write. Two gunicorn instances on two
loopback ports stand for the two hosts. It runs in `make test`'s PostgreSQL pass, and is skipped,
saying why, when PostgreSQL, Redis or nginx is missing."""

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO

# Its servers use the pass's database, which pytest-django cannot see: make test's PostgreSQL
# pass keeps it (tests/conftest.py, --database-tests-only).
pytestmark = pytest.mark.database

PG = os.environ.get("HUAPAI_TEST_PG", "postgres://postgres@127.0.0.1:5432")
REDIS = "redis://127.0.0.1:6379/9"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

SETUP = r"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
from scoring.archive.database import import_archive
from scoring.rounds.creation import round_pair
from scoring.events.accounts import role_grant, token_for
players = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(16)]
event = import_archive({"format": "huapai-event/1", "event": {"slug": "hosts", "name": "两台主机", "kind": "pairs"},
    "players": players, "pairs": [{"id": f"A{i}", "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i in range(8)],
    "rounds": []})
round_pair(event, "swiss")
user = role_grant(username="ref-hosts", role="referee", event=event)[0]
user.set_password("Zhu-yang-bian-7"); user.save()
print(json.dumps({"token": token_for(user)}))
"""

NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    limit_conn_zone $binary_remote_addr zone=per_address:10m;
    upstream huapai_upstream {{ {servers} keepalive 8; }}
    server {{
        listen 127.0.0.1:{port};
        include {repo}/deploy/nginx/huapai-proxy.conf;
    }}
}}
"""


def _answers(host, port):
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _answers("127.0.0.1", port):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def _psql(sql):
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(sql)


@pytest.fixture(scope="module")
def hosts():
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("runs in make test's PostgreSQL pass (the hosts share a PostgreSQL database)")
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    if not _answers("127.0.0.1", 5432):
        pytest.skip("PostgreSQL does not answer on 127.0.0.1:5432")
    if not _answers("127.0.0.1", 6379):
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    database = f"huapai_two_hosts_{os.getpid()}"
    _psql(f"DROP DATABASE IF EXISTS {database}")
    _psql(f"CREATE DATABASE {database}")
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    env = dict(
        os.environ,
        DATABASE_URL=f"{PG}/{database}",
        REDIS_URL=REDIS,
        DEBUG="0",
        SECRET_KEY="two-hosts-" + "k" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        TRUSTED_PROXIES="1",
        DJANGO_SETTINGS_MODULE="huapai.settings",
        WEB_WORKERS="1",
        WEB_THREADS="4",
    )
    env.pop("HUAPAI_WARM_IN_BACKGROUND", None)
    made = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    token = json.loads(made.stdout.strip().splitlines()[-1])["token"]
    tmp = Path(tempfile.mkdtemp(prefix="two-hosts-"))
    ports = [_free_port(), _free_port()]
    servers = [
        subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "huapai.wsgi", "--log-level", "warning"],
            cwd=REPO,
            env=dict(env, BIND=f"127.0.0.1:{port}"),
            start_new_session=True,  # its own process group: killed whole, workers included
        )
        for port in ports
    ]
    front = _free_port()
    config = tmp / "nginx.conf"
    # As deploy/nginx/huapai.conf's upstream, with the two test hosts' ports.
    servers_line = " ".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in ports)
    config.write_text(NGINX_CONF.format(tmp=tmp, repo=REPO, port=front, servers=servers_line))
    nginx = None
    try:
        for port in ports:
            _wait_for(port)
        nginx = subprocess.Popen([NGINX, "-c", str(config), "-p", str(tmp), "-g", "daemon off;"])
        _wait_for(front)
        yield {"a": ports[0], "b": ports[1], "front": front, "token": token, "servers": servers, "env": env}
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(20)
        shutil.rmtree(tmp, ignore_errors=True)
        _psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def _request(port, path, *, method="GET", body=None, headers=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=body, method=method, headers={"Host": "127.0.0.1", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def _deal(seed):
    from scoring.games.huapai.samples import random_deal

    deal = random_deal(random.Random(seed))
    del deal["ruleset"]
    return json.dumps(deal).encode()


def _board(hosts_, port, table, board, **extra):
    return _request(
        port,
        f"/api/events/hosts/rounds/1/tables/{table}/boards/{board}",
        headers={"Authorization": f"Token {hosts_['token']}", "Content-Type": "application/json"},
        **extra,
    )


def test_a_write_through_one_host_is_read_through_the_other(hosts):
    status, body, _ = _board(hosts, hosts["a"], 1, 1, method="PUT", body=_deal(1))
    assert status == 201, body
    written = json.loads(body)
    status, body, _ = _board(hosts, hosts["b"], 1, 1)
    assert status == 200 and json.loads(body)["version"] == written["version"]
    assert json.loads(body)["scores"] == written["scores"]


def test_the_login_throttle_counts_across_both_hosts(hosts):
    answers = []
    for attempt in range(6):
        port = hosts["a"] if attempt % 2 == 0 else hosts["b"]
        # The CSRF cookie is marked Secure in production settings: sent back by hand over http.
        _status, page, headers = _request(port, "/accounts/login/")
        cookie = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": "ref-hosts", "password": f"wrong-{attempt}"}
        ).encode()
        status, _body, _ = _request(
            port,
            "/accounts/login/",
            method="POST",
            body=form,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={cookie}"},
        )
        answers.append(status)
    assert answers[:4] == [200, 200, 200, 200]  # the form again, with the reason
    assert answers[4:] == [429, 429]  # the fifth failure, on either host, locks the pair out


def test_killing_one_host_loses_no_acknowledged_write(hosts):
    acknowledged = {}
    started = time.monotonic()
    boards = [(table, board) for table in (2, 3, 4) for board in range(1, 17)]
    for index, (table, board) in enumerate(boards):
        if index == len(boards) // 3:
            os.killpg(hosts["servers"][0].pid, signal.SIGKILL)  # host A dies mid-round
        status, body, _ = _board(hosts, hosts["front"], table, board, method="PUT", body=_deal(index + 10))
        if status in (200, 201):
            acknowledged[(table, board)] = json.loads(body)["version"]
        assert time.monotonic() - started < 120
    assert len(acknowledged) >= len(boards) - 2  # nginx takes the other host at once
    for (table, board), version in acknowledged.items():
        status, body, _ = _board(hosts, hosts["b"], table, board)
        assert status == 200 and json.loads(body)["version"] >= version, (table, board)
