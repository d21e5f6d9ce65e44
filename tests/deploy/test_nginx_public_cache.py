"""The shipped nginx configuration for public pages and files (deploy/nginx/huapai-events.conf,
with huapai-proxy.conf as deploy/nginx/huapai.conf includes them), in front of two stand-in
hosts that replay the site's own answers: a withdrawn page is not served stale past its
`max-age`, a public file is never asked again of the other host, and renders queued beyond
the cap are answered 503 with Retry-After by nginx itself. Skipped when nginx is missing."""

import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import REPO

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    # As deploy/nginx/huapai.conf's http block, with the test's cache folder and hosts.
    limit_conn_zone $binary_remote_addr zone=per_address:10m;
    limit_conn_zone $server_port zone=public_files:1m;
    proxy_cache_path {tmp}/cache levels=1:2 keys_zone=huapai_pages:1m max_size=100m inactive=10m use_temp_path=off;
    upstream huapai_upstream {{ {servers} keepalive 8; }}
    server {{
        listen 127.0.0.1:{port};
        include {repo}/deploy/nginx/huapai-proxy.conf;
        include {repo}/deploy/nginx/huapai-events.conf;
    }}
}}
"""


class StandIn:
    """A host that answers each path with a recorded answer: (status, headers, body), after
    `delay` seconds; `drop` closes the connection without an answer. Counts what it was asked."""

    def __init__(self):
        self.answers = {}
        self.asked = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                stand_in.asked.append(self.path)
                status, headers, body, delay, drop = stand_in.answers.get(
                    self.path, (404, {"Content-Type": "text/plain"}, b"unknown", 0, False)
                )
                time.sleep(delay)
                if drop:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, path, response, *, delay=0.0, drop=False):
        headers = {name: value for name, value in response.items() if name.lower() != "content-length"}
        body = b"".join(response.streaming_content) if response.streaming else response.content
        self.answers[path] = (response.status_code, headers, body, delay, drop)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


@pytest.fixture(scope="module")
def front():
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    hosts = [StandIn(), StandIn()]
    tmp = Path(tempfile.mkdtemp(prefix="nginx-public-"))
    tmp.chmod(0o777)  # nginx's workers (another user when started as root) write its cache here
    port = _free_port()
    servers = " ".join(f"server 127.0.0.1:{host.port} max_fails=1 fail_timeout=10s;" for host in hosts)
    config = tmp / "nginx.conf"
    config.write_text(NGINX_CONF.format(tmp=tmp, repo=REPO, port=port, servers=servers))
    nginx = subprocess.Popen([NGINX, "-c", str(config), "-p", str(tmp), "-g", "daemon off;"])
    try:
        _wait_for(port)
        yield {"port": port, "hosts": hosts}
    finally:
        nginx.terminate()
        nginx.wait(10)
        for host in hosts:
            host.server.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def _get(front_, path):
    request = urllib.request.Request(f"http://127.0.0.1:{front_['port']}{path}", headers={"Host": "127.0.0.1"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def _both(front_, path, response, **options):
    for host in front_["hosts"]:
        host.answer(path, response, **options)


@pytest.mark.django_db
def test_a_withdrawn_draw_is_a_404_through_nginx_once_the_page_expires(front, client):
    """The shipped `proxy_cache_use_stale updating` with background updates kept the stale draw
    for ever: the site's 404 was not cacheable, so it never replaced the stored page."""
    from django.utils import timezone

    from scoring.archive.database import import_archive
    from scoring.cache.pages import BROWSER_MAX_AGE
    from scoring.models import Round
    from tests.archives import four_pairs_two_rounds

    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"  # round 2 paired, not published
    event = import_archive(archive)
    Round.objects.filter(event=event, number=2).update(draw_released_at=timezone.now())
    path = "/events/t-pairs/rounds/2/draw/"
    page = client.get(path)
    assert page.status_code == 200 and "max-age" in page["Cache-Control"]
    _both(front, path, page)
    status, _body, _headers = _get(front, path)
    assert status == 200
    Round.objects.filter(event=event, number=2).update(draw_released_at=None)  # the draw withdrawn
    gone = client.get(path)
    assert gone.status_code == 404
    _both(front, path, gone)
    deadline = time.monotonic() + BROWSER_MAX_AGE + 3
    answers = []
    while time.monotonic() < deadline:
        answers.append(_get(front, path)[0])
        time.sleep(0.5)
    assert answers[-1] == 404, answers  # after max-age and one background update, never the old page
    assert answers[-3:] == [404, 404, 404], answers


def test_a_public_file_is_never_asked_again_of_the_other_host(front):
    path = "/events/t-pairs/rounds/1/travellers.pdf"

    class Dropped:
        status_code = 200
        streaming = False
        content = b""

        def items(self):
            return []

    for host in front["hosts"]:
        host.asked.clear()
    _both(front, path, Dropped(), drop=True)
    status, _body, _headers = _get(front, path)
    assert status == 502
    asked = sum(host.asked.count(path) for host in front["hosts"])
    assert asked == 1  # the default (error, timeout) would have rendered it on the other host too


def test_a_public_file_asked_with_a_query_of_its_own_is_the_stored_copy(front):
    """A file reads nothing from the query string: `?v=random` must not make every request of a
    flood a cache miss that a host answers by reading the file out of Redis."""
    path = "/events/t-pairs/rounds/2/results.pdf"

    class File:
        status_code = 200
        streaming = False
        content = b"%PDF-1.4 stored"

        def items(self):
            return [("Content-Type", "application/pdf"), ("Cache-Control", "public, max-age=5")]

    for query in ("", "?v=1", "?v=2", "?page=3&v=4"):
        _both(front, path + query, File())
    for host in front["hosts"]:
        host.asked.clear()
    answers = [_get(front, path + query) for query in ("?v=1", "?v=2", "", "?page=3&v=4")]
    assert [status for status, *_ in answers] == [200] * 4
    assert sum(len(host.asked) for host in front["hosts"]) == 1


def test_renders_queued_beyond_the_cap_are_a_503_with_retry_after_from_nginx(front):
    path = "/events/t-pairs/rounds/3/travellers.pdf"

    class Slow:
        status_code = 200
        streaming = False
        content = b"%PDF-1.4 slow"

        def items(self):
            return [("Content-Type", "application/pdf"), ("Cache-Control", "no-store")]

    _both(front, path, Slow(), delay=2.0)
    with ThreadPoolExecutor(24) as pool:
        answers = list(pool.map(lambda _: _get(front, path), range(24)))
    busy = [headers for status, _body, headers in answers if status == 503]
    assert busy and all(headers.get("Retry-After") == "10" for headers in busy)
    assert sum(1 for status, *_ in answers if status == 200) >= 1
    # Nothing is left waiting on a host for the refused ones: at most the cap reached them.
    assert sum(host.asked.count(path) for host in front["hosts"]) <= 16
