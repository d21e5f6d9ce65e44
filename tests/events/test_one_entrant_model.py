"""Every ranked unit is an entrant: pairs, teams, and one-player entrants in individual events."""

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.models import Entrant, Match, Player
from scoring.results.standings_json import standings_json
from scoring.rounds.creation import round_pair
from tests.archives import individual_archive

pytestmark = pytest.mark.django_db


def individual_with_a_bye():
    return individual_archive(count=5, bye="p05")


def test_an_individual_event_ranks_one_player_entrants_with_the_players_numbers():
    event = import_archive(individual_with_a_bye())
    entrants = {e.code: [p.code for p in e.players.all()] for e in Entrant.objects.filter(event=event)}
    assert entrants == {f"p0{i}": [f"p0{i}"] for i in range(1, 6)}
    bye = Match.objects.get(round__event=event, bye__isnull=False)
    assert bye.bye.code == "p05"
    rows = {row["id"]: row for row in standings_json(event)["rows"]}
    assert set(rows) == {f"p0{i}" for i in range(1, 6)}


def test_the_archive_of_an_individual_event_is_written_back_as_before():
    archive = individual_with_a_bye()
    event = import_archive(archive)
    exported = export_archive(event)
    assert "pairs" not in exported and "teams" not in exported
    assert [p["id"] for p in exported["players"]] == [p["id"] for p in archive["players"]]
    assert exported["rounds"][0]["matches"][1] == {"bye": "p05"}


def test_pairing_an_individual_round_gives_byes_to_entrants():
    archive = individual_with_a_bye()
    event = import_archive(archive)
    rnd = round_pair(event, "swiss")[0]
    byes = list(Match.objects.filter(round=rnd, bye__isnull=False))
    assert len(byes) == 1 and isinstance(byes[0].bye, Entrant)
    assert Player.objects.filter(event=event, code=byes[0].bye.code).exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_stored_individual_players_and_byes_into_entrants():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    before = [("scoring", "0004_validated_codes_and_slugs")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    event = old.get_model("scoring", "Event").objects.create(slug="old-ind", name="旧", kind="individual")
    player_model = old.get_model("scoring", "Player")
    alone = player_model.objects.create(event=event, code="q1", name="甲", sort_key="jia")
    player_model.objects.create(event=event, code="q2", name="乙", sort_key="yi")
    rnd = old.get_model("scoring", "Round").objects.create(event=event, number=1, status="official")
    old.get_model("scoring", "Match").objects.create(round=rnd, number=1, bye_player=alone)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(Entrant.objects.filter(event__slug="old-ind").values_list("code", flat=True)) == ["q1", "q2"]
    assert Match.objects.get(round__event__slug="old-ind").bye.code == "q1"


def test_an_individual_players_page_shows_each_table_from_their_own_seat(client):
    """p02 sat East at table 1 (example T1): the page says EW and gives EW's score as its own."""
    from tests.archives import sides

    event = import_archive(individual_archive())
    event.rounds.update(status="official")
    page = client.get(f"/events/{event.slug}/entrants/p02/").text
    expected = sides("T1")
    assert "EW · " in page
    assert f"本方 {expected['EW']} : {expected['NS']} 对方" in page
    north = client.get(f"/events/{event.slug}/entrants/p01/").text
    assert "NS · " in north and f"本方 {expected['NS']} : {expected['EW']} 对方" in north
