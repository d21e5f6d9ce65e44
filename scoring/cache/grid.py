"""The referees' grid, kept in this process (`scoring.table_entry.grid`).

- **Rows, per table fingerprint.** A row is kept with the fingerprint it was computed for; a
  request computes again only the rows whose table's fingerprint has moved since, so a live
  update after a few tables acted costs those tables, not the round.
- **The assembled grid, per round stamp.** The rows in order with the room's counts and pace:
  the referees polling the same round share it until the round's stamp moves; the last few are
  kept, so that an update can send only the rows that moved since the grid the page holds.

Kept in the process's memory rather than Django's cache: fetching 1,000 rows from the
local-memory cache costs ~35 ms of unpickling, more than an update may take. Each worker keeps
its own (a worker that has not shown a round for a while computes the tables that moved
meanwhile); at most `KEPT_ROUNDS` rounds, the least recently shown dropped first. Nothing is
served stale: a row only for the fingerprint it was made for, a grid only for its stamp (read
before the rows, so at worst a grid is newer than its stamp, and the next stamp replaces it).
"""

import threading
from collections import OrderedDict

KEPT_ROUNDS = 8
KEPT_GRIDS = 4  # per round: the last grids, which a live update tells the new one apart from
# Beyond this share of a round's tables moved, one pass over the whole round is cheaper
# than a look-up by ids (and SQLite bounds a statement's parameters).
WHOLE_ROUND_SHARE = 0.5

_rounds = OrderedDict()  # key -> {table id: (fingerprint, row)}
_grids = OrderedDict()  # key -> OrderedDict(stamp -> grid), oldest first
_lock = threading.Lock()


def grid_key(rnd) -> tuple:
    """A round's key here: the round, and the event's settings its rows are computed with."""
    event = rnd.event
    return (rnd.id, event.kind, event.match_mode, event.match_length, event.game_threshold)


def _keep(store, key, value):
    store[key] = value
    store.move_to_end(key)
    while len(store) > KEPT_ROUNDS:
        store.popitem(last=False)


def kept_grid(key, stamp, compute):
    """The round's grid for `stamp`: kept if this process assembled it already (several referees
    polling, the page's first render and its first update), else `compute()`'s, kept."""
    with _lock:
        grid = _grids.get(key, {}).get(stamp)
    if grid is not None:
        return grid
    grid = compute()
    with _lock:
        grids = _grids.get(key) or OrderedDict()
        grids[stamp] = grid
        while len(grids) > KEPT_GRIDS:
            grids.popitem(last=False)
        _keep(_grids, key, grids)
    return grid


def kept_grids(key):
    """[(stamp, grid)] this process keeps of a round, newest first."""
    with _lock:
        return list(reversed(_grids.get(key, {}).items()))


def kept_rows(key, fingerprints, build):
    """{table id: row} for every table in `fingerprints`: the kept row where its fingerprint is
    unchanged, else from `build(table ids)` (`build(None)`: every table of the round)."""
    with _lock:
        kept = _rounds.get(key, {})
        _keep(_rounds, key, kept)
    moved = [table for table, fingerprint in fingerprints.items() if kept.get(table, (None,))[0] != fingerprint]
    if moved:
        fresh = build(None if len(moved) > WHOLE_ROUND_SHARE * len(fingerprints) else moved)
        kept = {table: pair for table, pair in kept.items() if table in fingerprints}
        kept.update((table, (fingerprints[table], fresh[table])) for table in moved if table in fresh)
        with _lock:
            _rounds[key] = kept
    return {table: kept[table][1] for table in fingerprints if table in kept}


def forget():
    """Drop every kept row (tests: a rolled-back test's ids come back in the next one)."""
    with _lock:
        _rounds.clear()
        _grids.clear()
