"""Table link states kept per table (scoring/cache/tables.py) and built by the warmer before a
round's phones ask (scoring/cache/warmup.py): a poll after the warm-up builds nothing, a
change is never answered from an older state, and two languages at one table do not replace
each other's state."""

import json

import pytest
from django.test import Client

import scoring.table_entry.state
from scoring.archive.database import import_archive
from scoring.cache.warmup import Warmer
from scoring.entry.services import deal_save
from scoring.models import Table
from tests.archives import pairs_archive
from tests.referee_setup import make_user
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


@pytest.fixture
def rows_computed(monkeypatch):
    """Counts the grid rows computed (`table_rows`)."""
    import scoring.table_entry.grid

    computed = []
    real = scoring.table_entry.grid.table_rows

    def counting(rnd, table_ids=None):
        rows = real(rnd, table_ids)
        computed.extend(rows)
        return rows

    monkeypatch.setattr(scoring.table_entry.grid, "table_rows", counting)
    return computed


@pytest.mark.parametrize("entry", ["players", "referees"])
def test_the_warmer_keeps_the_referees_grid_of_a_round_in_play_computed(entry, rows_computed, monkeypatch):
    import scoring.cache.warmup

    event = two_board_round(entry=entry)
    rnd = event.rounds.get(number=1)
    clock = [1000.0]
    monkeypatch.setattr(scoring.cache.warmup.time, "monotonic", lambda: clock[0])
    warmer = Warmer()
    warmer.run_pass()
    assert len(rows_computed) == 1  # the round's one table
    from scoring.table_entry.grid import round_grid

    grid = round_grid(rnd)
    assert [row["number"] for row in grid.rows] == [1] and len(rows_computed) == 1  # nothing computed again
    # A table acts: the next refresh (not before its interval) computes that row only.
    table = Table.objects.get(round=rnd, number=1)
    deal_save(table=table, board=1, deal_json=example("T1"), user=make_user("referee9", "referee", event))
    warmer.run_pass()
    assert len(rows_computed) == 1
    clock[0] += scoring.cache.warmup.GRID_REFRESH_SECONDS
    warmer.run_pass()
    assert len(rows_computed) == 2
    assert round_grid(rnd).rows[0]["state"] != grid.rows[0]["state"] and len(rows_computed) == 2


def test_a_rounds_first_deal_leaves_the_other_tables_states_as_they_were(builds):
    """The first deal puts a paired round in play; the other tables' links are open the same way
    before and after, so their states (and ETags) stay: a hall's phones do not all fetch theirs
    again at that moment."""
    rounds = [
        {
            "number": 1,
            "status": "scheduled",
            "matches": [
                {"table": 1, "ns": "A", "ew": "B", "deals": []},
                {"table": 2, "ns": "C", "ew": "D", "deals": []},
            ],
        }
    ]
    archive = pairs_archive(["A", "B", "C", "D"], rounds, length=2)
    archive["event"]["entry"] = "players"
    event = import_archive(archive)
    rnd = event.rounds.get(number=1)
    assert rnd.status == "scheduled"
    one, two = (Table.objects.get(round=rnd, number=n) for n in (1, 2))
    before = Table_(Client(), two).state()
    assert before.json()["round"]["status"] == "in_play"  # open to the players, as in play
    assert Table_(Client(), one).put(1, {**example("T1"), "code": code_of(event, "A")}).status_code == 201
    rnd.refresh_from_db()
    assert rnd.status == "in_play"
    after = Table_(Client(), two).state()
    assert after["ETag"] == before["ETag"] and after.content == before.content
