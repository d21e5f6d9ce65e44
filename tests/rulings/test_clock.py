"""The round clock's services (issue 23): the organiser starts, pauses, resumes, extends and
calls time, each logged; calling time records the boards not started as not played, once;
boards entered after it are late and may take the event's late-play penalty."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.archive.database import import_archive
from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import ClockEntry, Deal, RefereeCall, Round, Table
from scoring.rulings.clock import boards_not_started, clock_act, late_boards, late_play_penalty, round_clock
from tests.archives import EXAMPLES, shengji_archive
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db
T1 = EXAMPLES["T1"]["expected"]["scores"]


def timed(event, **settings):
    event.extra = {**event.extra, "round_minutes": 90, **settings}
    event.save()
    return Round.objects.select_related("event").get(event=event, number=3)


def tables(rnd):
    return list(Table.objects.select_related("round__event").filter(round=rnd).order_by("number"))


def test_only_an_organiser_runs_the_clock_and_each_action_is_logged_with_who_and_when(event, people):
    rnd = timed(event)
    for who in ("referee1", "outsider"):
        with pytest.raises(EntryError) as refused:
            clock_act(rnd=rnd, user=people[who], action="start")
        assert refused.value.code == "forbidden"
    start = timezone.now() - timedelta(minutes=30)
    organiser = people["organiser"]
    clock, _ = clock_act(rnd=rnd, user=organiser, action="start", now=start)
    assert clock.state == "running" and clock.total == 90 * 60
    clock_act(rnd=rnd, user=organiser, action="pause", now=start + timedelta(minutes=20))
    clock, _ = clock_act(rnd=rnd, user=organiser, action="resume", now=start + timedelta(minutes=25))
    clock, _ = clock_act(rnd=rnd, user=organiser, action="extend", minutes=10, now=start + timedelta(minutes=26))
    assert clock.total == 100 * 60
    now = round_clock(rnd, start + timedelta(minutes=30))
    assert now.remaining == 100 * 60 - 25 * 60 and now.ends_at == start + timedelta(minutes=105)
    log = list(ClockEntry.objects.filter(round=rnd).values_list("action", "minutes", "user__username"))
    assert log == [
        ("start", 90, "organiser"),
        ("pause", 0, "organiser"),
        ("resume", 0, "organiser"),
        ("extend", 10, "organiser"),
    ]


def test_what_the_clock_cannot_do_is_refused(event, people):
    rnd = Round.objects.select_related("event").get(event=event, number=3)
    organiser = people["organiser"]
    with pytest.raises(EntryError) as refused:
        clock_act(rnd=rnd, user=organiser, action="start")
    assert refused.value.code == "untimed"  # no minutes per round in the settings
    rnd = timed(event)
    for action, minutes in (("pause", 0), ("resume", 0), ("extend", 0), ("extend", 121), ("wind", 0)):
        with pytest.raises(EntryError):
            clock_act(rnd=rnd, user=organiser, action=action, minutes=minutes)
    clock_act(rnd=rnd, user=organiser, action="start")
    with pytest.raises(EntryError) as refused:
        clock_act(rnd=rnd, user=organiser, action="start")
    assert refused.value.code == "clock_refused" and "计时中" in refused.value.message
    Round.objects.filter(pk=rnd.pk).update(status="provisional")
    with pytest.raises(EntryError) as refused:
        clock_act(rnd=rnd, user=organiser, action="pause")
    assert refused.value.code == "round_published"


def test_the_boards_not_started_at_a_table():
    class Boards:
        match_mode, match_length = "boards", 6

    class Games:
        match_mode, match_length = "games", 2

    assert boards_not_started(Boards, set(), True) == [2, 3, 4, 5, 6]  # board 1 is being played
    assert boards_not_started(Boards, set(), False) == [1, 2, 3, 4, 5, 6]
    assert boards_not_started(Boards, {1, 2, 4}, True) == [6]  # 3 was played before 4: the referees'
    assert boards_not_started(Boards, {1, 2, 3, 4, 5, 6}, True) == []
    assert boards_not_started(Games, {1, 2}, False) == []


def test_calling_time_records_the_boards_not_started_once_and_leaves_the_board_in_play(event, people):
    rnd = timed(event)
    one, two = tables(rnd)
    organiser = people["organiser"]
    for board in (1, 2, 3):
        deal_save(table=one, board=board, deal_json=example_deal("T1"), user=people["referee1"])
    clock_act(rnd=rnd, user=organiser, action="start", now=timezone.now() - timedelta(minutes=91))
    clock, recorded = clock_act(rnd=rnd, user=organiser, action="call_time")
    assert clock.state == "time_up" and clock.called_at is not None
    # Table 1 plays board 4 out; 5–16 are not played. Table 2 plays board 1; 2–16 not played.
    assert recorded == 12 + 15
    marked = Deal.objects.filter(table__round=rnd, extra__has_key="not_played")
    assert set(marked.filter(table=one).values_list("board", flat=True)) == set(range(5, 17))
    assert set(marked.filter(table=two).values_list("board", flat=True)) == set(range(2, 17))
    assert all(d.extra["not_played"]["time"] and d.status == "confirmed" for d in marked)
    count = Deal.objects.filter(table__round=rnd).count()
    _clock, again = clock_act(rnd=rnd, user=organiser, action="call_time")
    assert again == 0 and Deal.objects.filter(table__round=rnd).count() == count
    # Later the organiser closes the boards left in play too.
    _clock, closing = clock_act(rnd=rnd, user=organiser, action="call_time", finish_in_play=False)
    assert closing == 2 and Deal.objects.filter(table__round=rnd).count() == count + 2
    assert ClockEntry.objects.filter(round=rnd, action="call_time").count() == 3
    for action in ("pause", "resume", "extend", "start"):
        with pytest.raises(EntryError):
            clock_act(rnd=rnd, user=organiser, action=action, minutes=5)


def test_a_board_entered_after_time_is_late_and_may_take_the_events_late_play_penalty(event, people):
    rnd = timed(event, late_penalty=-50)
    one, two = tables(rnd)
    deal_save(table=one, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=100))
    clock_act(rnd=rnd, user=people["organiser"], action="call_time")
    with pytest.raises(EntryError) as refused:
        late_play_penalty(table=one, board=1, user=people["referee1"], seat="N")
    assert refused.value.code == "not_late"
    one, two = tables(rnd)  # the round is in play now
    late, _ = deal_save(table=one, board=2, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=late, user=people["referee2"], expected_version=late.version)
    # Table 2's board 1 was in play; its board 2 was recorded not played, then a result came.
    record = Deal.objects.get(table=two, board=2)
    deal_save(
        table=two, board=2, deal_json=example_deal("T1"), user=people["referee1"],
        expected_version=record.version, reason="实际打了",
    )  # fmt: skip
    assert late_boards(rnd) == {(one.pk, 2), (two.pk, 2)}
    call = late_play_penalty(table=one, board=2, user=people["referee2"], seat="E")
    assert (call.kind, call.outcome, call.penalty_seat, call.penalty) == ("slow_play", "penalty", "E", -50)
    late.refresh_from_db()
    assert late.scores["E"] == T1["E"] - 50 and late.status == "draft"
    with pytest.raises(EntryError) as refused:
        late_play_penalty(table=one, board=2, user=people["referee2"], seat="E")
    assert refused.value.code == "already_ruled"
    assert RefereeCall.objects.filter(table=one, board=2).count() == 1
    event.extra = {**event.extra, "late_penalty": 0}
    event.save()
    with pytest.raises(EntryError) as refused:
        late_play_penalty(table=tables(rnd)[1], board=2, user=people["referee2"], seat="N")
    assert refused.value.code == "no_late_penalty"


def test_calling_time_on_a_shengji_round_records_no_board_not_played():
    """升级 has no adjusted score and its match cannot skip a deal: calling time records nothing
    (it used to stop on the first table with 升级不设调整分); the unfinished match is the chief
    arbiter's to rule on (scoring.rulings.match_ruling)."""
    event = import_archive(
        shengji_archive(table_one=[], table_two=[], options={"start_level": 1, "target": 13, "deals": None}, boards=40)
    )
    event.extra = {**event.extra, "round_minutes": 90}
    event.save()
    rnd = Round.objects.select_related("event").get(event=event, number=1)
    organiser, referee = make_user("chief", "organiser", event), make_user("referee1", "referee", event)
    deal_save(table=tables(rnd)[0], board=1, deal_json={"declarer": "NS", "points": 40}, user=referee)
    clock_act(rnd=rnd, user=organiser, action="start")
    _clock, recorded = clock_act(rnd=rnd, user=organiser, action="call_time", finish_in_play=False)
    assert recorded == 0 and Deal.objects.filter(table__round=rnd).count() == 1
