"""Calls, rulings and appeals in each game's own seats, kinds and outcomes (`Game.call_kinds`,
`Game.call_outcomes`, `Game.seats`, `Game.sides`): 跑胡子's table of three has no North and no
claims, a game without penalty points is never ruled a penalty (refused in words before anything
is stored, not accepted and then dropped when the deal is saved), and whoever is seated at a
table — a pair, or a player where everyone plays alone — may appeal. Parametrised over the
registry, so that a new game inherits every check (it must add its event below)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.archive.database import import_archive
from scoring.entry.errors import EntryError
from scoring.entry.services import irregularity_record
from scoring.games import GAMES
from scoring.games import calls as game_calls
from scoring.models import Appeal, Deal, Entrant, Event, Irregularity, RefereeCall, Round, Table
from scoring.rulings.appeals import appeal_lodge
from scoring.rulings.calls import call_open, call_rule
from scoring.table_entry.codes import side_entrants
from tests.archives import (
    DOUDIZHU,
    PAOHUZI,
    SHENGJI,
    doudizhu_archive,
    individual_archive,
    paohuzi_archive,
    shengji_archive,
)
from tests.conftest import build_event
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

FOUR = ("N", "E", "S", "W")


def _huapai_pairs():
    return build_event(), 3


def _doudizhu():
    return import_archive(doudizhu_archive(tables={1: (), 2: ()}, status="in_play")), 1


def _shengji():
    return import_archive(shengji_archive(table_one=[], table_two=[], status="in_play")), 1


def _paohuzi():
    return import_archive(paohuzi_archive(tables={1: (), 2: ()}, status="in_play")), 1


def _from_the_conformance_suite(game_id):
    """Any other registered game (the conformance suite's fifth): the suite's own event of it."""
    from tests.conformance.setting import archive_of, settings_of_every_game

    setting = next(setting for setting in settings_of_every_game() if setting.game_id == game_id)
    return import_archive(archive_of(setting, status="in_play")), 1


# An event of each registered game with a round in play and a table 1 without deals.
EVENTS = {"huapai": _huapai_pairs, DOUDIZHU: _doudizhu, SHENGJI: _shengji, PAOHUZI: _paohuzi}
for _game_id in GAMES:
    EVENTS.setdefault(_game_id, lambda game_id=_game_id: _from_the_conformance_suite(game_id))


def test_every_registered_game_has_an_event_here():
    assert set(EVENTS) == set(GAMES) and "jiaodun" in EVENTS


class Setting:
    def __init__(self, game_id):
        self.event, number = EVENTS[game_id]()
        self.game = GAMES[game_id]
        self.round = Round.objects.get(event=self.event, number=number)
        self.table = Table.objects.select_related("round__event").get(round=self.round, number=1)
        self.referee = make_user(f"ref-{game_id}", "referee", self.event)

    def published(self):
        Round.objects.filter(pk=self.round.pk).update(
            status="provisional", published_at=timezone.now() - timedelta(minutes=1)
        )
        self.round.refresh_from_db()
        self.table = Table.objects.select_related("round__event").get(pk=self.table.pk)
        return self.table

    def client(self):
        client = Client()
        client.force_login(self.referee)
        return client

    def url(self, suffix=""):
        return f"/referee/{self.event.slug}/rounds/{self.round.number}/{suffix}"


@pytest.fixture(params=sorted(GAMES))
def setting(request):
    return Setting(request.param)


def test_each_game_names_its_kinds_of_call_and_outcomes_among_the_stored_ones():
    for game in GAMES.values():
        assert game.call_kinds and set(game.call_kinds) <= set(RefereeCall.Kind.values) - {"dispute"}
        assert game.call_outcomes and set(game.call_outcomes) <= set(RefereeCall.Outcome.values)
        assert (game_calls.PENALTY in game.call_outcomes) == game.takes_penalties
        assert game_calls.OTHER in game.call_kinds and game_calls.NOTHING in game.call_outcomes
        # The 华牌-only procedures are 华牌's: claims with point cards, its exposures, its draw.
        if not game.takes_penalties:
            assert not {"claim", "late_exposure", "early_play"} & set(game.call_kinds)
            assert game_calls.DRAWN_BACK not in game.call_outcomes


ABSENT_KINDS = [
    (game_id, kind)
    for game_id, game in sorted(GAMES.items())
    for kind in RefereeCall.Kind.values
    if kind != "dispute" and kind not in game.call_kinds
]


@pytest.mark.parametrize(("game_id", "kind"), ABSENT_KINDS)
def test_a_call_of_a_kind_the_game_does_not_have_is_refused_at_the_referees_and_the_tables_door(game_id, kind):
    setting = Setting(game_id)
    with pytest.raises(EntryError) as refused:
        call_open(table=setting.table, user=setting.referee, kind=kind, board=1)
    assert refused.value.code == "bad_kind" and str(GAMES[game_id].name) in refused.value.message
    Event.objects.filter(pk=setting.event.pk).update(entry="players")
    answer = Client().post(
        f"/t/{setting.table.token}/call",
        {"kind": kind, "note": "?"},
        content_type="application/json",
        headers={"Idempotency-Key": "call-1"},
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_kind"
    assert not RefereeCall.objects.exists()


def test_a_call_names_the_games_seats_only(setting):
    seats = setting.game.seats
    call = call_open(table=setting.table, user=setting.referee, kind="other", seats=" ".join(reversed(seats)).lower())
    assert call.seats == "".join(seats)
    for absent in set(FOUR) - set(seats):  # 跑胡子: North is empty
        with pytest.raises(EntryError) as refused:
            call_open(table=setting.table, user=setting.referee, kind="other", seats=absent)
        assert refused.value.code == "unknown_seat"


def test_a_penalty_is_refused_up_front_where_the_game_has_no_penalty_points(setting):
    """Before the fix a 罚分 ruled on a board not yet entered was accepted, then left out when
    the deal was saved while its irregularity stayed attached."""
    call = call_open(table=setting.table, user=setting.referee, kind=setting.game.call_kinds[-1], board=1)
    seat = setting.game.seats[-1]
    if setting.game.takes_penalties:
        call_rule(call=call, user=setting.referee, outcome="penalty", ruling="罚", penalty_seat=seat, penalty=-50)
        assert RefereeCall.objects.get(pk=call.pk).penalty == -50
        return
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=setting.referee, outcome="penalty", ruling="罚", penalty_seat=seat, penalty=-50)
    assert refused.value.code == "no_penalties" and str(setting.game.name) in refused.value.message
    stored = RefereeCall.objects.get(pk=call.pk)
    assert stored.ruled_at is None and stored.outcome == "" and stored.penalty == 0
    assert call.ruled_at is None and not Irregularity.objects.exists()


@pytest.mark.parametrize(
    ("game_id", "outcome"),
    [
        (game_id, outcome)
        for game_id, game in sorted(GAMES.items())
        for outcome in RefereeCall.Outcome.values
        if outcome not in game.call_outcomes and outcome != "penalty"
    ],
)
def test_an_outcome_the_game_does_not_have_is_refused(game_id, outcome):
    setting = Setting(game_id)
    call = call_open(table=setting.table, user=setting.referee, kind="wrong_card_count", board=1)
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=setting.referee, outcome=outcome, ruling="x")
    assert refused.value.code == "bad_outcome"
    assert RefereeCall.objects.get(pk=call.pk).ruled_at is None


def test_the_call_pages_offer_the_games_kinds_outcomes_and_seats(setting):
    client = setting.client()
    listing = client.get(setting.url("calls/")).content.decode()
    offered = set(RefereeCall.Kind.values) - {"dispute"}
    for kind in offered:
        assert (f'<option value="{kind}"' in listing) == (kind in setting.game.call_kinds), kind
    call = call_open(table=setting.table, user=setting.referee, kind="other", board=1)
    page = client.get(setting.url(f"calls/{call.pk}/")).content.decode()
    for outcome in RefereeCall.Outcome.values:
        assert (f'name="outcome" value="{outcome}"' in page) == (outcome in setting.game.call_outcomes), outcome
    assert ('name="penalty_seat"' in page) == setting.game.takes_penalties
    assert ("<option>N</option>" in page) == ("N" in setting.game.seats and setting.game.takes_penalties)


def test_a_refused_ruling_leaves_the_page_with_the_error_and_the_unchanged_call(setting):
    """The 跑胡子 page used to show "裁决 罚分 S -10", "not counted on entry [apply now]" and an
    appeal link under the refusal, for a ruling that was never stored."""
    client = setting.client()
    call = call_open(table=setting.table, user=setting.referee, kind="other", board=1)
    # An outcome the game has not (a penalty without penalty points; 华牌: a draw-back for "other").
    outcome = "drawn_back" if setting.game.takes_penalties else "penalty"
    seat = setting.game.seats[1]
    form = {"outcome": outcome, "ruling": "罚 10", "penalty_seat": seat, "penalty": "10"}
    page = client.post(setting.url(f"calls/{call.pk}/"), form, follow=True).content.decode()
    assert 'id="call-ruling"' not in page and 'id="penalty-pending"' not in page
    assert 'id="appeal-this-ruling"' not in page and 'id="call-rule"' in page  # the form, to rule again
    assert "errorlist" in page or "messages" in page
    assert RefereeCall.objects.get(pk=call.pk).ruled_at is None


def test_the_table_page_offers_its_games_reasons_to_call_a_referee(setting):
    Event.objects.filter(pk=setting.event.pk).update(entry="players")
    page = Client().get(f"/t/{setting.table.token}/").content.decode()
    box = page[page.index('id="call-form"') : page.index('id="appeal-box"')]
    for kind in set(RefereeCall.Kind.values) - {"dispute"}:
        if kind not in setting.game.call_kinds:
            assert f'value="{kind}"' not in box, kind
    assert 'value="other"' in box


def _appellants(table):
    return [entrant for _side, entrant in side_entrants(table)]


def test_every_entrant_seated_at_the_table_may_appeal_and_nobody_else(setting):
    table = setting.published()
    seated = _appellants(table)
    expected = len(setting.game.seats) if len(setting.game.sides) == len(setting.game.seats) else 2
    assert len(seated) == expected
    for entrant in seated:
        appeal = appeal_lodge(table=table, statement="异议", board=1, entrant=entrant, user=setting.referee)
        assert appeal.entrant_id == entrant.pk and appeal.filed_by == entrant.code
    stranger = Entrant.objects.filter(event=setting.event).exclude(pk__in=[e.pk for e in seated]).first()
    with pytest.raises(EntryError) as refused:
        appeal_lodge(table=table, statement="异议", entrant=stranger, user=setting.referee)
    assert refused.value.code == "bad_side"
    alone = len(setting.game.sides) == len(setting.game.seats)
    assert ("选手" in refused.value.message) == alone and ("一方" in refused.value.message) != alone


def test_the_referees_appeal_form_offers_the_tables_entrants_and_lodges_for_one(setting):
    table = setting.published()
    client = setting.client()
    page = client.get(setting.url("appeals/") + "?table=1").content.decode()
    seated = _appellants(table)
    for entrant in seated:
        assert f'<option value="{entrant.code}"' in page
    assert 'name="side"' not in page
    chosen = seated[-1]
    answer = client.post(setting.url("appeals/"), {"table": 1, "board": 1, "entrant": chosen.code, "statement": "异议"})
    assert answer.status_code == 302, answer.content.decode()
    assert Appeal.objects.get().entrant_id == chosen.pk


def test_a_player_appeals_from_the_table_link_with_his_own_code(setting):
    Event.objects.filter(pk=setting.event.pk).update(entry="players")
    table = setting.published()
    last = _appellants(table)[-1]
    answer = Client().post(
        f"/t/{table.token}/appeal",
        {"code": last.access_code, "statement": "第 1 副有误", "board": 1},
        content_type="application/json",
        headers={"Idempotency-Key": "appeal-1"},
    )
    assert answer.status_code == 201, answer.content.decode()
    assert Appeal.objects.get().entrant_id == last.pk


def test_a_player_of_a_huapai_individual_event_may_appeal():
    event = import_archive({**individual_archive(), "rounds": [{**individual_archive()["rounds"][0]}]})
    rnd = Round.objects.get(event=event, number=1)
    Round.objects.filter(pk=rnd.pk).update(status="provisional", published_at=timezone.now())
    table = Table.objects.select_related("round__event").get(round=rnd, number=1)
    referee = make_user("ref-ind", "referee", event)
    west = Entrant.objects.get(event=event, code="p04")
    appeal = appeal_lodge(table=table, statement="异议", board=1, entrant=west, user=referee)
    assert appeal.entrant_id == west.pk


def test_a_table_of_players_alone_is_spoken_to_as_players_not_sides(setting):
    """Sign-off, codes and the table page say 选手 (player) where everyone plays alone, 方 (side)
    only where partners score together."""
    Event.objects.filter(pk=setting.event.pk).update(entry="players")
    alone = len(setting.game.sides) == len(setting.game.seats)
    client = Client()
    base = f"/t/{setting.table.token}/"
    page = client.get(base).content.decode()
    assert ("本方录入码" in page) != alone and ("修改（录入方）" in page) != alone
    # A wrong code on a write that needs one (a call for a referee is never refused for its code).
    wrong = client.post(
        base + "signoff", {"code": "WRONG-CODE"}, content_type="application/json", headers={"Idempotency-Key": "w-1"}
    ).json()["error"]["message"]
    assert ("一位选手" in wrong) == alone and ("一方" in wrong) != alone
    if alone:
        first, second = _appellants(setting.table)[:2]
        sides = {entrant.pk: side for side, entrant in side_entrants(setting.table)}
        other = client.post(
            base + "signoff",
            {"code": first.access_code, "side": sides[second.pk]},
            content_type="application/json",
            headers={"Idempotency-Key": "s-1"},
        ).json()["error"]
        assert other["code"] == "other_side" and "方" not in other["message"].replace("录入码", "")


def test_the_table_check_page_and_history_name_the_games_seats_only(setting):
    """No "北 N" nor "N/E/S/W 0 / 48 / -24 / -24" at 跑胡子's table of three."""
    seats = setting.game.seats
    if "not_played" in setting.game.call_outcomes:
        call = call_open(table=setting.table, user=setting.referee, kind="wrong_card_count", board=1)
        call_rule(call=call, user=setting.referee, outcome="not_played", ruling="来不及重新发牌")
    page = setting.client().get(setting.url("tables/1/confirm/")).content.decode()
    line = page[page.index('class="explain seats-line"') :]
    line = line[: line.index("</p>")]
    assert [seat for seat in FOUR if f" {seat} " in line] == list(seats)
    assert ("北" in line) == ("N" in seats)
    if "not_played" in setting.game.call_outcomes:
        assert f"· {'/'.join(seats)} " in page and ("N/E/S/W" in page) == ("N" in seats)


def test_an_irregularity_on_a_deal_is_of_the_games_kinds_only(setting):
    """The board page's "record an irregularity" offered 华牌's exposures at every game."""
    if "not_played" not in setting.game.call_outcomes:
        pytest.skip("a deal of this game needs its match: the page's list is checked through the call pages")
    call = call_open(table=setting.table, user=setting.referee, kind="other", board=1)
    call_rule(call=call, user=setting.referee, outcome="not_played", ruling="没有打")
    deal = Deal.objects.get(table=setting.table, board=1)
    page = setting.client().get(setting.url("tables/1/boards/1/")).content.decode()
    box = page[page.index('class="irregularity"') :]
    box = box[: box.index("</form>")]
    for kind in Irregularity.Kind.values:
        assert (f'value="{kind}"' in box) == (kind in setting.game.call_kinds), kind
        if kind in setting.game.call_kinds:
            continue
        with pytest.raises(EntryError) as refused:
            irregularity_record(
                deal=deal,
                user=setting.referee,
                seat="",
                kind=kind,
                ruling="x",
                penalty=0,
                expected_version=deal.version,
            )
        assert refused.value.code == "bad_kind"


def test_the_late_play_penalty_is_offered_only_where_the_game_has_penalty_points(setting, monkeypatch):
    import scoring.web.referee.board_views

    if "not_played" in setting.game.call_outcomes:  # a deal on board 1, whatever the game
        call = call_open(table=setting.table, user=setting.referee, kind="other", board=1)
        call_rule(call=call, user=setting.referee, outcome="not_played", ruling="没有打")
    setting.event.extra = {**setting.event.extra, "round_minutes": 90, "late_penalty": -50}
    setting.event.save()
    monkeypatch.setattr(scoring.web.referee.board_views, "late_boards", lambda rnd: {(setting.table.id, 1)})
    page = setting.client().get(setting.url("tables/1/boards/1/")).content.decode()
    assert 'id="late-board"' in page
    assert ('id="late-penalty"' in page) == setting.game.takes_penalties
