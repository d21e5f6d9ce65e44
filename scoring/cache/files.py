"""Public files — the PDFs and workbooks anyone may download (standings, results, travellers,
score sheets, cross table, the draw) — rendered once per public version and served from the
cache to everyone after, as public pages are (`cache.pages`).

A 600-pair round's travellers cost half a minute of CPU; rendering them for every download
again would let a few visitors clicking the link take every worker. So a file is keyed like a
page, by the event's page stamp (its public version and its rounds' states and draws) and the file's
name, so a publication makes new keys and nothing is invalidated. One render at a time per file
(`flight.computed_once`); the others get the previous version of the file at once, or are told
at once to come back (`FileBusy`: 503 with Retry-After; `FILE_WAIT_SECONDS` is 0), so no thread
waits for another's render. A process renders one file at a time (`RENDERS_AT_ONCE`), so
downloads never hold more than one of its threads; an asker beyond that is told to come back too.

The results pack takes its public files from here (`stored_file`), so a file in the pack is
the file a download gives, rendered once for both.
"""

import hashlib
import tempfile
import threading
from dataclasses import dataclass

from django.core.cache import cache
from django.utils import translation

from scoring.cache import flight
from scoring.cache.pages import page_stamp

FILE_TIMEOUT = 6 * 3600
# A render holds one of a process's threads (gunicorn: 8 a worker) for up to a minute; the
# rest stay free for pages and referees. One, not two: a render is pure Python (reportlab,
# openpyxl), so two in one process share one interpreter lock and finish no sooner than one after
# the other, while the process's requests get a third of the lock instead of a half.
RENDERS_AT_ONCE = 1
RETRY_AFTER_SECONDS = 10
_renders = threading.BoundedSemaphore(RENDERS_AT_ONCE)


@dataclass(frozen=True)
class StoredFile:
    filename: str
    content_type: str
    body: bytes
    etag: str


class FileBusy(Exception):
    """The file is being rendered (or this process renders all it may): ask again later."""

    retry_after = RETRY_AFTER_SECONDS


def file_keys(slug: str, file, *, place: str = "") -> tuple[str, str] | None:
    """`(key, latest key)` of a public file, or None for an unknown event: the page stamp (public
    version, rounds' states and draws), the file's name and the language it is written in (papers
    follow the download's language, as pages do), as a page's keys."""
    stamp = page_stamp(slug)
    if stamp is None:
        return None
    event_id, version = stamp
    language = translation.get_language() or "zh-hans"
    name = hashlib.blake2b(f"{file.filename}:{place}:{language}".encode(), digest_size=16).hexdigest()
    return f"file:{event_id}:{version}:{name}", f"file-latest:{event_id}:{name}"


def stored_file(slug: str, file, *, place: str = "") -> StoredFile | None:
    """The public `file` (`scoring.exports.files.File`) of the event `slug`, rendered at most once
    per public version; None for an unknown event. `place`: what else the file depends on (the
    host a score sheet's QR code names). Raises `FileBusy` rather than hold a thread for another
    render."""
    keys = file_keys(slug, file, place=place)
    if keys is None:
        return None
    key, latest_key = keys

    def render_and_store() -> StoredFile:
        if not _renders.acquire(blocking=False):
            previous = cache.get(latest_key)
            if previous is None:
                raise FileBusy
            return previous
        try:
            # Written in the language of the request, which is part of the key: an English visitor
            # never gets the Chinese file, nor the other way round.
            with tempfile.TemporaryFile() as handle:
                file.write(handle)  # reportlab and openpyxl want a file to seek in
                handle.seek(0)
                body = handle.read()
        finally:
            _renders.release()
        etag = '"' + hashlib.blake2b(key.encode(), digest_size=12).hexdigest() + '"'
        found = StoredFile(file.filename, file.content_type, body, etag)
        cache.set_many({key: found, latest_key: found}, FILE_TIMEOUT)
        return found

    def busy():
        raise FileBusy

    return flight.computed_once(
        key,
        fetch=lambda: cache.get(key),
        fallback=lambda: cache.get(latest_key),
        compute=render_and_store,
        wait_seconds=flight.FILE_WAIT_SECONDS,
        busy=busy,
    )
