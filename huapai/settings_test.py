"""Settings for the test suite: the real settings with DEBUG's development defaults
(pytest-django still runs the tests themselves with DEBUG off)."""

import os

os.environ.setdefault("DEBUG", "1")

from huapai.settings import *  # noqa: F403

# Most tests run inside one transaction that a warm-up thread's connection could not see:
# warm inline (tests/cache/test_page_cache.py checks the thread itself).
HUAPAI_WARM_IN_BACKGROUND = False

# Tests check that a publication reaches the pages at once: read the version every time
# (tests/cache/test_page_cache.py checks the per-process reuse itself).
HUAPAI_PAGE_STAMP_SECONDS = 0
