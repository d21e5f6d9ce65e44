"""The referee hot path's hand-built SQL returns what the ORM would (scoring/entry/hot_sql.py)."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from scoring.entry.hot_sql import board_lookup, insert
from scoring.events.accounts import token_for
from scoring.models import Deal, DealHistory, Event, EventRole, Round, Table

pytestmark = pytest.mark.django_db


def field_values(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_look_up_returns_every_field_as_the_orm_reads_it(people):
    referee = people["referee1"]
    # A datetime with microseconds: SQLite stores it as text, which must come back a datetime.
    Round.objects.filter(event__slug="t-pairs", number=1).update(
        published_at=datetime(2026, 11, 22, 8, 30, 15, 123456, tzinfo=UTC)
    )
    rnd = Round.objects.get(event__slug="t-pairs", number=1)
    deal = Deal.objects.get(table__round=rnd, table__number=1, board=1)
    found = board_lookup(token=token_for(referee), slug="t-pairs", round_number=1, table_number=1, board=1)
    assert field_values(found.user) == field_values(get_user_model().objects.get(pk=referee.pk))
    assert field_values(found.event) == field_values(Event.objects.get(slug="t-pairs"))
    assert field_values(found.table.round) == field_values(rnd)
    assert field_values(found.table) == field_values(Table.objects.get(round=rnd, number=1))
    assert field_values(found.deal) == field_values(deal)
    assert found.table.round.published_at == datetime(2026, 11, 22, 8, 30, 15, 123456, tzinfo=UTC)
    assert found.table.round.event is found.event and found.deal.table is found.table
    assert found.roles == {EventRole.Role.REFEREE}


def test_what_does_not_exist_is_none(people):
    organiser = people["organiser"]
    where = {"slug": "t-pairs", "round_number": 3, "table_number": 1, "board": 1}
    assert board_lookup(token="no-such-token", **where) is None
    unknown_event = board_lookup(user=organiser, **{**where, "slug": "nope"})
    assert unknown_event.user == organiser and unknown_event.event is None and unknown_event.roles == set()
    unknown_table = board_lookup(user=organiser, **{**where, "table_number": 99})
    assert unknown_table.event.slug == "t-pairs" and unknown_table.table is None
    assert unknown_table.roles == {EventRole.Role.ORGANISER}
    nothing_entered = board_lookup(user=people["outsider"], **where)
    assert nothing_entered.table.number == 1 and nothing_entered.deal is None and nothing_entered.roles == set()


def test_insert_stores_what_save_would(people):
    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    referee = people["referee1"]
    history = insert(
        DealHistory(
            event=table.round.event,
            table=table,
            board=2,
            version=1,
            user=referee,
            action=DealHistory.Action.CREATE,
            after={"红心": ["HA"], "n": 1},
            reason="理由",
            ip="127.0.0.1",
        )
    )
    stored = DealHistory.objects.get(pk=history.pk)
    assert stored.at is not None and stored.at == history.at  # auto_now_add, as save() sets it
    assert field_values(stored) == field_values(history)
    assert stored.after == {"红心": ["HA"], "n": 1} and stored.before is None
    with pytest.raises(Exception, match="append-only"):
        history.save()  # an inserted row counts as saved: the model still refuses to update it


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1, 2**31 + 800, -3_000_000_000 + 800])
def test_a_value_beyond_a_column_is_an_error_never_a_different_number(people, value):
    """The hot path's insert, with the services' bounds bypassed: the database refuses the value
    (or, on SQLite, stores it exactly); nothing ever comes back as another number."""
    from django.db import DatabaseError, transaction

    from scoring.entry.hot_sql import create_with_history

    table = Table.objects.get(round__event__slug="t-pairs", round__number=3, number=1)
    for warm_up in range(6):  # past psycopg's prepare threshold with ordinary values first
        deal = Deal(table=table, board=warm_up + 1, sequence=warm_up + 1, game_data={}, score_n=-50)
        history = DealHistory(event=table.round.event, table=table, board=warm_up + 1, version=1, action="create")
        with transaction.atomic():
            create_with_history(deal, history, public=False, shard=table.pk)
    deal = Deal(table=table, board=10, sequence=10, game_data={}, score_n=value)
    history = DealHistory(event=table.round.event, table=table, board=10, version=1, action="create")
    try:
        with transaction.atomic():
            create_with_history(deal, history, public=False, shard=table.pk)
    except DatabaseError:
        assert not Deal.objects.filter(table=table, board=10).exists()
    else:
        assert Deal.objects.get(table=table, board=10).score_n == value


def test_the_django_version_is_the_one_the_hot_path_was_checked_against():
    """scoring/entry/hot_sql.py leans on a few Django internals (its "Django internals" section).
    When Django's version moves, re-read that section against the new version, run this
    file's tests on both databases, then update WRITTEN_FOR_DJANGO."""
    import django

    from scoring.entry.hot_sql import WRITTEN_FOR_DJANGO

    assert django.VERSION[:2] == WRITTEN_FOR_DJANGO, (
        f"Django {django.get_version()} is not {WRITTEN_FOR_DJANGO}: "
        "re-check scoring/entry/hot_sql.py's Django internals"
    )
