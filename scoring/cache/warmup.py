"""After a publication or a correction, the public figures are computed again in the
background, so that neither the organiser's request nor the first of the crowd pays for them."""

import threading

from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction

from scoring.cache.versions import current_version
from scoring.models import Event, Round
from scoring.results.records import warm_player_statistics
from scoring.results.standings import entrant_labels, standings_by_round


def warm_public_standings_soon(event):
    """After the writing transaction commits, compute the public standings and the players'
    statistics again — in a background thread (settings.HUAPAI_WARM_IN_BACKGROUND), so that
    the organiser's or referee's request does not wait for it; one warm-up per event at a time."""
    event_id = event.pk
    transaction.on_commit(lambda: _start_warm(event_id))


def _start_warm(event_id):
    if not settings.HUAPAI_WARM_IN_BACKGROUND:
        _warm(event_id)
        return
    threading.Thread(target=_warm_in_thread, args=(event_id,), daemon=True, name=f"warm-{event_id}").start()


# A warm-up of a 10,000-player event takes under a minute (docs/performance.md); the lock
# only outlives a thread that died.
WARM_LOCK_SECONDS = 300
WARM_PASSES = 5


def _warm_in_thread(event_id):
    lock = f"warming:{event_id}"
    if not cache.add(lock, 1, WARM_LOCK_SECONDS):
        return  # another warm-up of this event is running: it warms again if the version moved
    try:
        _warm(event_id)
    finally:
        cache.delete(lock)
        connections.close_all()  # this thread's own connections


def _warm(event_id):
    # A publication during a warm-up finds the lock taken: warm until the version stands still.
    for _ in range(WARM_PASSES):
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            return
        before = current_version(event, public=True)
        warm_public_standings(event)
        if current_version(event, public=True) == before:
            return


def warm_public_standings(event):
    """Compute the public standings and every player's statistics now, so the first visitors
    afterwards (the standings, each entrant's own page) do not pay for summing every deal.
    Each is cached under the public version: a write that publishes nothing finds them done."""
    published = list(Round.objects.published().filter(event=event).values_list("number", flat=True))
    standings_by_round(event, published_only=True, rounds=[None, *published])  # the page and standings.xlsx
    entrant_labels(event)
    warm_player_statistics(event)
