"""What the public reads shows the published rounds only (`.published()` / `.public()` in
scoring/models.py): a confirmed deal of the round still in play appears nowhere public."""

import pytest
from django.test import Client

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Table
from scoring.results.penalties import penalty_list
from scoring.results.records import entrant_record
from scoring.results.round_results import published_round
from scoring.results.standings import event_standings
from scoring.results.statistics import player_statistics
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_play(event, people):
    """Round 3's table 1 with a confirmed deal carrying a 30-point penalty; round 3 unpublished."""
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    deal_json = example_deal()
    deal_json["penalties"] = {"N": -30}
    deal, _ = deal_save(table=table, board=1, deal_json=deal_json, user=people["referee1"])
    deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return table


def test_the_querysets_hide_the_round_in_play(event, in_play):
    assert not Deal.objects.public().filter(table=in_play).exists()
    assert not Table.objects.public().filter(pk=in_play.pk).exists()
    assert Deal.objects.public().filter(table__round__event=event).count() == 4  # one a table in rounds 1 and 2


def test_an_entrants_record_lists_the_published_rounds_only(event, in_play):
    record = entrant_record(event, in_play.ns_entrant.code)
    assert [match["round"] for match in record["matches"]] == [1, 2]


def test_the_penalty_list_and_the_statistics_leave_the_round_in_play_out(event, in_play):
    assert all(row["round"] != 3 for row in penalty_list(event))
    played = sum(stats.deals for stats in player_statistics(event).values())
    assert played == 4 * 4  # four published deals, four players at each


def test_the_public_standings_and_round_pages_leave_the_round_in_play_out(event, in_play):
    public = [(row.id, row.match_points, row.total_score) for row in event_standings(event, published_only=True)]
    officials = [(row.id, row.match_points, row.total_score) for row in event_standings(event)]
    up_to_two = [(row.id, row.match_points, row.total_score) for row in event_standings(event, after_round=2)]
    assert public == up_to_two != officials  # round 3's confirmed deal counts for the officials only
    assert published_round(event, 3) is None
    assert Client().get("/events/t-pairs/rounds/3/").status_code == 404
    assert Client().get("/events/t-pairs/rounds/3/boards/1/").status_code == 404
