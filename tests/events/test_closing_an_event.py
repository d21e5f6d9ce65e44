"""Planned rounds and closing an event (issue 21, item 9): after the last planned round the
console offers closing rather than another round; a closed event's standings say 最终成绩."""

import pytest

from scoring.archive.database import import_archive
from scoring.engine.pairing import PairingError
from scoring.events.closing import ClosingError, event_finish, event_reopen
from scoring.models import Event, Round
from scoring.rounds.creation import round_pair
from tests.archives import four_pairs_two_rounds
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = import_archive(four_pairs_two_rounds())
    Event.objects.filter(pk=event.pk).update(planned_rounds=2)
    return Event.objects.get(pk=event.pk)


def test_closing_waits_for_every_round_official_and_for_the_plan(event):
    organiser = make_user("boss", "organiser", event)
    Round.objects.filter(event=event, number=2).update(status=Round.Status.PROVISIONAL)
    with pytest.raises(ClosingError) as refused:
        event_finish(event, user=organiser)
    assert refused.value.code == "not_ready"
    Round.objects.filter(event=event).update(status=Round.Status.OFFICIAL)
    Event.objects.filter(pk=event.pk).update(planned_rounds=3)
    with pytest.raises(ClosingError, match="计划 3 轮，已赛 2 轮"):
        event_finish(Event.objects.get(pk=event.pk), user=organiser)
    Event.objects.filter(pk=event.pk).update(planned_rounds=2)
    closed = event_finish(Event.objects.get(pk=event.pk), user=organiser)
    assert closed.is_finished
    with pytest.raises(PairingError) as no_more:
        round_pair(closed, "swiss")
    assert no_more.value.code == "event_finished"
    with pytest.raises(ClosingError):
        event_reopen(closed, user=organiser, reason=" ")
    reopened = event_reopen(closed, user=organiser, reason="申诉委员会改判")
    assert not reopened.is_finished
    assert [entry["action"] for entry in reopened.extra["closing_history"]] == ["finished", "reopened"]
    assert reopened.extra["closing_history"][1]["reason"] == "申诉委员会改判"


def test_a_round_beyond_the_plan_is_not_paired_until_the_plan_changes(event):
    Round.objects.filter(event=event).update(status=Round.Status.OFFICIAL)
    with pytest.raises(PairingError) as refused:
        round_pair(event, "swiss")
    assert refused.value.code == "planned_rounds_reached"


def test_the_console_offers_closing_after_the_last_round_and_the_pages_say_final(client, event):
    client.force_login(make_user("boss", "organiser", event))
    Round.objects.filter(event=event, number=2).update(status=Round.Status.PROVISIONAL)
    page = client.get("/organiser/t-pairs/").content.decode()
    assert "编排下一轮" not in page and 'id="finish-event"' in page and "计划 2 轮，已编排 2 轮" in page
    assert "所有轮次都转为正式成绩后才能结束赛事" in page  # round 2 is not official yet
    Round.objects.filter(event=event).update(status=Round.Status.OFFICIAL)
    response = client.post("/organiser/t-pairs/finish/")
    assert response.status_code == 302 and Event.objects.get(pk=event.pk).is_finished
    page = client.get("/organiser/t-pairs/").content.decode()
    assert 'id="event-finished"' in page and 'id="reopen-form"' in page
    assert 'id="final-standings"' in client.get("/events/t-pairs/standings/").content.decode()
    import io

    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(b"".join(client.get("/events/t-pairs/standings.xlsx").streaming_content)))
    assert dict(workbook["说明"].iter_rows(values_only=True))["内容"].startswith("最终成绩")
