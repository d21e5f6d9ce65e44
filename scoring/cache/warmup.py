"""Warm-up: after a publication or a correction the public figures (standings, entrant
labels, players' statistics) are computed again outside any request, so that neither the
organiser's request nor the first of the crowd pays for them.

The warmer polls the events' public versions (one query a second) and warms each event
whose version moved since it last looked. In production it runs inside each gunicorn worker,
started once per worker by gunicorn's `post_worker_init` hook (gunicorn.conf.py) — the only
thread here, because a process's own memory cache can be filled only from inside that
process; with a shared cache (Redis) every worker sees the move but one warms it
(`scoring.cache.flight.alone`). `manage.py warm_public` runs the same warmer as a process of
its own, for another server sharing a cache with it.

`make run` (runserver, one process, memory cache) has no warmer: its pages are correct and
the first visitor after a publication computes them. With `HUAPAI_WARM_IN_BACKGROUND` off
(tests), `announce_results_changed` warms right after the writing transaction commits.
"""

import logging
import threading

from django.db import close_old_connections

from scoring.cache.flight import alone
from scoring.cache.versions import current_version, public_versions
from scoring.models import Event, Round

logger = logging.getLogger(__name__)

# A publication during a warm-up moves the version again: warm until it stands still, at most this often.
WARM_PASSES = 5
POLL_SECONDS = 1.0


def warm_event(event):
    """Compute the public standings, labels and every player's statistics now, each cached
    under the public version: a write that publishes nothing finds them done."""
    from scoring.results.labels import entrant_labels
    from scoring.results.standings import standings_by_round
    from scoring.results.statistics import warm_player_statistics

    published = list(Round.objects.published().filter(event=event).values_list("number", flat=True))
    standings_by_round(event, published_only=True, rounds=[None, *published])  # the page and standings.xlsx
    entrant_labels(event)
    warm_player_statistics(event)


def warm_event_id(event_id):
    """Warm the event until its public version stands still; skipped while another caller
    warms it (that one warms again if the version moved)."""
    with alone(f"warming:{event_id}") as mine:
        if not mine:
            return
        for _ in range(WARM_PASSES):
            event = Event.objects.filter(pk=event_id).first()
            if event is None:
                return
            before = current_version(event, public=True)
            warm_event(event)
            if current_version(event, public=True) == before:
                return


class Warmer:
    """Warms the events whose public version moved since its previous pass. The first pass
    only notes the versions: warming every event at each start would cost minutes for
    archived events nobody reads, and their pages are computed on demand anyway."""

    def __init__(self):
        self.seen = None  # {event id: public version} at the previous pass

    def run_pass(self):
        """Warm what moved; returns the ids of the events warmed."""
        versions = public_versions()
        moved = [] if self.seen is None else [e for e, v in versions.items() if self.seen.get(e) != v]
        self.seen = versions
        for event_id in moved:
            warm_event_id(event_id)
        return moved

    def run(self, *, stop, poll_seconds=POLL_SECONDS):
        """Pass after pass until `stop` (a `threading.Event`) is set."""
        while not stop.is_set():
            close_old_connections()  # a connection the database closed meanwhile
            try:
                self.run_pass()
            except Exception:
                # A failed pass (database restarting) must not end the warmer; pages stay correct.
                logger.exception("warm-up pass failed")
            stop.wait(poll_seconds)


def start_warmer_thread():
    """Start a warmer in this process (a gunicorn worker with a per-process cache)."""
    stop = threading.Event()
    threading.Thread(target=Warmer().run, kwargs={"stop": stop}, daemon=True, name="warm-public").start()
    return stop
