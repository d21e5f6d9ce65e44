"""Committing each write service moves its event's results version, and the public version when
the change shows on public pages. The services are found by the walk of
tests/cache/test_every_write_announces.py: a public function of a service module that writes
rows and is not named there as a quiet write. Each has a scenario here, which sets the stage
and then calls the service itself (looked up by its place, so the scenario cannot call a
namesake), or is named in `STEPS` as a step that only runs inside other services. A new write
service fails `test_every_write_service_has_a_scenario` until it gets one.

The walk reads calls by name, so it can be fooled by a namesake that announces; these
scenarios cannot: the version is read from the database after the service's transaction."""

import importlib
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.cache.versions import current_version
from scoring.entry.services import deal_confirm, deal_save
from scoring.events.entrants import NewEntrant
from scoring.events.setup import grant_event_creation
from scoring.models import Appeal, Deal, Entrant, Event, Match, Player, Round, Table
from scoring.rounds.publication import round_publish
from scoring.rulings.appeals import appeal_lodge
from scoring.rulings.calls import call_open, call_rule
from scoring.rulings.clock import clock_act
from tests.archives import four_pairs_two_rounds
from tests.cache.test_every_write_announces import QUIET_WRITES, write_services
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db

# Public functions of the service modules that write only as a step of other services: they
# run, and announce, inside the scenarios of those services.
STEPS = {
    "scoring/entry/hot_sql.py:create_with_history": "the new deal's insert of deal_save and blind_entry_submit",
    "scoring/entry/versioned.py:record": "the history row and announcement of every deal service",
    "scoring/entry/not_played_deal.py:deal_not_played": "the record of board_not_played and time_call",
}


@dataclass
class Stage:
    """A scenario's stage: the event whose versions must move (by slug: an import may replace
    the row), whether the change shows publicly, and the service's call."""

    slug: str
    public: bool
    act: object


SCENARIOS = {}


def scenario(place):
    def register(build):
        SCENARIOS[place] = build
        return build

    return register


def service(place):
    path, name = place.split(":")
    return getattr(importlib.import_module(path.removesuffix(".py").replace("/", ".")), name)


def table_of(event, round_number, number=1):
    return Table.objects.select_related("round__event", "ns_entrant", "ew_entrant").get(
        round__event=event, round__number=round_number, number=number
    )


def round_three_published(event, people, correction_minutes=60):
    """Round 3 with its one board a table entered and confirmed, then published."""
    Event.objects.filter(pk=event.pk).update(match_length=1, correction_minutes=correction_minutes)
    for number in (1, 2):
        deal, _created = deal_save(
            table=table_of(event, 3, number), board=1, deal_json=example_deal("T1"), user=people["referee1"]
        )
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return round_publish(Round.objects.get(event=event, number=3), user=people["organiser"])


def corrected_board_one(event, people):
    """Round 3 published, and board 1 of table 1 corrected by referee 1 (a draft again)."""
    round_three_published(event, people)
    deal = Deal.objects.get(table=table_of(event, 3), board=1)
    deal, _created = deal_save(
        table=table_of(event, 3),
        board=1,
        deal_json=example_deal("T2"),
        user=people["referee1"],
        expected_version=deal.version,
        reason="记分表抄错",
    )
    return deal


def another_event(slug):
    archive = four_pairs_two_rounds()
    return dict(archive, event={**archive["event"], "slug": slug})


# Deals ------------------------------------------------------------------------------------


@scenario("scoring/entry/services.py:deal_save")
def _(fn, event, people):
    round_three_published(event, people)
    deal = Deal.objects.get(table=table_of(event, 3), board=1)
    return Stage(
        event.slug,
        True,
        lambda: fn(
            table=table_of(event, 3),
            board=1,
            deal_json=example_deal("T2"),
            user=people["referee1"],
            expected_version=deal.version,
            reason="记分表抄错",
        ),
    )


@scenario("scoring/entry/services.py:deal_confirm")
def _(fn, event, people):
    deal = corrected_board_one(event, people)
    return Stage(event.slug, True, lambda: fn(deal=deal, user=people["referee2"], expected_version=deal.version))


@scenario("scoring/entry/services.py:irregularity_record")
def _(fn, event, people):
    deal = Deal.objects.get(table=table_of(event, 1), board=1)
    return Stage(
        event.slug,
        True,
        lambda: fn(
            deal=deal,
            user=people["organiser"],
            seat="E",
            kind="revoke",
            ruling="东家藏牌，罚 50",
            penalty=-50,
            expected_version=deal.version,
        ),
    )


@scenario("scoring/entry/services.py:deal_back_to_draft")
def _(fn, event, people):
    round_three_published(event, people)
    deal = Deal.objects.get(table=table_of(event, 3), board=1)
    return Stage(
        event.slug,
        True,
        lambda: fn(deal=deal, user=people["referee1"], reason="重新发牌", expected_version=deal.version),
    )


@scenario("scoring/entry/blind.py:blind_entry_submit")
def _(fn, event, people):
    Event.objects.filter(pk=event.pk).update(double_entry=True)
    table = table_of(event, 3)
    fn(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    # Round 3 is not published: the agreed deal is the officials' only.
    return Stage(
        event.slug,
        False,
        lambda: fn(table=table_of(event, 3), board=1, deal_json=example_deal("T1"), user=people["referee2"]),
    )


# The table link ---------------------------------------------------------------------------


def players_table():
    from scoring.archive.database import import_archive
    from tests.archives import pairs_archive
    from tests.table_entry.test_table_api import code_of, example

    # The table link's two-board round (tests/table_entry/test_table_api.py), beside t-pairs.
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, slug="players", length=2)
    archive["event"]["entry"] = "players"
    event = import_archive(archive)
    table = Table.objects.select_related("round__event", "ns_entrant", "ew_entrant").get(round__event=event, number=1)
    return event, table, lambda pair: code_of(event, pair), example


@scenario("scoring/table_entry/services.py:table_deal_put")
def _(fn, event, people):
    players, table, code, example = players_table()
    # The round is in play: a player's draft is the officials' only.
    return Stage(players.slug, False, lambda: fn(table, 1, {**example("T1"), "code": code("A")}, expected_version=None))


def _player_draft(players, table, code, example):
    from scoring.table_entry.services import table_deal_put

    table_deal_put(table, 1, {**example("T1"), "code": code("A")}, expected_version=None)
    return Deal.objects.get(table=table, board=1)


@scenario("scoring/table_entry/services.py:table_verify")
def _(fn, event, people):
    players, table, code, example = players_table()
    deal = _player_draft(players, table, code, example)
    return Stage(players.slug, False, lambda: fn(table, 1, {"code": code("B")}, expected_version=deal.version))


@scenario("scoring/table_entry/services.py:table_dispute")
def _(fn, event, people):
    players, table, code, example = players_table()
    deal = _player_draft(players, table, code, example)
    return Stage(
        players.slug,
        False,
        lambda: fn(table, 1, {"code": code("B"), "reason": "♠Q 是东家吃的"}, expected_version=deal.version),
    )


@scenario("scoring/entry/verification.py:deal_verify")
def _(fn, event, people):
    from scoring.table_entry.codes import side_for_code

    players, table, code, example = players_table()
    deal = _player_draft(players, table, code, example)
    side = side_for_code(table, code("B"))
    return Stage(players.slug, False, lambda: fn(deal=deal, player=side, expected_version=deal.version))


@scenario("scoring/entry/verification.py:deal_dispute")
def _(fn, event, people):
    from scoring.table_entry.codes import side_for_code

    players, table, code, example = players_table()
    deal = _player_draft(players, table, code, example)
    side = side_for_code(table, code("B"))
    return Stage(
        players.slug, False, lambda: fn(deal=deal, player=side, reason="♠Q 是东家吃的", expected_version=deal.version)
    )


# Rulings ----------------------------------------------------------------------------------


@scenario("scoring/rulings/calls.py:call_rule")
def _(fn, event, people):
    round_three_published(event, people)
    call = call_open(table=table_of(event, 3), user=people["referee1"], kind="other", board=1)
    return Stage(
        event.slug, True, lambda: fn(call=call, user=people["referee1"], outcome="nothing", ruling="核实后裁定")
    )


@scenario("scoring/rulings/calls.py:penalty_apply")
def _(fn, event, people):
    table = table_of(event, 3)
    call = call_open(table=table, user=people["referee1"], kind="late_exposure", board=1, seats="E")
    call_rule(call=call, user=people["referee1"], outcome="penalty", ruling="亮牌超时", penalty_seat="E", penalty=-30)
    Deal.objects.create(
        table=table, board=1, sequence=1, status="draft", entered_by=people["referee2"], game_data={"captured": {}}
    )
    return Stage(event.slug, False, lambda: fn(call=call, user=people["referee1"]))


@scenario("scoring/rulings/appeals.py:appeal_decide")
def _(fn, event, people):
    round_three_published(event, people)
    table = table_of(event, 3)
    appeal = appeal_lodge(table=table, statement="罚分不对", board=1, entrant=table.ns_entrant, user=people["referee1"])
    return Stage(
        event.slug,
        True,
        lambda: fn(appeal=appeal, user=people["organiser"], status="dismissed", decision="不成立"),
    )


@scenario("scoring/rulings/appeals.py:appeals_dismiss_flood")
def _(fn, event, people):
    from scoring.rulings.appeals import APPEALS_PER_SIDE_AND_ROUND

    rnd = round_three_published(event, people)
    table = table_of(event, 3)
    for board in range(APPEALS_PER_SIDE_AND_ROUND):
        appeal_lodge(table=table, statement=f"第 {board + 1} 次", board=1, entrant=table.ns_entrant)
    assert Appeal.objects.filter(round=rnd, channel="table link").count() == APPEALS_PER_SIDE_AND_ROUND
    return Stage(event.slug, True, lambda: fn(rnd=rnd, entrant=table.ns_entrant, user=people["organiser"]))


@scenario("scoring/rulings/not_played.py:board_not_played")
def _(fn, event, people):
    return Stage(
        event.slug, False, lambda: fn(table=table_of(event, 3), board=1, user=people["referee1"], reason="未开始")
    )


def timed_round_three(event):
    event.extra = {**event.extra, "round_minutes": 90}
    event.save()
    return Round.objects.select_related("event").get(event=event, number=3)


@scenario("scoring/rulings/clock.py:clock_act")
def _(fn, event, people):
    rnd = timed_round_three(event)
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=100))
    return Stage(event.slug, False, lambda: fn(rnd=rnd, user=people["organiser"], action="call_time"))


@scenario("scoring/rulings/clock.py:time_call")
def _(fn, event, people):
    rnd = timed_round_three(event)
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=100))
    return Stage(event.slug, False, lambda: fn(Round.objects.get(pk=rnd.pk), people["organiser"]))


@scenario("scoring/rulings/clock.py:late_play_penalty")
def _(fn, event, people):
    event.extra = {**event.extra, "round_minutes": 90, "late_penalty": -50}
    event.save()
    rnd = Round.objects.select_related("event").get(event=event, number=3)
    one = table_of(event, 3)
    deal_save(table=one, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    clock_act(rnd=rnd, user=people["organiser"], action="start", now=timezone.now() - timedelta(minutes=100))
    clock_act(rnd=rnd, user=people["organiser"], action="call_time")
    one = table_of(event, 3)
    deal_save(table=one, board=2, deal_json=example_deal("T1"), user=people["referee1"])
    return Stage(event.slug, False, lambda: fn(table=table_of(event, 3), board=2, user=people["referee2"], seat="E"))


# Events and entrants ----------------------------------------------------------------------


@scenario("scoring/events/setup.py:event_update")
def _(fn, event, people):
    event.name = "改名的赛事"
    return Stage(event.slug, True, lambda: fn(event, changed=["name"]))


@scenario("scoring/events/entrants.py:entrants_create")
def _(fn, event, people):
    return Stage(event.slug, True, lambda: fn(event, [NewEntrant(code="L1", names=("迟", "到"))]))


@scenario("scoring/events/entrants.py:entrant_update")
def _(fn, event, people):
    entrant = Entrant.objects.get(event=event, code="A")
    names = [m.player.name for m in entrant.memberships.select_related("player").order_by("position")]
    return Stage(event.slug, True, lambda: fn(entrant, names=[f"{names[0]}改", *names[1:]], club=""))


@scenario("scoring/events/entrants.py:entrant_withdraw")
def _(fn, event, people):
    return Stage(event.slug, True, lambda: fn(Entrant.objects.get(event=event, code="A")))


@scenario("scoring/events/entrants.py:entrant_reinstate")
def _(fn, event, people):
    from scoring.events.entrants import entrant_withdraw

    entrant_withdraw(Entrant.objects.get(event=event, code="A"))
    return Stage(event.slug, True, lambda: fn(Entrant.objects.get(event=event, code="A")))


@scenario("scoring/events/entrants.py:player_correct")
def _(fn, event, people):
    player = Player.objects.filter(event=event).order_by("code").first()
    return Stage(event.slug, True, lambda: fn(player, sort_key="shan ming", federation_id="CN-1"))


# Rounds -----------------------------------------------------------------------------------


@scenario("scoring/rounds/creation.py:round_pair")
def _(fn, event, people):
    from scoring.archive.database import import_archive

    two_rounds = import_archive(another_event("two-rounds"))
    # A round just paired is scheduled, its draw not released: the officials' only.
    return Stage(two_rounds.slug, False, lambda: fn(two_rounds, "swiss", user=people["organiser"]))


def released_round_three(event, people):
    from scoring.rounds.creation import round_release_draw

    return round_release_draw(Round.objects.get(event=event, number=3), user=people["organiser"]) or Round.objects.get(
        event=event, number=3
    )


@scenario("scoring/rounds/creation.py:round_repair")
def _(fn, event, people):
    # Its draw released, the round's pairing is on the public pages; a repair takes it down.
    rnd = released_round_three(event, people)
    return Stage(event.slug, True, lambda: fn(rnd, "swiss", user=people["organiser"]))


@scenario("scoring/rounds/creation.py:round_release_draw")
def _(fn, event, people):
    rnd = Round.objects.get(event=event, number=3)
    return Stage(event.slug, True, lambda: fn(rnd, user=people["organiser"]))


@scenario("scoring/rounds/creation.py:round_swap_entrants")
def _(fn, event, people):
    # Its draw released, who sits where is on the public draw.
    rnd = released_round_three(event, people)
    table = table_of(event, 3)
    first, second = table.ns_entrant.code, table_of(event, 3, 2).ns_entrant.code
    return Stage(event.slug, True, lambda: fn(rnd, first, second, user=people["organiser"]))


@scenario("scoring/rounds/publication.py:round_publish")
def _(fn, event, people):
    Event.objects.filter(pk=event.pk).update(match_length=1)
    for number in (1, 2):
        deal, _created = deal_save(
            table=table_of(event, 3, number), board=1, deal_json=example_deal("T1"), user=people["referee1"]
        )
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return Stage(event.slug, True, lambda: fn(Round.objects.get(event=event, number=3), user=people["organiser"]))


@scenario("scoring/rounds/publication.py:round_make_official")
def _(fn, event, people):
    rnd = round_three_published(event, people, correction_minutes=0)
    return Stage(event.slug, True, lambda: fn(rnd, user=people["organiser"]))


@scenario("scoring/rounds/final_stage.py:final_stage_start")
def _(fn, event, people):
    from tests.rounds.test_final_stages import play, publish

    Event.objects.filter(pk=event.pk).update(match_length=1)
    event.refresh_from_db()
    rnd = event.rounds.get(number=3)
    play(rnd, people, {})
    publish(rnd, people)
    # The stage's first round is scheduled: the officials' only, until its draw is released.
    return Stage(event.slug, False, lambda: fn(Event.objects.get(pk=event.pk), "knockout", 4, user=people["organiser"]))


@scenario("scoring/rounds/final_stage.py:knockout_advance")
def _(fn, event, people):
    from scoring.rounds.final_stage import final_stage_start
    from tests.rounds.test_final_stages import play, publish

    Event.objects.filter(pk=event.pk).update(match_length=1)
    event.refresh_from_db()
    rnd = event.rounds.get(number=3)
    play(rnd, people, {})
    publish(rnd, people)
    (semis,) = final_stage_start(Event.objects.get(pk=event.pk), "knockout", 4, user=people["organiser"])
    play(semis, people, {1: "EW", 2: "NS"})
    publish(semis, people)
    return Stage(event.slug, False, lambda: fn(Event.objects.get(pk=event.pk), user=people["organiser"]))


@scenario("scoring/events/closing.py:event_finish")
def _(fn, event, people):
    from scoring.archive.database import import_archive

    closing = import_archive(another_event("closing"))
    Event.objects.filter(pk=closing.pk).update(planned_rounds=2)
    Round.objects.filter(event=closing).update(status=Round.Status.OFFICIAL)
    boss = make_user("boss", "organiser", closing)
    return Stage(closing.slug, True, lambda: fn(Event.objects.get(pk=closing.pk), user=boss))


@scenario("scoring/events/closing.py:event_reopen")
def _(fn, event, people):
    from scoring.archive.database import import_archive
    from scoring.events.closing import event_finish

    closing = import_archive(another_event("closing"))
    Event.objects.filter(pk=closing.pk).update(planned_rounds=2)
    Round.objects.filter(event=closing).update(status=Round.Status.OFFICIAL)
    boss = make_user("boss", "organiser", closing)
    closed = event_finish(Event.objects.get(pk=closing.pk), user=boss)
    return Stage(closing.slug, True, lambda: fn(closed, user=boss, reason="申诉委员会改判"))


@scenario("scoring/events/lineups.py:lineup_set")
def _(fn, event, people):
    from scoring.archive.database import import_archive
    from tests.events.test_pairs_sessions import swapping_pairs

    archive = swapping_pairs()
    archive["event"]["slug"] = "sessions"
    sessions = import_archive(archive)
    match = Match.objects.get(round__event=sessions)
    return Stage(sessions.slug, True, lambda: fn(match, 2, {1: {"N": "p01", "S": "p02", "E": "p09", "W": "p04"}}))


@scenario("scoring/rulings/match_ruling.py:rule_match")
def _(fn, event, people):
    from scoring.archive.database import import_archive
    from tests.archives import shengji_archive
    from tests.rulings.test_match_ruling import MATCH, TO_THE_TARGET

    hall = import_archive(shengji_archive(table_one=[], table_two=[], options=TO_THE_TARGET, boards=40))
    hall.extra = {**hall.extra, "round_minutes": 90}
    hall.save(update_fields=["extra"])
    referee, second = make_user("sj-referee1", "referee", hall), make_user("sj-referee2", "referee", hall)
    chief = make_user("chief", "organiser", hall)
    table = Table.objects.select_related("round__event").get(round__event=hall, number=2)
    saved, _created = deal_save(table=table, board=1, deal_json=MATCH[0], user=referee)
    deal_confirm(deal=saved, user=second, expected_version=saved.version)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    # The round is in play: the ruling is the officials' until it is published.
    return Stage(hall.slug, False, lambda: fn(table=table, user=chief, outcome="as_it_stands", reason="时间到"))


# Archives ---------------------------------------------------------------------------------


def _replaceable(event):
    """The fixture's event in place, as an archive: it has no history, so it may be replaced."""
    archive = four_pairs_two_rounds()
    archive["event"]["name"] = "换一个名字"
    return archive


@scenario("scoring/archive/database.py:import_archive")
def _(fn, event, people):
    return Stage(event.slug, True, lambda: fn(_replaceable(event), replace=True))


@scenario("scoring/archive/database.py:write_archive")
def _(fn, event, people):
    from scoring.archive.database import check_archive

    parsed = check_archive(_replaceable(event))
    return Stage(event.slug, True, lambda: fn(parsed, replace=True))


@scenario("scoring/archive/database.py:import_archive_upload")
def _(fn, event, people):
    import json

    from scoring.archive.database import import_archive

    # An upload replaces only an event without results: the deals of an imported copy go first.
    uploaded = import_archive(another_event("uploaded"))
    Deal.objects.filter(table__round__event=uploaded).delete()
    uploader = make_user("uploader", "organiser", uploaded)
    grant_event_creation(uploader)
    upload = json.dumps(another_event("uploaded"), ensure_ascii=False).encode()
    return Stage(uploaded.slug, True, lambda: fn(upload, user=uploader, replace=True))


# The tests --------------------------------------------------------------------------------


def test_every_write_service_has_a_scenario():
    found = set(write_services())
    assert sorted(found - set(SCENARIOS) - set(STEPS)) == []
    # Nothing here is stale: a renamed service leaves no scenario behind.
    assert sorted((set(SCENARIOS) | set(STEPS)) - found) == []
    assert not set(QUIET_WRITES) & (set(SCENARIOS) | set(STEPS))


@pytest.mark.parametrize("place", sorted(SCENARIOS))
def test_committing_a_write_service_moves_its_events_version(place, event, people, django_capture_on_commit_callbacks):
    stage = SCENARIOS[place](service(place), event, people)

    def versions():
        target = Event.objects.filter(slug=stage.slug).first()
        return (current_version(target), current_version(target, public=True)) if target else (None, None)

    results, public = versions()
    with django_capture_on_commit_callbacks(execute=True):
        stage.act()
    after_results, after_public = versions()
    assert after_results != results, f"{place} committed without moving the results version"
    if stage.public:
        assert after_public != public, f"{place} changed what the public sees without moving the public version"
