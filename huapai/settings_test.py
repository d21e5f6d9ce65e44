"""Settings for the test suite: the real settings with DEBUG's development defaults
(pytest-django still runs the tests themselves with DEBUG off)."""

import os

os.environ.setdefault("DEBUG", "1")

from huapai.settings import *  # noqa: F403
