"""Table link states kept per table (scoring/cache/tables.py) and built by the warmer before a
round's phones ask (scoring/cache/warmup.py): a poll after the warm-up builds nothing, a
change is never answered from an older state, and two languages at one table do not replace
each other's state."""

import json

import pytest
from django.test import Client

import scoring.table_entry.state
from scoring.cache.warmup import Warmer
from scoring.models import Table
from tests.table_entry.test_table_api import Table_, code_of, example, two_board_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch):
    """Counts the states built (each a `table_state` call)."""
    built = []
    real = scoring.table_entry.state.table_state

    def counting(table, open_calls=None):
        built.append(table.number)
        return real(table, open_calls)

    monkeypatch.setattr(scoring.table_entry.state, "table_state", counting)
    return built


def test_the_warmer_builds_every_table_state_of_a_round_played_by_players(builds):
    event = two_board_round()
    warmer = Warmer()
    warmer.run_pass()
    assert builds == [1]
    phone = Table_(Client(), Table.objects.get(round__event=event, number=1))
    answer = phone.state()
    assert answer.status_code == 200 and [b["status"] for b in answer.json()["boards"]] == ["empty", "empty"]
    assert builds == [1]  # answered from the warm-up
    warmer.run_pass()
    assert builds == [1]  # a round is warmed once per warmer


def test_a_round_entered_by_referees_is_not_warmed(builds):
    two_board_round(entry="referees")
    Warmer().run_pass()
    assert builds == []


def test_a_change_is_answered_with_a_new_state_never_the_kept_one(builds):
    event = two_board_round()
    table = Table.objects.get(round__event=event, number=1)
    Warmer().run_pass()
    phone = Table_(Client(), table)
    first = phone.state()
    assert phone.put(1, {**example("T1"), "code": code_of(event, "A")}).status_code == 201
    after = phone.state()
    assert after["ETag"] != first["ETag"]
    assert [b["status"] for b in after.json()["boards"]] == ["draft", "empty"]
    assert builds == [1, 1]
    # Its other phones get the state just built.
    assert json.loads(Table_(Client(), table).state().content) == after.json()
    assert builds == [1, 1]


def test_two_languages_at_one_table_each_keep_their_state(builds):
    event = two_board_round()
    table = Table.objects.get(round__event=event, number=1)
    chinese, english = Client(headers={"Accept-Language": "zh-CN"}), Client(headers={"Accept-Language": "en"})
    for _ in range(3):
        assert Table_(chinese, table).state().status_code == 200
        assert Table_(english, table).state().status_code == 200
    assert builds == [1, 1]  # once each, not at every poll
