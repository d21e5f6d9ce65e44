"""gunicorn's settings for production; it reads this file from the working
directory: `gunicorn huapai.wsgi` (DEBUG=0, SECRET_KEY, ALLOWED_HOSTS set)."""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", os.cpu_count() or 2))
# Threads overlap a request's database round trips with another's Python.
threads = int(os.environ.get("WEB_THREADS", 8))
# Each worker listens on its own SO_REUSEPORT socket and the kernel spreads new
# connections over them. With one shared socket, the worker that woke first took
# most of the referees' keep-alive connections and ran a core flat out while
# another idled (bench/referee_load.py: p95 up to 200 ms instead of ~130 ms).
reuse_port = True
# An idle connection is kept longer than nginx keeps an idle upstream connection (60 s, its
# default `keepalive_timeout` in the upstream block): otherwise gunicorn (2 s by default) closes
# a connection just as nginx sends a request on it, and nginx, which never passes a PUT or a
# POST to another host, answers it 502 (tests/deploy/test_two_hosts.py saw a player's write
# refused so while public files were flooding).
keepalive = 75


def post_worker_init(worker):
    """Each worker warms the public figures after a publication, outside its requests
    (scoring/cache/warmup.py says why it is a thread in each worker)."""
    from django.conf import settings

    from scoring.cache.warmup import start_warmer_thread

    if settings.HUAPAI_WARM_IN_BACKGROUND:
        start_warmer_thread()
