"""One announcement (`scoring.cache.announce_results_changed`) is all a write says; the cached
pages, standings, labels and statistics follow it, and nothing else moves them."""

import pytest
from django.db import transaction
from django.db.models import F
from django.test import Client

import scoring.results.statistics
from scoring.cache import announce_results_changed
from scoring.models import Deal, Entrant
from scoring.results.labels import entrant_labels
from scoring.results.standings import event_standings
from scoring.results.statistics import event_player_statistics

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    from scoring.archive.database import import_archive
    from tests.archives import four_pairs_two_rounds

    return import_archive(four_pairs_two_rounds())


def _total(event, code):
    return next(row.total_score for row in event_standings(event, published_only=True) if row.id == code)


def _change_behind_the_cache(event):
    """A sits NS at table 1 of round 1: 1,000 more for its side, and a new name, written
    straight to the database as no service would."""
    Deal.objects.filter(table__round__event=event, table__round__number=1, table__number=1).update(
        ns_score=F("ns_score") + 1000
    )
    Entrant.objects.filter(event=event, code="A").update(name="改名之后")


def test_one_public_announcement_moves_standings_labels_statistics_and_pages(imported, monkeypatch):
    computations = []
    compute = scoring.results.statistics.player_statistics
    monkeypatch.setattr(
        scoring.results.statistics, "player_statistics", lambda *a, **k: computations.append(1) or compute(*a, **k)
    )
    before = _total(imported, "A")
    page = Client().get("/events/t-pairs/standings/")
    event_player_statistics(imported)
    _change_behind_the_cache(imported)

    assert _total(imported, "A") == before  # cached: nothing announced yet
    assert entrant_labels(imported)["A"]["name"] != "改名之后"
    assert Client().get("/events/t-pairs/standings/")["ETag"] == page["ETag"]
    event_player_statistics(imported)
    assert len(computations) == 1

    with transaction.atomic():
        announce_results_changed(imported, public=True)

    assert _total(imported, "A") == before + 1000
    assert entrant_labels(imported)["A"]["name"] == "改名之后"
    again = Client().get("/events/t-pairs/standings/")
    assert again["ETag"] != page["ETag"] and "改名之后" in again.content.decode()
    event_player_statistics(imported)
    assert len(computations) == 2


def test_an_announcement_of_an_unpublished_change_leaves_the_public_figures_alone(imported):
    before = _total(imported, "A")
    page = Client().get("/events/t-pairs/standings/")
    event_standings(imported)  # the officials' standings, cached too
    _change_behind_the_cache(imported)
    with transaction.atomic():
        announce_results_changed(imported, public=False)
    assert _total(imported, "A") == before
    assert Client().get("/events/t-pairs/standings/")["ETag"] == page["ETag"]
    # The officials' standings follow the results version, which moved.
    everything = event_standings(imported)
    assert next(row.total_score for row in everything if row.id == "A") == before + 1000
