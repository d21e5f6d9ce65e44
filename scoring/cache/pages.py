"""Whole public pages, cached and validated, so a crowd refreshing after a publication
costs a cache read (or a 304) instead of a render.

A public page depends only on the event's published results (its public version), its
rounds' states and draws, the language and the address (path and query). The key holds
all of them, so a cached page is never stale and nothing needs invalidating: a new
version simply makes new keys. For each key the page is rendered once (single flight:
the others get the previous version of the page at once, else wait for it —
`scoring.cache.flight`) and stored twice,
plain and gzip-compressed, so phones get the compressed bytes without compressing per
request. Signed-in users (referees, organisers) and requests with pending flash messages
bypass the cache: their pages hold personal parts.

Written by hand because Django's `cache_page` keys on the URL and a timeout (stale after
a publication, and refreshed by every crowd at once) and its GZip middleware compresses
every response again; neither knows the results version.
"""

import gzip
import hashlib
import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import Http404, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.translation import get_language

from scoring.cache.flight import computed_once
from scoring.cache.page_query import is_shared_value
from scoring.engine.vocabulary import RoundStatus
from scoring.models import Event, ResultsCounter, Round

BROWSER_MAX_AGE = 5  # seconds a phone or a proxy may reuse a page without asking
STALE_WHILE_REVALIDATE = 30
PAGE_TIMEOUT = 6 * 3600


# Each step of a round (paired, started, published, official, draw released or hidden,
# final stage) adds or removes its number in one of these sums, so the stamp moves.
_ROUND_SIGNATURE = (
    "(SELECT COUNT(*) FROM {rounds} r WHERE r.event_id = e.id)",
    *(
        f"(SELECT COALESCE(SUM(r.number), 0) FROM {{rounds}} r WHERE r.event_id = e.id AND r.status = '{status}')"
        for status in RoundStatus  # constants of the vocabulary, never user input
    ),
    "(SELECT COALESCE(SUM(r.number), 0) FROM {rounds} r WHERE r.event_id = e.id AND r.draw_released_at IS NOT NULL)",
    "(SELECT COALESCE(SUM(r.number), 0) FROM {rounds} r WHERE r.event_id = e.id AND r.stage <> '')",
)


_recent_stamps = {}  # slug -> (monotonic time read, stamp): this process's last reading


def page_stamp(slug):
    """`(event id, stamp)` for an event's public pages, or None, read at most once every
    `settings.HUAPAI_PAGE_STAMP_SECONDS` per process (so a crowd costs no query per request;
    a publication reaches the pages within that second — phones and proxies may keep a page
    `BROWSER_MAX_AGE` seconds anyway)."""
    seconds = settings.HUAPAI_PAGE_STAMP_SECONDS
    if seconds:
        recent = _recent_stamps.get(slug)
        now = time.monotonic()
        if recent is not None and now - recent[0] < seconds:
            return recent[1]
        stamp = read_page_stamp(slug)
        if len(_recent_stamps) > 1000:  # slugs of events that exist, but keep it bounded
            _recent_stamps.clear()
        _recent_stamps[slug] = (now, stamp)
        return stamp
    return read_page_stamp(slug)


def forget_page_stamp(event_id):
    """Read the event's stamp again at the next page (its results just changed here)."""
    for slug, (_when, stamp) in list(_recent_stamps.items()):
        if stamp is not None and stamp[0] == event_id:
            _recent_stamps.pop(slug, None)


def read_page_stamp(slug):
    """`(event id, stamp)` for an event's public pages, or None, in one statement: the public
    results version and a signature of its rounds' states, draws and stages."""
    counter = connection.ops.quote_name(ResultsCounter._meta.db_table)
    events = connection.ops.quote_name(Event._meta.db_table)
    rounds = connection.ops.quote_name(Round._meta.db_table)
    signature = ", ".join(part.format(rounds=rounds) for part in _ROUND_SIGNATURE)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT e.id, e.public_version + COALESCE((SELECT SUM(c.public) FROM {counter} c"
            f" WHERE c.event_id = e.id), 0), {signature} FROM {events} e WHERE e.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return row[0], ":".join(str(value) for value in row[1:])


def _etag(key):
    return '"' + hashlib.blake2b(key.encode(), digest_size=12).hexdigest() + '"'


def _matches(if_none_match, etag):
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return etag in tags or "*" in tags


# The query parameters many people share (`after`, `page`, `per_page`), each with the values a
# page offers — `cache.page_query`, the form the views read them with, says which. Only addresses
# made of these reach the cache: any other parameter or value is dropped by a redirect to the
# page's canonical address (so random addresses can neither fill the cache nor make a render
# each), and a search (`q`) is rendered for its asker without being stored.
SEARCH = "q"


def canonical_query(request, sorts=()):
    """The page's canonical query string: the shared parameters with offered values (`sort`
    only among `sorts`, the orders the page offers), the last value of each, in one order."""
    kept = []
    for name in sorted(request.GET):
        value = request.GET.getlist(name)[-1]
        if is_shared_value(name, value) or (name == "sort" and value in sorts):
            kept.append((name, value))
    return urlencode(kept)


def _only_shared_values(request, sorts):
    """Whether the query holds nothing but shared parameters with offered values, once each
    (in any order: the cache keys on the canonical order)."""
    return sum(len(values) for _name, values in request.GET.lists()) == len(request.GET) and all(
        is_shared_value(name, value) or (name == "sort" and value in sorts) for name, value in request.GET.items()
    )


def _shared_address(request, sorts=()):
    """A GET or HEAD of an address many people ask for: shared values only, no search."""
    return request.method in ("GET", "HEAD") and SEARCH not in request.GET and _only_shared_values(request, sorts)


def _bypass(request, sorts=()):
    if not _shared_address(request, sorts):
        return True
    if request.user.is_authenticated:
        return True
    storage = getattr(request, "_messages", None)
    return storage is not None and len(storage) > 0


def _canonical_redirect(request, sorts):
    """A redirect to the canonical address when the query holds anything else, or None."""
    if request.method not in ("GET", "HEAD") or SEARCH in request.GET or _only_shared_values(request, sorts):
        return None
    query = canonical_query(request, sorts)
    return HttpResponseRedirect(request.path + (f"?{query}" if query else ""))


def _place(request, sorts):
    """The address in a cache key: the path and the canonical query, so the same page asked
    with its parameters in another order is one entry."""
    query = canonical_query(request, sorts)
    return request.path + (f"?{query}" if query else "")


def _headers(response, etag):
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={BROWSER_MAX_AGE}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"
    patch_vary_headers(response, ("Accept-Encoding", "Accept-Language", "Cookie"))
    return response


def _encoding(request):
    return "gzip" if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "") else "identity"


def _from_entry(entry):
    """`entry`: (content type, ETag, encoding, body, status) — one encoding per cache key, so a
    hit reads only the bytes it sends."""
    content_type, etag, encoding, body, status = entry
    response = HttpResponse(body, content_type=content_type, status=status)
    if encoding == "gzip":
        response["Content-Encoding"] = "gzip"
    return _headers(response, etag)  # a previous version of the page keeps its own tag


def _entries(response, etag):
    body = response.content
    content_type = response["Content-Type"]
    status = response.status_code
    return {
        "identity": (content_type, etag, "identity", body, status),
        "gzip": (content_type, etag, "gzip", gzip.compress(body, 6), status),
    }


def _keys(slug, language, full_path):
    """`(key, latest key)` of a page, or None for an unknown event — the same in the view's
    decorator and in the early middleware, so either can answer what the other stored."""
    stamp = page_stamp(slug)
    if stamp is None:
        return None
    event_id, version = stamp
    place = hashlib.blake2b(f"{language}:{full_path}".encode(), digest_size=16).hexdigest()
    return f"page:{event_id}:{version}:{place}", f"page-latest:{event_id}:{place}"


def _cached_answer(request, keys):
    """A 304 or the stored page, or None when the page is not stored yet."""
    key, _latest = keys
    etag = _etag(key)
    if _matches(request.META.get("HTTP_IF_NONE_MATCH", ""), etag):
        return _headers(HttpResponseNotModified(), etag)
    entry = cache.get(f"{key}:{_encoding(request)}")
    return None if entry is None else _from_entry(entry)


def public_page(view=None, *, sorts=()):
    """Cache and validate a public page of one event (`slug` the view's first argument);
    `sorts`: the values of `?sort=` the page offers."""
    if view is None:
        return lambda actual: public_page(actual, sorts=frozenset(sorts))

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        redirect = _canonical_redirect(request, sorts)
        if redirect is not None:
            return redirect
        if _bypass(request, sorts):
            return view(request, slug, *args, **kwargs)
        keys = _keys(slug, get_language(), _place(request, sorts))
        if keys is None:
            return view(request, slug, *args, **kwargs)  # its own 404
        answer = _cached_answer(request, keys)
        if answer is not None:
            return answer
        key, latest_key = keys
        entry = _render_once(request, view, slug, args, kwargs, key, latest_key, _encoding(request))
        if isinstance(entry, HttpResponse):
            return entry  # an error page or a redirect: not cached
        return _from_entry(entry)

    wrapper.public_page = True
    wrapper.page_sorts = frozenset(sorts)
    return wrapper


class PublicPageMiddleware:
    """Answers a stored public page (or a 304) before sessions, users, messages and the locale
    are set up — as WhiteNoise does for static files — for a visitor with no session or
    messages cookie. Anything else, or a page not stored yet, goes on to the view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = self._answer(request)
        return answer if answer is not None else self.get_response(request)

    def _answer(self, request):
        if not request.path_info.startswith("/events/"):
            return None
        cookies = request.COOKIES
        if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        if not getattr(match.func, "public_page", False) or not _shared_address(request, match.func.page_sorts):
            return None
        request.get_host()  # a Host not allowed is refused (400) here as anywhere else, never answered
        keys = _keys(
            match.kwargs["slug"], translation.get_language_from_request(request), _place(request, match.func.page_sorts)
        )
        if keys is None:
            return None
        answer = _cached_answer(request, keys)
        if answer is not None:
            answer["X-Frame-Options"] = "DENY"  # XFrameOptionsMiddleware runs after this one
        return answer


def _render_once(request, view, slug, args, kwargs, key, latest_key, encoding):
    """Render the page for `key` once however many ask at the same moment; the others get
    the previous version of the page, or wait for this one."""

    def render_and_store():
        request.page_etag = _etag(key)  # the page names its own version (live updates compare it)
        try:
            response = view(request, slug, *args, **kwargs)
        except Http404:
            # A page that is gone (a draw withdrawn, a round unpublished) must not be handed to
            # the waiters as its previous copy for six hours: that copy is dropped. The 404 itself
            # is not stored — random addresses must not fill the cache — and costs a look-up.
            cache.delete_many([f"{latest_key}:identity", f"{latest_key}:gzip"])
            raise
        if response.status_code != 200 or response.streaming:
            return response
        if hasattr(response, "render"):
            response.render()
        entries = _entries(response, _etag(key))
        cache.set_many(
            {f"{prefix}:{name}": entry for prefix in (key, latest_key) for name, entry in entries.items()},
            PAGE_TIMEOUT,
        )
        return entries[encoding]

    return computed_once(
        key,
        fetch=lambda: cache.get(f"{key}:{encoding}"),
        fallback=lambda: cache.get(f"{latest_key}:{encoding}"),
        compute=render_and_store,
    )


def live_updates(request):
    """Template context: a stored public page polls for a newer version of itself (site.js)."""
    return {"page_etag": getattr(request, "page_etag", ""), "live_poll_seconds": settings.HUAPAI_LIVE_POLL_SECONDS}
