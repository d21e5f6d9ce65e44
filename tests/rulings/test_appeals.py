"""Appeals (issue 23): lodged within the correction period by a side (table link or referee),
decided once by an organiser for the committee, the change made through the correction path,
open appeals blocking "official", decisions public."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.entry.errors import EntryError
from scoring.entry.services import deal_save
from scoring.models import Appeal, Entrant, Event, Round, Table, table_token_digest
from scoring.rounds.publication import PublicationError, round_make_official
from scoring.rulings.appeals import appeal_decide, appeal_lodge, public_appeals
from scoring.rulings.calls import call_open, call_rule
from tests.conftest import scaled_examples
from tests.games.test_engine_hostile_input import hostile_values as json_values
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


def published(event, minutes_ago=5):
    rnd = Round.objects.get(event=event, number=3)
    Round.objects.filter(pk=rnd.pk).update(
        status="provisional", published_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    return Table.objects.select_related("round__event", "ns_entrant", "ew_entrant").get(round=rnd, number=1)


def test_a_side_appeals_within_the_period_and_not_before_or_after(event, people):
    table = Table.objects.select_related("round__event", "ns_entrant", "ew_entrant").get(
        round__event=event, round__number=3, number=1
    )
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, statement="罚分不对", entrant=table.ns_entrant, user=people["referee1"])
    assert refused.value.code == "appeal_closed"  # not published yet
    table = published(event, minutes_ago=event.correction_minutes + 1)
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, statement="罚分不对", entrant=table.ns_entrant, user=people["referee1"])
    assert refused.value.code == "appeal_closed"
    table = published(event, minutes_ago=event.correction_minutes - 1)
    appeal = appeal_lodge(table=table, statement="罚分不对", board=1, entrant=table.ns_entrant, user=people["referee1"])
    assert (appeal.status, appeal.channel, appeal.filed_by, appeal.round_id) == (
        "open",
        "referee",
        table.ns_entrant.code,
        table.round_id,
    )


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"statement": ""}, "reason_required"),
        ({"statement": "x" * 501}, "bad_reason"),
        ({"statement": "异议\x00"}, "bad_reason"),
        ({"statement": "异议", "board": 0}, "bad_board"),
        ({"statement": "异议", "board": True}, "bad_board"),
    ],
)
def test_a_bad_appeal_is_refused_and_nothing_is_stored(event, people, fields, code):
    table = published(event)
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, entrant=table.ew_entrant, user=people["referee1"], **fields)
    assert refused.value.code == code and not Appeal.objects.exists()


def test_an_appeal_for_a_side_not_at_the_table_is_refused(event, people):
    table = published(event)
    stranger = Entrant.objects.filter(event=event).exclude(pk__in=[table.ns_entrant_id, table.ew_entrant_id]).first()
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, statement="异议", entrant=stranger, user=people["referee1"])
    assert refused.value.code == "bad_side"


def test_open_appeals_keep_the_round_from_becoming_official_until_decided(event, people):
    Event.objects.filter(pk=event.pk).update(
        correction_minutes=0, appeals_committee="张三、李四、王五", appeal_deposit=100
    )
    table = published(event, minutes_ago=0)
    Event.objects.filter(pk=event.pk).update(correction_minutes=10)
    table.round.event.refresh_from_db()
    appeal = appeal_lodge(table=table, statement="异议", board=1, entrant=table.ns_entrant, user=people["referee1"])
    assert appeal.deposit == 100
    later = timezone.now() + timedelta(minutes=11)
    with pytest.raises(PublicationError) as blocked:
        round_make_official(table.round, user=people["organiser"], now=later)
    assert blocked.value.code == "open_appeals"
    with pytest.raises(EntryError) as refused:
        appeal_decide(appeal=appeal, user=people["referee1"], status="upheld", decision="维持")
    assert refused.value.code == "forbidden"  # the committee's decision is recorded by an organiser
    with pytest.raises(EntryError) as refused:
        appeal_decide(appeal=appeal, user=people["organiser"], status="upheld", decision="维持")
    assert refused.value.code == "bad_deposit"
    decided = appeal_decide(
        appeal=appeal, user=people["organiser"], status="upheld", decision="裁决无误", deposit_outcome="forfeited"
    )
    assert decided.committee == "张三、李四、王五" and decided.deposit_outcome == "forfeited"
    with pytest.raises(EntryError) as refused:
        appeal_decide(appeal=appeal, user=people["organiser"], status="dismissed", decision="再议")
    assert refused.value.code == "already_decided"
    assert round_make_official(table.round, user=people["organiser"], now=later).status == "official"


def test_a_changed_ruling_needs_the_correction_first_and_is_public_with_its_call(event, people):
    table = published(event)
    deal, _ = (
        deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["organiser"], reason="更正：漏录")
        if not table.deals.filter(board=1).exists()
        else (table.deals.get(board=1), False)
    )
    call = call_open(table=table, user=people["organiser"], kind="revoke", board=1, seats="W")
    call_rule(call=call, user=people["organiser"], outcome="nothing", ruling="不构成藏牌")
    appeal = appeal_lodge(
        table=table, statement="W 明明藏牌", board=1, entrant=table.ns_entrant, user=people["referee1"], call=call
    )
    with pytest.raises(EntryError) as refused:
        appeal_decide(appeal=appeal, user=people["organiser"], status="changed", decision="藏牌成立，罚 W 50")
    assert refused.value.code == "change_first"
    deal.refresh_from_db()
    deal_save(
        table=table,
        board=1,
        deal_json={**deal.as_deal_json(), "penalties": {"W": -50}},
        user=people["organiser"],
        expected_version=deal.version,
        reason=f"申诉 {appeal.pk}：藏牌成立",
    )
    appeal_decide(appeal=appeal, user=people["organiser"], status="changed", decision="藏牌成立，罚 W 50")
    [shown] = public_appeals(event)
    assert shown.pk == appeal.pk and shown.call == call and shown.get_status_display() == "改变裁决"
    page = Client().get(f"/events/{event.slug}/penalties/")
    assert "藏牌成立，罚 W 50" in page.content.decode() and "不构成藏牌" in page.content.decode()


def test_a_table_link_appeals_with_its_code_once_per_key(event, people):
    Event.objects.filter(pk=event.pk).update(entry="players")
    table = published(event)
    Table.objects.filter(pk=table.pk).update(
        token="appeal-test-token-of-table-one-round-3",
        token_digest=table_token_digest("appeal-test-token-of-table-one-round-3"),
    )
    client = Client(enforce_csrf_checks=True)
    body = {"code": table.ns_entrant.access_code, "statement": "第 2 副的罚分不对", "board": 2}
    url = "/t/appeal-test-token-of-table-one-round-3/appeal"
    first = client.post(url, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": "a-1"})
    again = client.post(url, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": "a-1"})
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    appeal = Appeal.objects.get()
    assert (appeal.channel, appeal.entrant_id, appeal.board) == ("table link", table.ns_entrant_id, 2)
    wrong = client.post(
        url,
        json.dumps({**body, "code": "NOPE-NOPE"}),
        content_type="application/json",
        headers={"Idempotency-Key": "a-2"},
    )
    assert wrong.status_code == 403 and Appeal.objects.count() == 1
    Round.objects.filter(pk=table.round_id).update(status="official")
    late = client.post(url, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": "a-3"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "appeal_closed"


@settings(max_examples=scaled_examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, right_code=st.booleans())
def test_any_json_appealing_through_a_table_link_is_answered_without_a_server_error(event, body, right_code):
    Event.objects.filter(pk=event.pk).update(entry="players")
    table = published(event)
    Table.objects.filter(pk=table.pk).update(
        token="appeal-sweep-token-of-table-one-round-3",
        token_digest=table_token_digest("appeal-sweep-token-of-table-one-round-3"),
    )
    if isinstance(body, dict) and right_code:
        body = {**body, "code": table.ns_entrant.access_code}
    before = Appeal.objects.count()
    response = Client().post(
        "/t/appeal-sweep-token-of-table-one-round-3/appeal",
        json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": f"k-{Appeal.objects.count()}-{len(json.dumps(body))}"},
    )
    assert response.status_code < 500, response.content
    assert Appeal.objects.count() == before + (1 if response.status_code == 201 else 0)
    if response.status_code != 201:
        assert "error" in response.json()


@pytest.mark.parametrize("who", ["outsider", "other_referee"])
def test_the_appeal_services_check_their_own_permissions_without_a_view(event, people, who):
    """Called directly, past every view: a stranger or another event's referee neither lodges an
    appeal for a side nor records the committee's decision, and nothing is stored."""
    table = published(event)
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, statement="罚分不对", board=1, entrant=table.ns_entrant, user=people[who])
    assert refused.value.code == "forbidden"
    assert not Appeal.objects.filter(event=event).exists()
    appeal = appeal_lodge(table=table, statement="罚分不对", board=1, entrant=table.ns_entrant, user=people["referee1"])
    for stranger in (people[who], people["referee1"]):
        with pytest.raises(EntryError) as refused:
            appeal_decide(appeal=appeal, user=stranger, status="dismissed", decision="不成立")
        assert refused.value.code == "forbidden"
    appeal.refresh_from_db()
    assert (appeal.status, appeal.decided_at, appeal.decided_by) == ("open", None, None)
