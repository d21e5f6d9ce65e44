import contextlib
import gc
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in the test thread; Django refuses
# database access from such a thread unless told it is safe (it is: one thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (make test sets `ci`; a bare pytest runs `dev`).
# ci: Hypothesis's own 100 examples for every test that names no number, and each test's own
#     max_examples where it names one (those that scale with the profile give their ci count);
#     no deadline and no too-slow health check, whose timings fail on a busy machine, not on a bug.
# dev: a fifth of that, for a quick local run; the same rules otherwise.
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.register_profile(
    "dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The conformance suite's fifth game (tests/conformance/jiaodun/), registered as a real game's
# folder is: every test that walks the registry meets it as it meets the four real games.
from scoring.games import GAMES, register_game  # noqa: E402
from tests.conformance.jiaodun import JIAODUN  # noqa: E402

if JIAODUN.id not in GAMES:
    register_game(JIAODUN)


def scaled_examples(ci_count):
    """`ci_count` examples under the ci profile, the same share of it under another profile."""
    return max(10, ci_count * hypothesis_settings.default.max_examples // 100)


REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("HUAPAI_SHARED", REPO.parent / "shared"))
# Debian's chromium. make test's PostgreSQL pass names Debian's headless shell of the same Chromium
# (chromium-headless-shell) instead: that pass is there for the database, the full browser has
# driven every page in the SQLite pass, and the shell costs half the CPU a context and a third a
# page load (docs/performance.md, the test suite).
DEBIAN_CHROMIUM = "/usr/bin/chromium"
DEBIAN_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("HUAPAI_CHROMIUM", DEBIAN_CHROMIUM)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


# Modules whose tests share something beyond their worker's test database (two_hosts: a
# module-scoped pair of gunicorns behind nginx, started from a setup that runs collectstatic into
# var/static, and Redis database 9, emptied; nginx_public_cache: a module-scoped nginx whose
# cache its tests share): `make test`'s scheduler sends each of them to one
# worker whole.
ONE_WORKER_MODULES = {"tests/deploy/test_two_hosts.py", "tests/deploy/test_nginx_public_cache.py"}


# The fixtures through which a test reaches the test database (pytest-django refuses it to any
# other test: such a test fails on its first query rather than run on the wrong database).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_setup",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "admin_user",
    "admin_client",
    "django_user_model",
}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that reach the database (make test's PostgreSQL pass)",
    )


def reaches_the_database(item):
    """Whether `item` can reach the database: marked django_db, asking a database fixture, or
    marked `database` (its own servers on the pass's database, which pytest-django cannot see)."""
    return bool(
        item.get_closest_marker("django_db")
        or item.get_closest_marker("database")
        or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    """`--database-tests-only`: `make test`'s PostgreSQL pass leaves out the tests that cannot
    reach the database (the pure engine, the games' laws, the messages' files, ~1,000 tests): with
    no database they run alike on both, and the SQLite pass has run them (issue 19)."""
    if not config.getoption("database_tests_only"):
        return
    kept, left_out = [], []
    for item in items:
        (kept if reaches_the_database(item) else left_out).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_collection_finish(session):
    """Cyclic garbage collected rarely, and never the ~650,000 objects of the imported modules:
    with CPython's defaults a worker spent 8-10 s of its ~190 s pass in the collector, 6-7 s of
    it in ~22 full collections that each walked every module, class and function imported
    (a throwaway gc.callbacks plugin, issue 19); frozen and with full collections rare, 3 s.
    Memory is not the limit here (a worker ends with ~1.2 million objects)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(2000, 20, 1000)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test`'s scheduler (`-n 2 --dist loadgroup --no-loadscope-reorder`): every test is a
    work unit of its own, sent in collection order to the first worker with fewer than three
    waiting, except that the tests of a module in ONE_WORKER_MODULES go to one worker together.
    In collection order, so pytest-django's order (rolled-back tests, transactional ones, those
    without a database) holds on each worker. (`--dist load` sent chunks of ~200 consecutive
    tests: the transactional block, every browser test, fell to one worker while the other ran
    out of work. xdist's own loadgroup would group by the `xdist_group` mark, but under pytest 9
    the mark no longer reaches the node ids the scheduler reads, so here the grouping is by
    module, named above.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class OneTestAtATime(LoadGroupScheduling):
        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_WORKER_MODULES else super()._split_scope(nodeid)

    return OneTestAtATime(config, log)


def load_examples():
    return json.loads((SHARED / "rules" / "examples.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher():
    """MD5 for the whole run, module- and session-scoped fixtures included (the real hasher
    takes a large fraction of a second per user on purpose; no test is about its cost)."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def site_language():
    """Each test starts in the site's language: a request through the test client runs in this
    thread, and the locale middleware leaves the language it activated (English, say) active
    for whatever test the worker runs next."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_cache():
    from django.core.cache import cache

    from scoring.cache import grid

    cache.clear()
    grid.forget()  # the referees' grid rows this process keeps


# How long any one browser step may wait for what it waits for (an element, a URL, a response,
# an expectation). The tests wait for events, never for a fixed time: this is only the ceiling,
# generous so that a busy machine is slow rather than failing.
BROWSER_TIMEOUT_MS = 60_000


# Chromium's full browser gives every window (every browser context a test opens) the address
# bar's drop-down as a hidden WebUI page with a renderer of its own; nothing here ever shows it,
# and those renderers took 45 s of CPU in a pass of tests/browser (docs/performance.md, the test
# suite). The headless shell has no address bar: the flag changes nothing there.
FEATURES_OFF = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIReloadButton"]


def launched_switch(name):
    """The value of `--name=` on the command line of a Chromium this process has launched (the
    browser process: a descendant with the DevTools pipe and no `--type=`), or None."""
    children, command_lines = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):  # a process that ended while read
                stat = Path(f"/proc/{entry}/stat").read_text()
                command_lines[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
                parent = int(stat[stat.rindex(")") + 2 :].split()[1])
                children.setdefault(parent, []).append(int(entry))
    frontier = [os.getpid()]
    while frontier:
        pid = frontier.pop()
        arguments = command_lines.get(pid, "").split("\0")
        if "--remote-debugging-pipe" in arguments and not any(a.startswith("--type=") for a in arguments):
            values = [a.split("=", 1)[1] for a in arguments if a.startswith(f"--{name}=")]
            return values[-1] if values else None
        frontier += children.get(pid, [])
    return None


def launch_chromium(playwright, executable=CHROMIUM):
    """Chromium as the tests drive it, with FEATURES_OFF. Chromium reads only the last
    `--disable-features` of its command line, and Playwright passes its own list (features that
    hold pages still for its waits): ours must carry that list too, read off the command line
    of a first launch, since Playwright does not tell it."""
    first = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
    theirs = launched_switch("disable-features")
    if theirs is None:  # the browser's command line was not found: keep Playwright's list whole
        return first
    first.close()
    features = ",".join(dict.fromkeys([*theirs.split(","), *FEATURES_OFF]))
    return playwright.chromium.launch(
        executable_path=executable, args=[*CHROMIUM_ARGS, f"--disable-features={features}"], headless=True
    )


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=BROWSER_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = launch_chromium(playwright)
        yield launched
        launched.close()


# The pages' own polls, quickened for the tests: every `setInterval` of 2 s or more runs
# POLLS_QUICKENED times as often (the referees' live grid and the table page ask every 5 s, so
# every second here; a public page every 30 s, so every 6 s). Nothing else changes: the same
# code polls the same addresses, so a test that waits for another phone's entry, a ruling or a
# signature to show without a reload still waits for the page's own poll, only not for up to
# 5 s each time (issue 19: that wait was ~40 s of the browser tests, and `make test` twice).
# Timeouts (debounces, retries), the 1-second clocks and `Date` are left alone.
# HUAPAI_REAL_POLLS=1 runs the browser tests at the pages' real pace.
POLLS_QUICKENED = 1 if os.environ.get("HUAPAI_REAL_POLLS") else 5
QUICKEN_POLLS = """
(() => {
  const quickened = %d;
  const setInterval = window.setInterval;
  window.setInterval = function (handler, period, ...args) {
    const ms = Number(period) || 0;
    return setInterval.call(this, handler, ms >= 2000 ? Math.max(1000, ms / quickened) : period, ...args);
  };
})();
"""


# The browser contexts `new_page` opened during the running test: closed when it ends.
_OPENED_CONTEXTS = []


@pytest.fixture(autouse=True)
def close_browser_contexts():
    """A page left open goes on polling the session's live server into the tests that follow: its
    requests then fail there (no database) and print tracebacks from the server's thread, whose
    caret lines Python 3.11 builds with `ast` — beside a test's own `ast.parse`, CPython 3.11
    raises "AST constructor recursion depth mismatch" (make test, 2026-11-25)."""
    yield
    while _OPENED_CONTEXTS:
        context = _OPENED_CONTEXTS.pop()
        with contextlib.suppress(Exception):  # closed already by the test, or the browser is gone
            context.close()


def new_page(browser, **context_options):
    """A page in a new context (locale zh-CN unless given) with the suite's timeout and the
    pages' polls quickened (QUICKEN_POLLS); the context is closed when the test ends."""
    context = browser.new_context(**{"locale": "zh-CN", **context_options})
    _OPENED_CONTEXTS.append(context)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    if POLLS_QUICKENED != 1:
        context.add_init_script(QUICKEN_POLLS % POLLS_QUICKENED)
    return context.new_page()


def session_key(user):
    """The session cookie's value of a session signed in as `user`, made as Django's test client
    makes one (`force_login`)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def signed_in(page, base, username):
    """`page`'s browser signed in as `username` without the login form (`session_key`'s cookie).
    A page load and a sign-in's redirect fewer for each test about another flow; the form itself
    is driven as a user drives it by the whole-event tests (test_event_from_scratch_browser and
    the games')."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    session = session_key(get_user_model().objects.get(username=username))
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])


@pytest.fixture
def page(browser):
    opened = new_page(browser)
    yield opened
    opened.context.close()


def build_event():
    """The four-pair archive with a scheduled round 3 (tables 1 and 2) paired by Swiss."""
    from scoring.archive.database import import_archive
    from scoring.rounds.creation import round_pair
    from tests.archives import four_pairs_two_rounds

    event = import_archive(four_pairs_two_rounds())
    round_pair(event, "swiss")
    return event


def build_people(event):
    """Two referees and an organiser of `event`, a user with no role, a referee of another event."""
    from scoring.archive.database import import_archive
    from tests.archives import four_pairs_two_rounds
    from tests.referee_setup import make_user

    archive = four_pairs_two_rounds()
    other = import_archive(dict(archive, event={**archive["event"], "slug": "other"}))
    return {
        "referee1": make_user("referee1", "referee", event),
        "referee2": make_user("referee2", "referee", event),
        "organiser": make_user("organiser", "organiser", event),
        "outsider": make_user("outsider"),
        "other_referee": make_user("other_referee", "referee", other),
    }


@pytest.fixture
def event():
    """build_event(), rolled back after the test."""
    return build_event()


@pytest.fixture
def people(event):
    """build_people(event), rolled back after the test."""
    return build_people(event)
