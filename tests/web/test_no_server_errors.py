"""No input produces a 5xx: every URL pattern the site declares, as anonymous, referee and
organiser, with junk query strings and hostile form fields; hostile JSON against the API.

Runs on SQLite and, in make test's second pass, on PostgreSQL (NUL characters and
out-of-range integers are the inputs PostgreSQL refuses where SQLite does not).
"""

import re

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.entry.services import deal_save
from scoring.models import Deal, Event, Table
from tests.archives import EXAMPLES
from tests.games.test_engine_hostile_input import json_values
from tests.referee_setup import example_deal, token_header

pytestmark = pytest.mark.django_db

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
    "card-SQ",
    "card-SQ-2",
    "holder-SQ",
    "exposed-SQ",
    *(f"penalty-{seat}" for seat in "NESW"),
    *(f"adjusted-{seat}" for seat in "NESW"),
]
PARAMETERS = {
    "slug": ["t-pairs", "nope", "太原"],
    "number": ["3", "1", "999999999"],
    "round_number": ["3", "999999999"],
    "table_number": ["1", "999999999"],
    "board": ["1", "2", "999999999"],
    "code": ["A", "x" * 100, "A/1"],
    "object_id": ["1", "abc", "99999999999999999999999", "%00"],
    "content_type_id": ["1", "abc"],
    "id": ["1", "abc"],
    "app_label": ["scoring", "nope"],
    "url": ["x"],
}


def routes():
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    return sorted(set(walk(get_resolver().url_patterns)))


def concrete_urls(route):
    """Every combination of the parameter values above (regex routes of the admin included)."""
    route = route.lstrip("^").rstrip("$")
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", route)  # admin's regex patterns
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    urls = ["/" + route]
    for name in names:
        values = PARAMETERS.get(name, ["1"])
        urls = [re.sub(r"<(?:\w+:)?" + name + ">", value, url, count=1) for url in urls for value in values]
    return urls


@pytest.fixture
def site(people):
    """The four-pair event with round 3 paired, one deal entered, and three clients."""
    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    clients = {"anonymous": Client()}
    for role in ("referee1", "organiser"):
        clients[role] = Client()
        clients[role].force_login(people[role])
    return clients


def assert_no_server_error(response, method, url, data):
    assert response.status_code < 500, f"{method} {url} {data!r:.200} -> {response.status_code}"


def test_the_sweep_covers_every_declared_pattern():
    all_routes = routes()
    assert len(all_routes) > 40
    assert all(concrete_urls(route) for route in all_routes)


@pytest.mark.parametrize("role", ["anonymous", "referee1", "organiser"])
def test_every_url_answers_junk_query_strings_without_a_server_error(site, role):
    client = site[role]
    for route in routes():
        for position, url in enumerate(concrete_urls(route)):
            for value in ("abc", "-5", "99999999999999999999", "\x00", "<b>"):
                # All keys at once, and (pages that read a query, at valid addresses) each key
                # alone: one bad key can hide another.
                queries = [dict.fromkeys(QUERY_KEYS, value)]
                if position == 0 and not route.startswith("admin/") and not re.search(r"\.(pdf|xlsx)$", route):
                    queries += [{key: value} for key in QUERY_KEYS]
                for query in queries:
                    response = client.get(url, query)
                    assert_no_server_error(response, "GET", url, query)


@pytest.mark.parametrize("role", ["anonymous", "referee1", "organiser"])
def test_every_url_answers_hostile_posts_without_a_server_error(site, role):
    client = site[role]
    for route in routes():
        if route.startswith("admin/") and ("delete" in route or "password" in route):
            continue  # deleting and password changes are covered by Django's own tests
        for url in concrete_urls(route)[:4]:
            for value in HOSTILE:
                data = dict.fromkeys(FORM_FIELDS, value)
                response = client.post(url, data)
                assert_no_server_error(response, "POST", url, data)


BOARD_PAGES = [
    "/referee/t-pairs/rounds/3/tables/1/boards/1/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/preview/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/confirm/",
    "/referee/t-pairs/rounds/3/tables/1/boards/1/irregularity/",
    "/organiser/t-pairs/rounds/3/swap/",
    "/organiser/t-pairs/pair/",
    "/organiser/t-pairs/rounds/3/repair/",
    "/organiser/t-pairs/entrants/",
    "/organiser/t-pairs/edit/",
    "/organiser/t-pairs/staff/",
    "/organiser/new/",
    "/accounts/login/",
    "/events/t-pairs/standings/",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    url=st.sampled_from(BOARD_PAGES),
    role=st.sampled_from(["anonymous", "referee1", "organiser"]),
    data=st.dictionaries(
        st.sampled_from(FORM_FIELDS),
        st.text(max_size=30) | st.integers(-(2**70), 2**70).map(str) | st.sampled_from(HOSTILE),
        max_size=8,
    ),
)
def test_generated_form_fields_never_cause_a_server_error(site, url, role, data):
    response = site[role].post(url, data)
    assert_no_server_error(response, "POST", url, data)
    response = site[role].get(url, data)
    assert_no_server_error(response, "GET", url, data)


def test_a_signed_in_page_refuses_a_penalty_beyond_its_bounds_by_name(site):
    response = site["referee1"].post(BOARD_PAGES[0], {"penalty-N": "99999999999999999999"})
    assert response.status_code == 400
    assert "N 罚分" in response.content.decode()
    assert Deal.objects.get(table__round__number=3, table__number=1, board=1).version == 1


API = "/api/events/t-pairs/rounds/3/tables/1/boards/{board}"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=st.sampled_from([1, 2]), body=json_values, if_match=st.none() | st.text(max_size=12))
def test_hostile_json_against_the_api_never_causes_a_server_error(site, people, board, body, if_match):
    import json

    headers = token_header(people["referee1"])
    if if_match is not None:
        headers["HTTP_IF_MATCH"] = if_match.replace("\n", " ")
    response = Client().put(API.format(board=board), json.dumps(body), content_type="application/json", **headers)
    assert_no_server_error(response, "PUT", API, body)
    assert response["Content-Type"].startswith("application/json")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    field=st.sampled_from(["captured", "holders", "exposed", "penalties", "adjusted", "reason", "adjusted_reason"]),
    value=json_values,
)
def test_a_hostile_field_in_a_real_deal_never_causes_a_server_error(site, people, field, value):
    import json

    body = dict(example_deal("T2"), **{field: value})
    response = Client().put(
        API.format(board=2), json.dumps(body), content_type="application/json", **token_header(people["organiser"])
    )
    assert_no_server_error(response, "PUT", API, body)


def test_deeply_nested_json_and_odd_if_match_are_client_errors(site, people):
    headers = token_header(people["referee1"])
    deep = "[" * 100_000 + "]" * 100_000
    response = Client().put(API.format(board=2), deep[:60_000], content_type="application/json", **headers)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_json"
    for value in ("²", "1.5", "99999999999", 'W/"abc"'):
        response = Client().put(
            API.format(board=1), {}, content_type="application/json", HTTP_IF_MATCH=value, **headers
        )
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_version"


@pytest.mark.parametrize("penalty", [-3_000_000_000, -100_001, 2**63, -(2**63) - 1, 1.5, "-5"])
def test_a_penalty_out_of_bounds_is_refused_and_nothing_is_stored(site, people, penalty):
    """The forgery of issue 10: on PostgreSQL −3,000,000,000 once came back as a positive score."""
    import json

    body = dict(example_deal("T2"), penalties={"N": penalty})
    response = Client().put(
        API.format(board=2), json.dumps(body), content_type="application/json", **token_header(people["referee1"])
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_penalty"
    assert not Deal.objects.filter(table__round__number=3, table__number=1, board=2).exists()


def test_the_largest_penalty_and_adjusted_score_are_stored_exactly(site, people):
    import json

    body = dict(example_deal("T2"), penalties={"N": -100_000})
    response = Client().put(
        API.format(board=2), json.dumps(body), content_type="application/json", **token_header(people["organiser"])
    )
    assert response.status_code == 201
    expected_n = EXAMPLES["T2"]["expected"]["scores"]["N"] - 100_000
    stored = Deal.objects.get(table__round__number=3, table__number=1, board=2)
    assert stored.score_n == expected_n and response.json()["scores"]["N"] == expected_n
    body = dict(example_deal("T2"), adjusted={"N": 1_000_000, "E": -1_000_000, "S": 0, "W": 0}, reason="裁定")
    response = Client().put(
        API.format(board=2),
        json.dumps(body),
        content_type="application/json",
        HTTP_IF_MATCH=str(stored.version),
        **token_header(people["organiser"]),
    )
    assert response.status_code == 200, response.content
    stored.refresh_from_db()
    assert stored.score_e == -1_000_000 and stored.raw_n == 1_000_000
    assert Event.objects.get(slug="t-pairs")
