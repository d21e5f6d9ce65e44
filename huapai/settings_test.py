"""Settings for the test suite: the real settings with DEBUG's development defaults
(pytest-django still runs the tests themselves with DEBUG off)."""

import os
import tempfile

os.environ.setdefault("DEBUG", "1")

from huapai.settings import *  # noqa: F403

# Most tests run inside one transaction that a warm-up thread's connection could not see:
# warm inline (tests/cache/test_page_cache.py checks the thread itself).
HUAPAI_WARM_IN_BACKGROUND = False

# Tests check that a publication reaches the pages at once: read the version every time
# (tests/cache/test_page_cache.py checks the per-process reuse itself).
HUAPAI_PAGE_STAMP_SECONDS = 0

# The tests serve no collected files. An empty STATIC_ROOT of their own: WhiteNoise lists
# STATIC_ROOT each time a test client builds its middleware, and listing the 560-odd files that
# the two-hosts test (or a deployment's collectstatic) puts in var/static took ~30 ms a client
# (issue 19).
STATIC_ROOT = VAR_DIR / "test-static"  # noqa: F405
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# No backup is taken by itself in the tests (every publication would write one under var/):
# tests/backups/ turn it on, with a directory of their own.
HUAPAI_BACKUP_AUTOMATIC = False
# A backup a test takes without naming a directory goes to a temporary one, never to the
# checkout's var/backups, where `make run`'s demo keeps its own.
HUAPAI_BACKUP_DIR = Path(tempfile.mkdtemp(prefix="huapai-test-backups-"))  # noqa: F405
