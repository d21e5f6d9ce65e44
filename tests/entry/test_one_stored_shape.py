"""Every game's deal is stored alike: whole, in `Deal.game_data` (docs/architecture.md, "The game
layer in the core"). 华牌's cards, holders, exposures and penalties moved there from columns of
their own; the migration carries a stored event's deals across, and back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.archive.database import import_archive
from scoring.models import Deal
from scoring.results.standings_json import standings_json
from tests.archives import four_pairs_two_rounds

BEFORE = [("scoring", "0035_backup")]
AFTER = [("scoring", "0036_every_deal_in_game_data")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_a_huapai_deal_into_game_data_and_back():
    old = _migrate(BEFORE)
    event = old.get_model("scoring", "Event").objects.create(slug="old-cards", name="旧牌", kind="pairs")
    rnd = old.get_model("scoring", "Round").objects.create(event=event, number=1, status="official")
    match = old.get_model("scoring", "Match").objects.create(round=rnd, number=1)
    table = old.get_model("scoring", "Table").objects.create(round=rnd, match=match, number=1, token_digest="x" * 64)
    captured = {"N": ["SQ", "HA"], "E": ["DJ"], "S": ["C10"], "W": []}
    old.get_model("scoring", "Deal").objects.create(
        table=table,
        board=1,
        sequence=1,
        captured=captured,
        holders={"SQ": "N"},
        exposed={"SQ": "shown"},
        penalties={"E": -30},
        score_n=-100,
    )
    # Another game's deal was already whole: it is left as it was.
    old.get_model("scoring", "Deal").objects.create(
        table=table, board=2, sequence=2, game_data={"landlord": "N", "bid": 3}, score_n=3
    )

    _migrate(AFTER)
    moved = Deal.objects.get(table__round__event__slug="old-cards", board=1)
    assert moved.game_data == {
        "captured": captured,
        "holders": {"SQ": "N"},
        "exposed": {"SQ": "shown"},
        "penalties": {"E": -30},
    }
    assert moved.penalties == {"E": -30} and moved.score_n == -100
    assert Deal.objects.get(table__round__event__slug="old-cards", board=2).game_data == {"landlord": "N", "bid": 3}

    back = _migrate(BEFORE)
    restored = back.get_model("scoring", "Deal").objects.get(table__round__event__slug="old-cards", board=1)
    assert (restored.captured, restored.holders, restored.exposed) == (captured, {"SQ": "N"}, {"SQ": "shown"})
    assert restored.game_data is None
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_huapai_deal_is_kept_whole_like_any_games_and_read_back_as_entered():
    event = import_archive(four_pairs_two_rounds())
    for deal in Deal.objects.filter(table__round__event=event):
        assert set(deal.game_data) == {"captured", "holders", "exposed", "penalties"}
        assert deal.as_deal_json() == deal.game_data and deal.as_deal_json() is not deal.game_data
        assert deal.penalties == deal.game_data["penalties"]
    assert standings_json(event)["rows"]
