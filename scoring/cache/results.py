"""Results read from the database, cached under the event's results version
(`scoring.cache.versions`): a write moves the version, so a cached value is never stale and
nothing is deleted — new reads simply use new keys, and old ones expire.

Three shapes, each computed by one caller at a time (`scoring.cache.flight`):
- `cached` — one value (an event's entrant labels, its players' statistics);
- `cached_parts` — several values computed together (standings after each round);
- `store_items` / `stored_items` — a table stored one key per row, so a page that needs one
  row (an entrant's standing, a player's statistics) does not unpickle the whole table.
"""

from django.core.cache import cache

from scoring.cache.flight import computed_once
from scoring.cache.versions import current_version

RESULTS_SECONDS = 24 * 3600


def _prefix(event, name, public, variant, version=None):
    if version is None:
        version = current_version(event, public=public)
    return f"{name}:{event.pk}:{version}:{variant}"


def cached(event, name, compute, *, public, variant="", version=None):
    """`compute()` for the event's current results version (the public one if `public`)."""
    key = _prefix(event, name, public, variant, version)

    def compute_and_store():
        value = compute()
        cache.set(key, value, RESULTS_SECONDS)
        return value

    found = cache.get(key)
    return found if found is not None else computed_once(key, fetch=lambda: cache.get(key), compute=compute_and_store)


def cached_parts(event, name, parts, compute_missing, *, public, variant=""):
    """{part: value} for every part, where `compute_missing(parts)` returns {part: value} for
    the parts not stored yet (one read of the results serves them all)."""
    prefix = _prefix(event, name, public, variant)
    keys = {part: f"{prefix}:{part}" for part in parts}
    found = cache.get_many(list(keys.values()))
    result = {part: found[key] for part, key in keys.items() if key in found}
    if len(result) == len(keys):
        return result

    def all_stored():
        stored = cache.get_many(list(keys.values()))
        return {part: stored[key] for part, key in keys.items()} if len(stored) == len(keys) else None

    def compute_and_store():
        missing = [part for part in parts if part not in result]
        computed = compute_missing(missing)
        cache.set_many({keys[part]: computed[part] for part in missing}, RESULTS_SECONDS)
        return {**result, **computed}

    return computed_once(prefix, fetch=all_stored, compute=compute_and_store)


def store_items(event, name, items, *, public, version=None):
    """Store {id: row} one key per row, and the number of rows last: its key promises the rows."""
    prefix = _prefix(event, name, public, "items", version)
    cache.set_many({f"{prefix}:{item_id}": item for item_id, item in items.items()}, RESULTS_SECONDS)
    cache.set(f"{prefix}:#", len(items), RESULTS_SECONDS)


def stored_items(event, name, ids, *, public):
    """`({id: row} of those stored, number of rows)`, or None when the table is not stored for
    the current version. A row may be missing though the table is stored (never stored: no
    such id; or dropped by the cache)."""
    prefix = _prefix(event, name, public, "items")
    keys = {item_id: f"{prefix}:{item_id}" for item_id in ids}
    found = cache.get_many([f"{prefix}:#", *keys.values()])
    if f"{prefix}:#" not in found:
        return None
    return {item_id: found[key] for item_id, key in keys.items() if key in found}, found[f"{prefix}:#"]
