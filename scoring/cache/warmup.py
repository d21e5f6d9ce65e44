"""Warm-up: after a publication or a correction the public figures (standings, entrant
labels, players' statistics) are computed again outside any request, so that neither the
organiser's request nor the first of the crowd pays for them.

The warmer polls the events' public versions (one query a second) and warms each event
whose version moved since it last looked. It also builds the table links' states of every
round being played in players' entry, once per round it has not seen (and at a worker's
start): at a round's start a hall's phones all ask for their table's full state within
seconds, and each worker would otherwise build a thousand of them inside those requests. And
it keeps the referees' grid of every round in play computed in its worker (`round_grid`, every
`GRID_REFRESH_SECONDS`): a worker's first grid of a round two hours in would otherwise compute
every table's row inside a referee's request (~0.6 s for 1,000 tables).

In production it runs inside each gunicorn worker, started once per worker by gunicorn's
`post_worker_init` hook (gunicorn.conf.py) — the only thread here, because a process's own
memory cache can be filled only from inside that process; with a shared cache (Redis) every
worker sees the move but one warms it (`scoring.cache.flight.alone`). `manage.py warm_public`
runs the same warmer as a process of its own, for another server sharing a cache with it.

`make run` (runserver, one process, memory cache) has no warmer: its pages are correct and
the first visitor after a publication computes them. With `HUAPAI_WARM_IN_BACKGROUND` off
(tests), `announce_results_changed` warms right after the writing transaction commits.
"""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections
from django.utils import translation

from scoring.cache.flight import alone
from scoring.cache.versions import current_version, public_versions
from scoring.models import Event, Round, Table

logger = logging.getLogger(__name__)

# A publication during a warm-up moves the version again: warm until it stands still, at most this often.
WARM_PASSES = 5
POLL_SECONDS = 1.0
# How often the warmer brings each round's grid up to date in its worker: only the tables that
# moved since are computed (a few a second in a busy hall).
GRID_REFRESH_SECONDS = 15.0


@dataclass
class Warmers:
    """What the domains hand the warmer, through `register_warmers` (called from
    `scoring.apps` once the apps are loaded). The cache sits beneath the domains: it imports
    none of them, so what it warms is given to it. Until then each warmer does nothing."""

    # An event's public figures, each cached under its public version.
    public_figures: Callable[[Event], object] | None = None
    # A table link's stamp (`stamp_of(token)`) and its state (`build(token, open_calls)`).
    table_state_stamp: Callable | None = None
    table_state_body: Callable | None = None
    # A round's referees' grid, brought up to date in this process.
    round_grid: Callable[[Round], object] | None = None
    # The backup due now, if any.
    backup: Callable[[], object] | None = None


WARMERS = Warmers()


def register_warmers(
    *,
    public_figures: Callable[[Event], object],
    table_state_stamp: Callable,
    table_state_body: Callable,
    round_grid: Callable[[Round], object],
    backup: Callable[[], object],
) -> None:
    """Hand the warmer what it warms (`scoring.apps.ScoringConfig.ready`)."""
    WARMERS.public_figures = public_figures
    WARMERS.table_state_stamp, WARMERS.table_state_body = table_state_stamp, table_state_body
    WARMERS.round_grid = round_grid
    WARMERS.backup = backup


def warm_event(event):
    """Compute the event's public figures now (`Warmers.public_figures`), each cached under the
    public version: a write that publishes nothing finds them done."""
    if WARMERS.public_figures is not None:
        WARMERS.public_figures(event)


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


def warm_table_states(round_id):
    """Build every table link state of the round not kept at its current stamp
    (`scoring.cache.tables`); skipped while another caller warms it. Returns the number built."""
    from scoring.cache.tables import warm_round_states

    if WARMERS.table_state_stamp is None or WARMERS.table_state_body is None:
        return 0
    with alone(f"warming-tables:{round_id}") as mine:
        if not mine:
            return 0
        tokens = list(Table.objects.filter(round_id=round_id).values_list("token", flat=True))
        # A phone's request speaks the site's language unless it asks for another.
        with translation.override(settings.LANGUAGE_CODE):
            return warm_round_states(tokens, WARMERS.table_state_stamp, WARMERS.table_state_body)


def rounds_in_play():
    """`{round id: entered by players}` of the rounds paired or in play, not yet published."""
    rounds = Round.objects.unpublished().filter(tables__isnull=False)
    return {
        round_id: entry == Event.Entry.PLAYERS
        for round_id, entry in rounds.values_list("id", "event__entry").distinct()
    }


def warm_round_grid(round_id):
    """Bring the round's referees' grid up to date in this process (`scoring.cache.grid`)."""
    rnd = Round.objects.select_related("event").filter(pk=round_id).first()
    if rnd is not None and WARMERS.round_grid is not None:
        WARMERS.round_grid(rnd)


class Warmer:
    """Warms the events whose public version moved since its previous pass. The first pass
    only notes the versions: warming every event at each start would cost minutes for
    archived events nobody reads, and their pages are computed on demand anyway."""

    def __init__(self):
        self.seen = None  # {event id: public version} at the previous pass
        self.tables_warmed = set()  # rounds whose table states this warmer built
        self.grids_at = {}  # {round id: time.monotonic() of its grid's last refresh}

    def run_pass(self):
        """Warm what moved; returns the ids of the events warmed."""
        versions = public_versions()
        moved = [] if self.seen is None else [e for e, v in versions.items() if self.seen.get(e) != v]
        self.seen = versions
        for event_id in moved:
            warm_event_id(event_id)
        self.warm_tables()
        self.back_up()
        return moved

    def back_up(self):
        """The backup due now, if any (`Warmers.backup`, `scoring.backups.services.backup_if_due`: every
        HUAPAI_BACKUP_MINUTES while a round is in play, and after each publication,
        officialisation and close). One worker takes it: the decision is a database row."""
        if WARMERS.backup is None:
            return
        try:
            WARMERS.backup()
        except Exception:
            logger.exception("backup pass failed")

    def warm_tables(self):
        """Build the table states of each round in players' entry not seen before (at the
        first pass: every such round, so a worker restarted mid-round is ready too), and
        refresh each round's grid every `GRID_REFRESH_SECONDS`."""
        playing = rounds_in_play()
        by_players = {round_id for round_id, players in playing.items() if players}
        for round_id in sorted(by_players - self.tables_warmed):
            warm_table_states(round_id)
            self.tables_warmed.add(round_id)
        self.tables_warmed &= by_players
        now = time.monotonic()
        for round_id in sorted(playing):
            if round_id not in self.grids_at or now - self.grids_at[round_id] >= GRID_REFRESH_SECONDS:
                warm_round_grid(round_id)
                self.grids_at[round_id] = now
        self.grids_at = {round_id: at for round_id, at in self.grids_at.items() if round_id in playing}

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
