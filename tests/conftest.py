import json
import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; Django refuses
# database access from such a thread unless told it is safe (it is: one thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("HUAPAI_SHARED", REPO.parent / "shared"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def load_examples():
    return json.loads((SHARED / "rules" / "examples.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def empty_cache():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="zh-CN")
    opened = context.new_page()
    opened.set_default_timeout(10_000)
    yield opened
    context.close()


@pytest.fixture
def event():
    """The four-pair archive with a scheduled round 3 (tables 1 and 2) paired by Swiss."""
    from scoring.archive.database import import_archive
    from scoring.rounds.creation import round_pair
    from tests.archives import four_pairs_two_rounds

    event = import_archive(four_pairs_two_rounds())
    round_pair(event, "swiss")
    return event


@pytest.fixture
def people(event):
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
