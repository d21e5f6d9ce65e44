"""huapai/sqlite/base.py overrides private hooks of Django's SQLite backend."""


def test_the_django_version_is_the_one_the_sqlite_writer_queue_was_checked_against():
    """When Django's version moves, re-read `_start_transaction_under_autocommit`, `_commit`,
    `_rollback` and `_close` in django/db/backends/base/base.py and sqlite3/base.py against
    huapai/sqlite/base.py, run tests/entry/test_sqlite_writers.py, then update WRITTEN_FOR_DJANGO."""
    import django

    from huapai.sqlite.base import WRITTEN_FOR_DJANGO

    assert django.VERSION[:2] == WRITTEN_FOR_DJANGO, (
        f"Django {django.get_version()} is not {WRITTEN_FOR_DJANGO}: re-check huapai/sqlite/base.py's overridden hooks"
    )
