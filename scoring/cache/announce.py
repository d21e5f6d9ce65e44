"""The one announcement every write makes: "results changed for this event". What that
invalidates and warms is decided here, nowhere else."""

from django.conf import settings
from django.db import connection, transaction

from scoring.cache.versions import version_bump


def announce_results_changed(event, *, public=True, shard=0, bumped=False):
    """Call inside the writing transaction. `public`: the change shows on public pages (a
    published round, entrants' names, the event's settings); `shard`: spreads concurrent
    writers of one event over the version's counter rows (the table's id); `bumped`: the
    caller's own statement already ran `version_bump` (the referee's one-statement insert).

    - The results version, and the public one when `public`, moves with the commit: cached
      standings, statistics, labels and pages are keyed by it, so they are never stale.
    - After the commit this process reads the event's page stamp again at once (the other
      processes within `HUAPAI_PAGE_STAMP_SECONDS`).
    - A public change is warmed outside requests by the warmer (`scoring.cache.warmup`), or
      right after the commit when `HUAPAI_WARM_IN_BACKGROUND` is off (tests).
    """
    if not bumped:
        with connection.cursor() as cursor:
            cursor.execute(*version_bump(event, public=public, shard=shard))
    if public:
        event_id = event.pk
        transaction.on_commit(lambda: _after_public_change(event_id))


def _after_public_change(event_id):
    from scoring.cache import pages, warmup  # they read results; this module is imported by writers

    pages.forget_page_stamp(event_id)
    if not settings.HUAPAI_WARM_IN_BACKGROUND:
        warmup.warm_event_id(event_id)
