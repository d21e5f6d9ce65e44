"""The warmer (scoring/cache/warmup.py) warms a publication outside any request: the write
starts no thread, and the warmer's next pass finds the moved public version and warms it."""

import threading

import pytest

import scoring.cache.warmup
import scoring.results.standings
import scoring.results.statistics
from scoring.cache import announce_results_changed
from scoring.cache.flight import alone
from scoring.cache.results import stored_items
from scoring.cache.versions import current_version
from scoring.cache.warmup import Warmer
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Table
from scoring.results.standings import event_standings
from scoring.results.statistics import event_player_statistics
from scoring.rounds.publication import round_publish
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


def _play_round_three(event, people):
    for table in Table.objects.filter(round__event=event, round__number=3):
        for board in range(1, event.match_length + 1):
            deal, _ = deal_save(table=table, board=board, deal_json=example_deal(), user=people["referee1"])
            deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return event.rounds.get(number=3)


def test_a_publication_starts_no_thread_and_the_warmers_next_pass_warms_it(
    event, people, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.HUAPAI_WARM_IN_BACKGROUND = True
    warmer = Warmer()
    assert warmer.run_pass() == []  # the first pass notes the versions
    rnd = _play_round_three(event, people)
    threads_before = set(threading.enumerate())
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(rnd, user=people["organiser"])
    assert set(threading.enumerate()) == threads_before
    assert stored_items(event, "player-stats", [], public=True) is None  # nothing warmed by the write

    assert warmer.run_pass() == [event.pk]

    def no_computing(*args, **kwargs):
        raise AssertionError("computed after the warm-up")

    monkeypatch.setattr(scoring.results.standings, "_compute", no_computing)
    monkeypatch.setattr(scoring.results.statistics, "player_statistics", no_computing)
    assert [row.id for row in event_standings(event, published_only=True)]
    assert event_player_statistics(event)
    assert stored_items(event, "player-stats", [], public=True) is not None
    assert warmer.run_pass() == []  # nothing moved since


def test_without_background_warming_the_announcement_warms_after_the_commit(
    event, people, settings, django_capture_on_commit_callbacks
):
    settings.HUAPAI_WARM_IN_BACKGROUND = False
    rnd = _play_round_three(event, people)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(rnd, user=people["organiser"])
    assert stored_items(event, "player-stats", [], public=True) is not None


def test_a_warm_up_warms_again_when_a_publication_came_during_it(event, monkeypatch):
    """The second publication's warm-up finds the event taken and leaves; the running one sees
    the public version moved and warms again, until it stands still."""
    warmed = []

    def warm_and_publish_during_the_first(warmed_event):
        warmed.append(current_version(warmed_event, public=True))
        if len(warmed) == 1:
            announce_results_changed(warmed_event, public=True)  # a publication while this pass runs
            scoring.cache.warmup.warm_event_id(warmed_event.pk)  # its own warm-up: the event is taken

    monkeypatch.setattr(scoring.cache.warmup, "warm_event", warm_and_publish_during_the_first)
    scoring.cache.warmup.warm_event_id(event.pk)
    assert len(warmed) == 2 and warmed[1] > warmed[0]
    with alone(f"warming:{event.pk}") as free:
        assert free  # released
