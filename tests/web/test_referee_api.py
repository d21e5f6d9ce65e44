"""The referee API contract (shared/formats/referee-api.md)."""

import json

import pytest

from scoring.models import Deal, DealHistory
from tests.archives import sides
from tests.referee_setup import board_url, example_deal, token_header

pytestmark = pytest.mark.django_db


def round_three():
    """Deals of the scheduled round 3 (rounds 1–2 were imported with results)."""
    return Deal.objects.filter(table__round__event__slug="t-pairs", table__round__number=3)


def put(client, user, body, version=None, url=None, **headers):
    if version is not None:
        headers["HTTP_IF_MATCH"] = str(version)
    return client.put(
        url or board_url(),
        data=json.dumps(body, ensure_ascii=False),
        content_type="application/json",
        **token_header(user),
        **headers,
    )


def test_a_new_deal_is_created_with_its_scores_and_an_etag(client, people):
    response = put(client, people["referee1"], example_deal("T1"))
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "draft" and body["version"] == 1
    assert body["sides"] == sides("T1")
    assert body["scores"] == {"N": -210, "E": 60, "S": -60, "W": -20}
    assert body["entered_by"] == "referee1" and body["confirmed_by"] is None
    assert response["ETag"] == '"1"'
    assert client.get(board_url(), **token_header(people["referee2"])).json() == body


def test_nothing_entered_yet_is_404(client, people):
    assert client.get(board_url(), **token_header(people["referee1"])).status_code == 404


def test_replacing_needs_if_match_and_a_stale_version_changes_nothing(client, people):
    put(client, people["referee1"], example_deal("T1"))
    assert put(client, people["referee2"], example_deal("T2")).status_code == 428
    stale = put(client, people["referee2"], example_deal("T2"), version=7)
    assert stale.status_code == 412 and stale.json()["error"]["code"] == "stale_version"
    assert round_three().get().version == 1
    replaced = put(client, people["referee2"], example_deal("T2"), version=1)
    assert replaced.status_code == 200
    assert replaced.json()["version"] == 2 and replaced.json()["sides"] == sides("T2")
    assert replaced["ETag"] == '"2"'


def test_an_invalid_deal_is_400_with_the_deal_error_code_and_nothing_changes(client, people):
    deal = example_deal("T1")
    deal["captured"]["W"].append("SQ")
    response = put(client, people["referee1"], deal)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "duplicate_card"
    assert "♠Q" in response.json()["error"]["message"]
    assert not round_three().exists()


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b""])
def test_a_malformed_body_is_bad_json_never_a_500(client, people, raw):
    response = client.put(board_url(), data=raw, content_type="application/json", **token_header(people["referee1"]))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"


def test_a_body_over_64_kib_is_413(client, people):
    deal = example_deal("T1")
    deal["note"] = "x" * (65 * 1024)
    assert put(client, people["referee1"], deal).status_code == 413
    assert not round_three().exists()


def test_the_confirming_referee_must_not_be_the_last_editor(client, people):
    put(client, people["referee1"], example_deal("T1"))
    own = client.post(board_url(suffix="/confirm"), HTTP_IF_MATCH="1", **token_header(people["referee1"]))
    assert own.status_code == 403
    assert (
        client.post(board_url(suffix="/confirm"), HTTP_IF_MATCH="9", **token_header(people["referee2"])).status_code
        == 412
    )
    confirmed = client.post(board_url(suffix="/confirm"), HTTP_IF_MATCH="1", **token_header(people["referee2"]))
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed" and confirmed.json()["confirmed_by"] == "referee2"


def test_a_change_to_a_confirmed_deal_returns_it_to_draft(client, people):
    put(client, people["referee1"], example_deal("T1"))
    version = client.post(board_url(suffix="/confirm"), HTTP_IF_MATCH="1", **token_header(people["referee2"])).json()[
        "version"
    ]
    changed = put(client, people["referee2"], example_deal("T2"), version=version)
    assert changed.json()["status"] == "draft" and changed.json()["confirmed_by"] is None


def test_history_lists_every_step_oldest_first(client, people):
    put(client, people["referee1"], example_deal("T1"))
    put(client, people["referee2"], example_deal("T2"), version=1)
    client.post(board_url(suffix="/confirm"), HTTP_IF_MATCH="2", **token_header(people["referee1"]))
    history = client.get(board_url(suffix="/history"), **token_header(people["referee1"])).json()
    assert [(h["version"], h["user"], h["action"]) for h in history] == [
        (1, "referee1", "create"),
        (2, "referee2", "change"),
        (3, "referee1", "confirm"),
    ]
    assert history[0]["before"] is None
    assert history[1]["before"]["sides"] == sides("T1") and history[1]["after"]["sides"] == sides("T2")
    assert set(history[0]) == {"version", "user", "at", "action", "before", "after", "reason", "entrant", "channel"}
    assert (history[0]["entrant"], history[0]["channel"]) == (None, "referee")


def test_addresses_outside_the_match_are_404(client, people):
    for url in (
        board_url(board=17),
        board_url(board=0),
        board_url(table=9),
        board_url(round_number=8),
        board_url(slug="nope"),
    ):
        assert put(client, people["referee1"], example_deal("T1"), url=url).status_code == 404


def test_no_credentials_is_401_and_no_role_is_403(client, people):
    anonymous = client.put(board_url(), data=json.dumps(example_deal()), content_type="application/json")
    assert anonymous.status_code == 401
    assert put(client, people["outsider"], example_deal()).status_code == 403
    assert put(client, people["other_referee"], example_deal()).status_code == 403
    bad_token = client.get(board_url(), HTTP_AUTHORIZATION="Token nonsense")
    assert bad_token.status_code == 401


def test_session_writes_need_the_csrf_token(people):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(people["referee1"])
    response = browser.put(board_url(), data=json.dumps(example_deal()), content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    browser.get("/accounts/login/")  # sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    ok = browser.put(
        board_url(), data=json.dumps(example_deal()), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert ok.status_code == 201


def test_the_history_is_append_only():
    from scoring.models import AppendOnlyError

    assert not DealHistory.objects.exists()
    with pytest.raises(AppendOnlyError):
        DealHistory.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        DealHistory.objects.all().update(reason="x")


def test_history_rows_refuse_to_be_edited_or_deleted(client, people):
    from scoring.models import AppendOnlyError

    put(client, people["referee1"], example_deal("T1"))
    row = DealHistory.objects.get()
    row.reason = "rewritten"
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    assert DealHistory.objects.get().reason == ""


def test_official_rounds_are_changed_by_organisers_only_and_with_a_reason(client, people, event):
    from scoring.models import Round

    put(client, people["referee1"], example_deal("T1"))
    Round.objects.filter(event=event, number=3).update(status="official")
    assert put(client, people["referee2"], example_deal("T2"), version=1).status_code == 403
    no_reason = put(client, people["organiser"], example_deal("T2"), version=1)
    assert no_reason.status_code == 400 and no_reason.json()["error"]["code"] == "reason_required"
    body = dict(example_deal("T2"), reason="记分员抄错")
    assert put(client, people["organiser"], body, version=1).status_code == 200
    assert DealHistory.objects.order_by("-id").first().reason == "记分员抄错"


def test_an_adjusted_score_is_for_organisers(client, people):
    body = dict(example_deal("T1"), adjusted={"N": -100, "E": 0, "S": 0, "W": 0}, adjusted_reason="牌序错乱")
    assert put(client, people["referee1"], body).status_code == 403
    response = put(client, people["organiser"], body)
    assert response.status_code == 201
    assert response.json()["scores"] == {"N": -100, "E": 0, "S": 0, "W": 0}
    assert response.json()["adjusted_reason"] == "牌序错乱"


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_closed_is_reopened_without_an_error(client, people):
    """The API's first statement stands in for Django's health check (scoring.entry.hot_sql)."""
    from django.db import DEFAULT_DB_ALIAS, connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("only a database server closes connections")
    assert put(client, people["referee1"], example_deal("T1")).status_code == 201
    second_referee = token_header(people["referee2"])
    backend = connection.connection.info.backend_pid
    admin = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with admin.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
    finally:
        admin.close()
    response = client.get(board_url(), **second_referee)
    assert response.status_code == 200 and response.json()["version"] == 1
    assert connection.connection.info.backend_pid != backend
