"""No input produces a 5xx: every URL pattern the site declares, as anonymous, referee and
organiser, with junk query strings and hostile form fields; hostile JSON against the API.

Runs on SQLite and, in make test's second pass, on PostgreSQL (NUL characters and
out-of-range integers are the inputs PostgreSQL refuses where SQLite does not).

The site (one event, its people, one deal, a signed-in session per role) is built once for
the module, inside a transaction rolled back after it; every request runs in a savepoint
rolled back after it, with a fresh cookie jar and an empty cache. So each request meets the
same site as the first: a POST that logs out, locks a login or changes a deal changes nothing
for the next one.

What it asks, and what it need not ask again (docs/performance.md, "The no-server-errors
sweep"): every route as every role; every URL naming something plain, with junk and posted to;
every kind of value under every key or field a view asks for by name, once per view and set of
keys; a URL naming nothing plain (and with junk where its answer read the query), posted to
where the view is not the admin's. A role whose requests to a route are answered before the
view, or take another role's path there, asks only its URLs naming something
(`answered_alike`, its premises checked on each answer or by a test).
"""

import copy
import importlib
import inspect
import itertools
import json
import logging
import re
import sys
from http.cookies import SimpleCookie

import django.http
import django.http.request
import django.test.client
import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.handlers import wsgi
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from scoring.entry.services import deal_save
from scoring.models import Appeal, Deal, Event, RefereeCall, Table, table_token_digest
from tests.archives import EXAMPLES
from tests.conftest import build_event, build_people, scaled_examples, session_key
from tests.games.test_engine_hostile_input import hostile_values as json_values
from tests.referee_setup import example_deal, token_header

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "referee1", "organiser"]
HOSTILE = [
    "",
    "abc",
    "1.5",
    "-5",
    "0",
    "99999999999999999999",
    "-3000000000",
    "²",
    "\x00",
    "a\x00b",
    "<b>x</b><a href=javascript:alert(1)>",
    '=HYPERLINK("http://x","y")',
    "'; DROP TABLE scoring_deal; --",
    "名" * 3000,
    "\ud7ff\ufffe",
]
# One value of each kind a query parser meets: text with markup, a negative number, an
# integer no column holds, NUL, and a digit int() refuses ("²".isdigit() is True).
QUERY_VALUES = ["<b>abc", "-5", "99999999999999999999", "\x00", "²"]
QUERY_KEYS = ["page", "per_page", "sort", "after", "q", "o", "p", "e", "next", "language", "_popup", "all", "id__exact"]
FORM_FIELDS = [
    "version",
    "reason",
    "adjusted_reason",
    "seat",
    "kind",
    "penalty",
    "ruling",
    "first",
    "second",
    "method",
    "username",
    "password",
    "language",
    "next",
    "session",
    "table",
    "action",
    "card-SQ",
    "card-SQ-2",
    "holder-SQ",
    "exposed-SQ",
    *(f"penalty-{seat}" for seat in "NESW"),
    *(f"adjusted-{seat}" for seat in "NESW"),
    "board",
    "seats",
    "facts",
    "outcome",
    "penalty_seat",
    "claimant",
    "claim_trick",
    "claim_status",
    "fall-N",
    "side",
    "call",
    "statement",
    "status",
    "decision",
    "deposit_outcome",
    "appeals_committee",
    "appeal_deposit",
    "minutes",
    "finish_in_play",
    "not_played",
    "round_minutes",
    "board_minutes",
    "late_penalty",
]
# Each URL parameter: the values that name something in the site, then hostile ones.
PARAMETERS = {
    "slug": (["t-pairs"], ["nope", "太原"]),
    "number": (["3", "1"], ["999999999"]),
    "round_number": (["3"], ["999999999"]),
    "table_number": (["1"], ["999999999"]),
    "board": (["1", "2"], ["999999999"]),
    "code": (["A"], ["x" * 100, "A/1"]),
    "object_id": (["1"], ["abc", "99999999999999999999999", "%00"]),
    "content_type_id": (["1"], ["abc"]),
    "id": (["1"], ["abc"]),
    "app_label": (["scoring"], ["nope"]),
    "url": (["x"], []),
    "token": (["sweep-table-link-of-round-3-table-1"], ["x" * 64, "nope"]),
    # A fixed id far above any sequence's: a call the sweep's own POSTs create never clashes with it.
    "call_id": (["999000"], ["999999999"]),
    "appeal_id": (["999000"], ["999999999"]),
}
OTHER_PARAMETER = (["1"], ["999999999"])


def routes():
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    return sorted(set(walk(get_resolver().url_patterns)))


def concrete_urls(route):
    """(url, names_something) for every combination of the parameters' real values, and for each
    hostile value of each parameter with the others real (admin's regex routes included).

    A hostile value fails its own lookup whatever its neighbours hold, so hostile values are
    varied one at a time; the real values are combined in full, since which round and board
    a URL names (a deal entered or not, a round published or not) changes what the view does.
    """
    route = route.lstrip("^").rstrip("$")
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", route)  # admin's regex patterns
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)

    def fill(values):
        url = "/" + route
        for name, value in zip(names, values, strict=True):
            url = re.sub(r"<(?:\w+:)?" + name + ">", value, url, count=1)
        return url

    real = [PARAMETERS.get(name, OTHER_PARAMETER)[0] for name in names]
    urls = [(fill(values), True) for values in itertools.product(*real)]
    for position, name in enumerate(names):
        for value in PARAMETERS.get(name, OTHER_PARAMETER)[1]:
            values = [choices[0] for choices in real]
            values[position] = value
            urls.append((fill(values), False))
    return urls


# Not the view asking: QueryDict filling itself, and the page cache, which reads every query the
# same way whatever the URL (tests/cache test it).
NOT_THE_VIEW = {"django.utils.datastructures", "django.http.request", "scoring.cache.pages"}


class Noted(QueryDict):
    """A QueryDict that notes each key asked for by name (get, [], getlist, in) in `asked`,
    and in `read_whole` whether it was read as a whole (its length, keys, items, a copy, its
    encoding); its copies (a template building a link from the query) are plain and note nothing."""

    asked = set()
    read_whole = False

    def note(self, key):
        if sys._getframe(2).f_globals.get("__name__") not in NOT_THE_VIEW:
            type(self).asked.add(key)

    def note_whole(self):
        if sys._getframe(2).f_globals.get("__name__") not in NOT_THE_VIEW:
            type(self).read_whole = True

    def __iter__(self):
        self.note_whole()
        return super().__iter__()

    def __len__(self):
        self.note_whole()
        return super().__len__()

    def keys(self):
        self.note_whole()
        return super().keys()

    def values(self):
        self.note_whole()
        return super().values()

    def items(self):
        self.note_whole()
        return super().items()

    def lists(self):
        self.note_whole()
        return super().lists()

    def dict(self):
        self.note_whole()
        return super().dict()

    def urlencode(self, safe=None):
        self.note_whole()
        return super().urlencode(safe)

    def __getitem__(self, key):
        self.note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.note(key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        self.note(key)
        return super().getlist(key, default)

    def __contains__(self, key):
        self.note(key)
        return super().__contains__(key)

    def __copy__(self):
        self.note_whole()
        return QueryDict(QueryDict.urlencode(self), mutable=True, encoding=self.encoding)

    def __deepcopy__(self, memo):
        return self.__copy__()


class NotedQuery(Noted):
    """request.GET."""

    asked = set()


class NotedForm(Noted):
    """request.POST, urlencoded or multipart."""

    asked = set()


# The views of the public pages, the files and the table links: they read no role but being an
# official (the files' full scope), which referee1 and the organiser both are
# (test_the_public_views_read_no_role_but_being_an_official).
PUBLIC_VIEWS = ("scoring.web.public.views", "scoring.web.downloads", "scoring.web.table.views")


def answered_alike(role, route):
    """Why `role`'s requests to `route` take no path the sweep does not take anyway, or None.

    Such a role still asks every URL of the route that names something (plain, with junk and
    posted to), so every route meets every role; but not the URLs naming nothing nor the full
    value sets, which reach only code the sweep already reaches with the same values:
    - "admin login": Django's `AdminSite.admin_view` (every admin view but the login) sends a
      visitor who is not staff to the admin's login before any admin view runs;
    - "not an organiser": `organiser_page` refuses referee1 (403) before the view runs; its one
      lookup, of the event's slug, is the one the organiser's requests make with every value;
    - "public": the organiser on the public views, which read no role but being an official:
      referee1, an official too, is asked everything there.
    The first two are checked on each answer (`check_alike`)."""
    url = next(url for url, real in concrete_urls(route) if real)
    view = resolve(url).func
    if role != "organiser" and (hasattr(view, "admin_site") or hasattr(view, "model_admin")):
        return "admin login"
    chain = [view]
    while hasattr(chain[-1], "__wrapped__"):
        chain.append(chain[-1].__wrapped__)
    qualnames = {getattr(getattr(f, "__code__", None), "co_qualname", None) for f in chain}
    if role == "referee1" and "organiser_page.<locals>.wrapper" in qualnames:
        return "not an organiser"
    if role == "organiser" and chain[-1].__module__ in PUBLIC_VIEWS:
        return "public"
    return None


def check_alike(reason, method, url, response, asked):
    """What `answered_alike` relies on, seen in the answer: refused before the view, nothing read."""
    if reason == "admin login":
        refused = response.status_code == 302 and response["Location"].startswith("/admin/")
    elif reason == "not an organiser":
        refused = response.status_code == 403
    else:
        return
    assert refused and not asked, f"{method.upper()} {url}: {reason} no longer answers before the view"


def in_turn(keys, values):
    """Every key, the values given in turn: each value stands under one key or more."""
    return {key: values[index % len(values)] for index, key in enumerate(keys)}


class Visitor:
    """One role's requests, each against the module's site as it was built (see the docstring)."""

    def __init__(self, session_key=None, **headers):
        self.client = Client(**headers)
        self.session_key = session_key

    def send(self, method, url, data=None, rollback=True, **extra):
        self.client.cookies = SimpleCookie()
        if self.session_key:
            self.client.cookies[settings.SESSION_COOKIE_NAME] = self.session_key
        cache.clear()
        with transaction.atomic():
            response = getattr(self.client, method)(url, data, **extra)
            transaction.set_rollback(rollback)
        assert response.status_code < 500, f"{method.upper()} {url} {data!r:.200} -> {response.status_code}"
        return response

    def keys_asked(self, method, url, data=None):
        """Send, and return the keys of the query (GET) or the form (POST) asked for by name."""
        return self.answer(method, url, data)[1]

    def answer(self, method, url, data=None):
        """Send, and return the response and the keys asked for by name (and note `read_whole`)."""
        noted = NotedQuery if method == "get" else NotedForm
        noted.asked, noted.read_whole = set(), False
        response = self.send(method, url, data)
        return response, noted.asked


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The four-pair event with round 3 paired, one deal entered, its people, a visitor per role
    (referee1 and organiser signed in) and API tokens; rolled back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        event = build_event()
        people = build_people(event)
        table = Table.objects.get(round__event=event, round__number=3, number=1)
        deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
        # Players enter in this event, through a link the sweep knows (table-api.md); its rounds
        # run to a clock, boards not played score the average, late play is penalised.
        extra = {"round_minutes": 90, "board_minutes": 6, "late_penalty": -50, "not_played": "average"}
        Event.objects.filter(pk=event.pk).update(entry=Event.Entry.PLAYERS, extra=extra)
        Table.objects.filter(pk=table.pk).update(
            token=PARAMETERS["token"][0][0], token_digest=table_token_digest(PARAMETERS["token"][0][0])
        )
        RefereeCall.objects.create(id=int(PARAMETERS["call_id"][0][0]), table=table, board=2, kind="claim")
        Appeal.objects.create(
            id=int(PARAMETERS["appeal_id"][0][0]), event=event, round=table.round, table=table, board=1,
            entrant=table.ns_entrant, filed_by="A", statement="sweep",
        )  # fmt: skip
        add_doudizhu_event(people)
        add_shengji_event(people)
        add_paohuzi_event(people)
        visitors = {"anonymous": Visitor()}
        for role in ("referee1", "organiser"):
            visitors[role] = Visitor(session_key(people[role]))
        tokens = {role: token_header(people[role]) for role in ("referee1", "organiser")}
        api = {role: Visitor(**headers) for role, headers in tokens.items()}
        yield {"people": people, "visitors": visitors, "tokens": tokens, "api": api}
        transaction.set_rollback(True)


# A 蚌埠斗地主 event beside it (issue 24): its own entry page, standings and papers. Its values
# for the URL parameters; the fields of its entry page.
DOUDIZHU_PARAMETERS = {"slug": ["t-ddz"], "number": ["1", "2"], "round_number": ["1"], "code": ["p01"]}
DOUDIZHU_FIELDS = ["landlord", "bid", "open", "first_out", "tianzha", "tianzun", *(f"feidan-{s}" for s in "NESW")]


def add_doudizhu_event(people):
    """t-ddz: round 1 played (a worked example a table, official), round 2 paired, in play with
    one deal; the sweep's referee and organiser hold the same roles in it."""
    from scoring.archive.database import import_archive
    from scoring.events.accounts import role_grant
    from tests.archives import doudizhu_archive

    archive = doudizhu_archive(tables={1: ("DDZ14",), 2: ("DDZ26",)}, status="official")
    second = copy.deepcopy(archive["rounds"][0])
    second.update(number=2, status="in_play")
    second["matches"][1]["deals"] = []
    archive["rounds"].append(second)
    event = import_archive(archive)
    for role in ("referee1", "organiser"):
        role_grant(username=people[role].username, role=role if role == "organiser" else "referee", event=event)


# A 升级 pairs event too (issue 24): its matches carried by their level state.
SHENGJI_PARAMETERS = {"slug": ["t-sj"], "number": ["1", "2"], "round_number": ["1"], "code": ["A"]}
SHENGJI_FIELDS = ["declarer", "points"]


def add_shengji_event(people):
    """t-sj: round 1 played (two worked matches, official), round 2 paired, in play with one
    deal at table 1; the sweep's referee and organiser hold the same roles in it."""
    from scoring.archive.database import import_archive
    from scoring.events.accounts import role_grant
    from tests.archives import shengji_archive

    archive = shengji_archive(status="official")
    second = copy.deepcopy(archive["rounds"][0])
    second.update(number=2, status="in_play")
    second["matches"][0]["deals"] = second["matches"][0]["deals"][:1]
    second["matches"][1]["deals"] = []
    archive["rounds"].append(second)
    event = import_archive(archive)
    for role in ("referee1", "organiser"):
        role_grant(username=people[role].username, role=role if role == "organiser" else "referee", event=event)


def doudizhu_urls(route, parameters=DOUDIZHU_PARAMETERS):
    """The real URLs of a route under the 斗地主 event, or another game's (`parameters`; none for
    a route without an event)."""
    if "<name:slug>" not in route or route.startswith("admin/") or route.startswith("t/"):
        return []
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    real = [parameters.get(name, PARAMETERS.get(name, OTHER_PARAMETER)[0]) for name in names]
    urls = []
    for values in itertools.product(*real):
        url = "/" + route
        for name, value in zip(names, values, strict=True):
            url = re.sub(r"<(?:\w+:)?" + name + ">", value, url, count=1)
        urls.append(url)
    return urls


@pytest.fixture(scope="module", autouse=True)
def contexts_not_kept():
    """The sweep reads status codes and headers, never `response.context`: the test client's copy
    of every template context it renders (a few percent of each request here) is not made."""
    saved = django.test.client.store_rendered_templates
    django.test.client.store_rendered_templates = lambda *args, **kwargs: None
    yield
    django.test.client.store_rendered_templates = saved


@pytest.fixture(scope="module", autouse=True)
def client_errors_not_logged():
    """Thousands of 4xx answers are the sweep's expected outcome: Django's warning for each
    ("Not Found: …") is not formatted and captured. A 5xx is still logged, as an error."""
    logger = logging.getLogger("django.request")
    saved = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(saved)


# A 跑胡子 event beside them (issue 24): tables of three, a player sitting out, its entry fields.
PAOHUZI_PARAMETERS = {"slug": ["t-phz"], "number": ["1", "2"], "round_number": ["1"], "code": ["p01", "p07"]}
PAOHUZI_FIELDS = ["winner", "huxi", "red", "source", "from", "wang", "xing", "dealer", *(f"wangba-{s}" for s in "ESW")]


def add_paohuzi_event(people):
    """t-phz: 7 players; round 1 played (worked examples, p07 sitting out, official), round 2
    paired, in play with one deal; the sweep's referee and organiser hold the same roles in it."""
    from scoring.archive.database import import_archive
    from scoring.events.accounts import role_grant
    from tests.archives import paohuzi_archive

    archive = paohuzi_archive(tables={1: ("PHZ01", "PHZ13"), 2: ("PHZ07",)}, status="official")
    second = copy.deepcopy(archive["rounds"][0])
    second.update(number=2, status="in_play")
    second["matches"][1]["deals"] = []
    archive["rounds"].append(second)
    event = import_archive(archive)
    for role in ("referee1", "organiser"):
        role_grant(username=people[role].username, role=role if role == "organiser" else "referee", event=event)


def paohuzi_urls(route):
    """The real URLs of a route under the 跑胡子 event (none for a route without an event)."""
    if "<name:slug>" not in route or route.startswith("admin/") or route.startswith("t/"):
        return []
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    real = [PAOHUZI_PARAMETERS.get(name, PARAMETERS.get(name, OTHER_PARAMETER)[0]) for name in names]
    urls = []
    for values in itertools.product(*real):
        url = "/" + route
        for name, value in zip(names, values, strict=True):
            url = re.sub(r"<(?:\w+:)?" + name + ">", value, url, count=1)
        urls.append(url)
    return urls


@pytest.fixture
def noting_keys(monkeypatch):
    """request.GET and request.POST built as Noted (query strings, urlencoded and multipart bodies)."""
    monkeypatch.setattr(wsgi, "QueryDict", NotedQuery)
    monkeypatch.setattr(django.http.request, "QueryDict", NotedForm)
    monkeypatch.setattr(django.http, "QueryDict", NotedForm)


def test_the_sweep_covers_every_declared_pattern():
    all_routes = routes()
    assert len(all_routes) > 40
    assert all(any(real for _url, real in concrete_urls(route)) for route in all_routes)
    urls = [url for route in all_routes for url, _real in concrete_urls(route)]
    assert len(urls) == len(set(urls)) > len(all_routes)


def test_each_hostile_value_stands_among_real_neighbours():
    route = "api/events/<name:slug>/rounds/<num:round_number>/tables/<num:table_number>/boards/<num:board>"
    urls = dict(concrete_urls(route))
    assert urls["/api/events/t-pairs/rounds/3/tables/1/boards/2"] is True
    assert urls["/api/events/nope/rounds/3/tables/1/boards/1"] is False
    assert urls["/api/events/t-pairs/rounds/3/tables/999999999/boards/1"] is False
    assert len(urls) == 2 + 2 + 1 + 1 + 1  # the two real boards; slug twice, round, table, board once


def test_each_request_meets_the_site_as_built(site):
    """The isolation the sweep relies on: a POST to the logout page logs no one out for later."""
    organiser = site["visitors"]["organiser"]
    assert organiser.send("get", "/organiser/t-pairs/").status_code == 200
    organiser.send("post", "/accounts/logout/")
    assert organiser.send("get", "/organiser/t-pairs/").status_code == 200
    assert site["visitors"]["anonymous"].send("get", "/organiser/t-pairs/").status_code == 302


def test_the_views_asked_for_keys_are_noted(site, noting_keys):
    visitor = site["visitors"]["anonymous"]
    assert {"q", "sort", "page"} <= visitor.keys_asked("get", "/events/t-pairs/standings/")
    assert NotedQuery.read_whole  # the table's links, built from a copy of the query
    assert visitor.keys_asked("get", "/events/nope/standings/", {"o": "1", "q": "x"}) == set()
    assert not NotedQuery.read_whole
    assert visitor.keys_asked("get", "/events/t-pairs/rounds/1/boards/1/") == set()
    assert not NotedQuery.read_whole
    assert {"username", "password"} <= visitor.keys_asked("post", "/accounts/login/", {"username": "x"})


def test_the_public_views_read_no_role_but_being_an_official():
    """What lets the sweep ask the organiser less on the public views (`answered_alike`): the
    user reaches them only to ask whether it is an official, or signed in at all."""
    for name in PUBLIC_VIEWS:
        source = inspect.getsource(importlib.import_module(name))
        for call, attribute in re.findall(r"(is_official\()?request\.user(\.is_authenticated)?", source):
            assert call or attribute, f"{name} reads request.user otherwise: revisit answered_alike"
    assert answered_alike("organiser", "events/<name:slug>/standings/") == "public"
    assert answered_alike("referee1", "events/<name:slug>/standings/") is None
    assert answered_alike("referee1", "organiser/<name:slug>/edit/") == "not an organiser"
    assert answered_alike("referee1", "admin/scoring/event/") == "admin login"
    assert answered_alike("referee1", "admin/login/") is None
    assert answered_alike("organiser", "admin/scoring/event/") is None


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_junk_query_strings_without_a_server_error(site, role, noting_keys):
    """Every URL plain, then with every key at once holding the five kinds of value in turn.
    Where the view asks for a key by name, or is an admin list (which reads its query whole),
    every key at once for each kind; and where it asks for two keys or more, each alone for
    each kind, since one bad key can hide another (admin's own query handling is Django's).
    These full sets once per view and set of keys asked: another URL of the route where the
    view asks for the same keys has had every kind under each of them already, and still gets
    the five kinds in turn. A URL naming nothing whose answer read no query, plain only. A
    route `answered_alike` for this role: its URLs naming something, plain and with junk."""
    visitor = site["visitors"][role]
    reading = 0
    for route in routes():
        changelist = re.fullmatch(r"admin/\w+/\w+/", route)
        alike = answered_alike(role, route)
        expanded = set()  # the sets of keys this route's view had every kind under already
        for url, real in concrete_urls(route):
            if alike and not real:
                continue
            response, asked = visitor.answer("get", url)
            if alike:
                check_alike(alike, "get", url, response, asked)
                visitor.send("get", url, in_turn([*QUERY_KEYS, *sorted(asked)], QUERY_VALUES))
                continue
            if not real and route.startswith("admin/"):
                # An admin object that cannot exist is Django's `get_object` answering before
                # any query is read: once, plain, is the whole of it for every model.
                continue
            if not real and not asked and not NotedQuery.read_whole:
                # A URL naming nothing, answered without reading the query (by name or whole):
                # junk in it meets only what meets it on every page (the link that switches the
                # language, a login's `next`), which the URLs naming something take with junk.
                continue
            asked |= visitor.keys_asked("get", url, in_turn([*QUERY_KEYS, *sorted(asked)], QUERY_VALUES))
            if not (asked or changelist) or (route.startswith("admin/") and not changelist):
                # An admin form page reads `_popup`, `_to_field` and `_changelist_filters`
                # with Django's own code: every key at once, above, reaches them.
                continue
            if frozenset(asked) in expanded:
                continue
            expanded.add(frozenset(asked))
            reading += 1
            for value in QUERY_VALUES:
                asked |= visitor.keys_asked("get", url, dict.fromkeys([*QUERY_KEYS, *sorted(asked)], value))
            if real and not route.startswith("admin/") and len(asked) >= 2:
                for key, value in itertools.product(sorted(asked), QUERY_VALUES):
                    visitor.send("get", url, {key: value})
    assert reading >= 5


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_hostile_posts_without_a_server_error(site, role, noting_keys):
    """Every URL with every field at once holding the fifteen hostile values in turn; where the
    view asks for one of these fields by name, every field at once for each value (a view that
    asks for none of them cannot tell one value from another), once per view and set of fields
    asked: another URL of the route where the view asks for the same fields has had every value
    under each of them already, and still gets the fifteen in turn. A route `answered_alike`
    for this role: its URLs naming something, the fifteen values in turn."""
    visitor = site["visitors"][role]
    reading = 0
    for route in routes():
        if route.startswith("admin/") and ("delete" in route or "password" in route):
            continue  # deleting and password changes are covered by Django's own tests
        alike = answered_alike(role, route)
        expanded = set()  # the sets of fields this route's view had every value under already
        for url, real in concrete_urls(route):
            if not real and (alike or route.startswith("admin/")):
                # An admin object that cannot exist is Django's `get_object` answering before
                # any form is read, as on a GET (`_to_field` and `_saveasnew` are Django's).
                continue
            response, asked = visitor.answer("post", url, in_turn(FORM_FIELDS, HOSTILE))
            if alike:
                check_alike(alike, "post", url, response, asked & set(FORM_FIELDS))
                continue
            if not asked & set(FORM_FIELDS) or frozenset(asked) in expanded:
                continue
            expanded.add(frozenset(asked))
            reading += 1
            for value in HOSTILE:
                visitor.send("post", url, dict.fromkeys(FORM_FIELDS, value))
    assert reading >= 3


BOARD_PAGES = [
    "/referee/t-pairs/rounds/3/tables/1/boards/1/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/preview/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/confirm/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/irregularity/",
    "/organiser/t-pairs/rounds/3/swap/",
    "/organiser/t-pairs/rounds/3/clock/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/not-played/",
    "/referee/t-pairs/rounds/3/tables/1/boards/2/not-played/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/late/",
    "/organiser/t-pairs/pair/",
    "/organiser/t-pairs/rounds/3/repair/",
    "/organiser/t-pairs/entrants/",
    "/organiser/t-pairs/edit/",
    "/organiser/t-pairs/staff/",
    "/organiser/new/",
    "/accounts/login/",
    "/events/t-pairs/standings/",
]
GENERATED_VALUES = st.text(max_size=30) | st.integers(-(2**70), 2**70).map(str) | st.sampled_from(HOSTILE)


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    url=st.sampled_from(BOARD_PAGES),
    role=st.sampled_from(ROLES),
    data=st.dictionaries(st.sampled_from(FORM_FIELDS), GENERATED_VALUES, max_size=8),
)
def test_generated_form_fields_never_cause_a_server_error(site, url, role, data):
    site["visitors"][role].send("post", url, data)
    site["visitors"][role].send("get", url, data)


@hypothesis_settings(max_examples=scaled_examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(routes()),
    role=st.sampled_from(ROLES),
    method=st.sampled_from(["get", "post"]),
    pick=st.integers(0, 100),
    data=st.dictionaries(st.sampled_from(QUERY_KEYS + FORM_FIELDS), GENERATED_VALUES, max_size=6),
)
def test_generated_requests_to_any_route_never_cause_a_server_error(site, route, role, method, pick, data):
    urls = concrete_urls(route)
    url, _real = urls[pick % len(urls)]
    if method == "post" and route.startswith("admin/") and ("delete" in route or "password" in route):
        method = "get"
    site["visitors"][role].send(method, url, data)


def test_a_signed_in_page_refuses_a_penalty_beyond_its_bounds_by_name(site):
    response = site["visitors"]["referee1"].send("post", BOARD_PAGES[0], {"penalty-N": "99999999999999999999"})
    assert response.status_code == 400
    assert "N 罚分" in response.content.decode()
    assert Deal.objects.get(table__round__number=3, table__number=1, board=1).version == 1


API = "/api/events/t-pairs/rounds/3/tables/1/boards/{board}"


@hypothesis_settings(max_examples=scaled_examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=st.sampled_from([1, 2]), body=json_values, if_match=st.none() | st.text(max_size=12))
def test_hostile_json_against_the_api_never_causes_a_server_error(site, board, body, if_match):
    headers = {} if if_match is None else {"HTTP_IF_MATCH": if_match.replace("\n", " ")}
    response = site["api"]["referee1"].send(
        "put", API.format(board=board), json.dumps(body), content_type="application/json", **headers
    )
    assert response["Content-Type"].startswith("application/json")


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    field=st.sampled_from(["captured", "holders", "exposed", "penalties", "adjusted", "reason", "adjusted_reason"]),
    value=json_values,
)
def test_a_hostile_field_in_a_real_deal_never_causes_a_server_error(site, field, value):
    body = dict(example_deal("T2"), **{field: value})
    site["api"]["organiser"].send("put", API.format(board=2), json.dumps(body), content_type="application/json")


def test_deeply_nested_json_and_odd_if_match_are_client_errors(site):
    api = site["api"]["referee1"]
    deep = "[" * 100_000 + "]" * 100_000
    response = api.send("put", API.format(board=2), deep[:60_000], content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_json"
    for value in ("²", "1.5", "99999999999", 'W/"abc"'):
        response = api.send("put", API.format(board=1), {}, content_type="application/json", HTTP_IF_MATCH=value)
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_version"


@pytest.mark.parametrize("penalty", [-3_000_000_000, -100_001, 2**63, -(2**63) - 1, 1.5, "-5"])
def test_a_penalty_out_of_bounds_is_refused_and_nothing_is_stored(site, penalty):
    """The forgery of issue 10: on PostgreSQL −3,000,000,000 once came back as a positive score."""
    body = dict(example_deal("T2"), penalties={"N": penalty})
    response = site["api"]["referee1"].send(
        "put", API.format(board=2), json.dumps(body), rollback=False, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_penalty"
    assert not Deal.objects.filter(table__round__number=3, table__number=1, board=2).exists()


def test_the_largest_penalty_and_adjusted_score_are_stored_exactly(site):
    api = site["api"]["organiser"]
    body = dict(example_deal("T2"), penalties={"N": -100_000})
    response = api.send("put", API.format(board=2), json.dumps(body), rollback=False, content_type="application/json")
    assert response.status_code == 201
    expected_n = EXAMPLES["T2"]["expected"]["scores"]["N"] - 100_000
    stored = Deal.objects.get(table__round__number=3, table__number=1, board=2)
    assert stored.score_n == expected_n and response.json()["scores"]["N"] == expected_n
    body = dict(example_deal("T2"), adjusted={"N": 1_000_000, "E": -1_000_000, "S": 0, "W": 0}, reason="裁定")
    response = api.send(
        "put",
        API.format(board=2),
        json.dumps(body),
        rollback=False,
        content_type="application/json",
        HTTP_IF_MATCH=str(stored.version),
    )
    assert response.status_code == 200, response.content
    stored.refresh_from_db()
    assert stored.score_e == -1_000_000 and stored.raw_n == 1_000_000
    assert Event.objects.get(slug="t-pairs")


TABLE_LINK = "/t/sweep-table-link-of-round-3-table-1/"
TABLE_CALLS = [("put", "boards/{board}"), ("post", "boards/{board}/verify"), ("post", "boards/{board}/dispute"),
               ("post", "boards/{board}/preview"), ("post", "signoff"), ("post", "call"),
               ("post", "appeal")]  # fmt: skip


@hypothesis_settings(max_examples=scaled_examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    call=st.sampled_from(TABLE_CALLS),
    board=st.sampled_from([1, 2, 999_999_999]),
    body=json_values,
    code=st.sampled_from([None, "right", "other", "wrong"]),
    key=st.none() | st.text(max_size=70),
    if_match=st.none() | st.text(max_size=12),
)
def test_hostile_json_through_a_table_link_never_causes_a_server_error(site, call, board, body, code, key, if_match):
    """A phone's calls with any JSON, with a right, another or a wrong entrant code, any key and version."""
    method, path = call
    if isinstance(body, dict) and code is not None:
        table = Table.objects.select_related("ns_entrant", "ew_entrant").get(token=PARAMETERS["token"][0][0])
        codes = {"right": table.ns_entrant.access_code, "other": table.ew_entrant.access_code, "wrong": "WRONG234"}
        body = {**body, "code": codes[code]}
    headers = {}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key.replace("\n", " ").replace("\r", " ")
    if if_match is not None:
        headers["HTTP_IF_MATCH"] = if_match.replace("\n", " ").replace("\r", " ")
    response = site["visitors"]["anonymous"].send(
        method, TABLE_LINK + path.format(board=board), json.dumps(body), content_type="application/json", **headers
    )
    assert response["Content-Type"].startswith("application/json")


@hypothesis_settings(max_examples=scaled_examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["captured", "holders", "exposed", "penalties", "adjusted", "code"]), value=json_values)
def test_a_hostile_field_in_a_real_deal_through_a_table_link_never_causes_a_server_error(site, field, value):
    table = Table.objects.select_related("ns_entrant").get(token=PARAMETERS["token"][0][0])
    body = {**example_deal("T2"), "code": table.ns_entrant.access_code, field: value}
    site["visitors"]["anonymous"].send(
        "put", TABLE_LINK + "boards/2", json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY="k"
    )


@pytest.mark.parametrize("role", ROLES)
def test_every_route_of_a_doudizhu_event_answers_without_a_server_error(site, role):
    """Every route under the 斗地主 event, plain, then with junk in every query key and every form
    field (its entry page's fields among them)."""
    visitor = site["visitors"][role]
    urls = [url for route in routes() for url in doudizhu_urls(route)]
    assert len(urls) > 40 and "/referee/t-ddz/rounds/1/tables/1/boards/2/preview/" in urls
    if role != "anonymous":  # the sweep meets the event as built: its entry page and its standings
        assert 'data-key="landlord"' in visitor.send("get", DOUDIZHU_BOARD.format(board=1)).content.decode()
    assert visitor.send("get", "/events/t-ddz/standings/").status_code == 200
    for url in urls:
        visitor.send("get", url)
        visitor.send("get", url, in_turn(QUERY_KEYS, QUERY_VALUES))
        visitor.send("post", url, in_turn([*FORM_FIELDS, *DOUDIZHU_FIELDS], HOSTILE))


DOUDIZHU_BOARD = "/referee/t-ddz/rounds/2/tables/1/boards/{board}/"


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    suffix=st.sampled_from(["", "preview/", "confirm/", "irregularity/"]),
    board=st.sampled_from([1, 2, 9]),
    role=st.sampled_from(ROLES),
    data=st.dictionaries(st.sampled_from(DOUDIZHU_FIELDS + FORM_FIELDS), GENERATED_VALUES, max_size=8),
)
def test_generated_doudizhu_entry_fields_never_cause_a_server_error(site, suffix, board, role, data):
    site["visitors"][role].send("post", DOUDIZHU_BOARD.format(board=board) + suffix, data)


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=st.sampled_from([1, 2]), body=json_values)
def test_hostile_json_against_a_doudizhu_board_never_causes_a_server_error(site, board, body):
    response = site["api"]["referee1"].send(
        "put", f"/api/events/t-ddz/rounds/2/tables/1/boards/{board}", json.dumps(body), content_type="application/json"
    )
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("role", ROLES)
def test_every_route_of_a_shengji_event_answers_without_a_server_error(site, role):
    """Every route under the 升级 event, plain, then with junk in every query key and every form
    field (its entry page's fields among them)."""
    visitor = site["visitors"][role]
    urls = [url for route in routes() for url in doudizhu_urls(route, SHENGJI_PARAMETERS)]
    assert len(urls) > 40 and "/referee/t-sj/rounds/1/tables/1/boards/2/preview/" in urls
    if role != "anonymous":  # the sweep meets the event as built: its entry page and its standings
        page = visitor.send("get", SHENGJI_BOARD.format(board=2)).content.decode()
        assert 'data-key="points"' in page and 'id="match-lines"' in page
    assert visitor.send("get", "/events/t-sj/standings/").status_code == 200
    for url in urls:
        visitor.send("get", url)
        visitor.send("get", url, in_turn(QUERY_KEYS, QUERY_VALUES))
        visitor.send("post", url, in_turn([*FORM_FIELDS, *SHENGJI_FIELDS], HOSTILE))


SHENGJI_BOARD = "/referee/t-sj/rounds/2/tables/1/boards/{board}/"


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    suffix=st.sampled_from(["", "preview/", "confirm/"]),
    board=st.sampled_from([1, 2, 3, 9]),
    role=st.sampled_from(ROLES),
    data=st.dictionaries(st.sampled_from(SHENGJI_FIELDS + FORM_FIELDS), GENERATED_VALUES, max_size=6),
)
def test_generated_shengji_entry_fields_never_cause_a_server_error(site, suffix, board, role, data):
    site["visitors"][role].send("post", SHENGJI_BOARD.format(board=board) + suffix, data)


@hypothesis_settings(max_examples=scaled_examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=st.sampled_from([1, 2, 3]), body=json_values)
def test_hostile_json_against_a_shengji_board_never_causes_a_server_error(site, board, body):
    response = site["api"]["referee1"].send(
        "put", f"/api/events/t-sj/rounds/2/tables/1/boards/{board}", json.dumps(body), content_type="application/json"
    )
    assert response["Content-Type"].startswith("application/json")


PAOHUZI_BOARD = "/referee/t-phz/rounds/2/tables/1/boards/{board}/"


@pytest.mark.parametrize("role", ROLES)
def test_every_route_of_a_paohuzi_event_answers_without_a_server_error(site, role):
    """Every route under the 跑胡子 event (tables of three, a bye), plain, then with junk in every
    query key and every form field (its entry page's fields among them)."""
    visitor = site["visitors"][role]
    urls = [url for route in routes() for url in paohuzi_urls(route)]
    assert len(urls) > 40 and "/referee/t-phz/rounds/1/tables/1/boards/2/preview/" in urls
    if role != "anonymous":  # the sweep meets the event as built: its entry page and its standings
        assert 'data-key="winner"' in visitor.send("get", PAOHUZI_BOARD.format(board=1)).content.decode()
    assert visitor.send("get", "/events/t-phz/standings/").status_code == 200
    for url in urls:
        visitor.send("get", url)
        visitor.send("get", url, in_turn(QUERY_KEYS, QUERY_VALUES))
        visitor.send("post", url, in_turn([*FORM_FIELDS, *PAOHUZI_FIELDS], HOSTILE))


@hypothesis_settings(max_examples=scaled_examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    suffix=st.sampled_from(["", "preview/"]),
    board=st.sampled_from([1, 2, 9]),
    role=st.sampled_from(ROLES),
    data=st.dictionaries(st.sampled_from(PAOHUZI_FIELDS + FORM_FIELDS), GENERATED_VALUES, max_size=8),
)
def test_generated_paohuzi_entry_fields_never_cause_a_server_error(site, suffix, board, role, data):
    site["visitors"][role].send("post", PAOHUZI_BOARD.format(board=board) + suffix, data)
