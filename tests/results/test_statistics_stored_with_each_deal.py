"""Players' statistics are summed from what each deal stored when it was scored: the same
figures as scoring every deal again (which a deal stored before the figures were kept still
is), and no deal scored to compute them."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.archive.database import import_archive
from scoring.games.huapai import stored as stored_module
from scoring.games.huapai.samples import random_deal
from scoring.models import Deal
from scoring.results import statistics
from tests.archives import pairs_archive

pytestmark = pytest.mark.django_db


def random_event(seed, ruleset="huapai"):
    rng = random.Random(seed)
    codes = ["A", "B", "C", "D"]
    rounds = []
    for number, pairing in enumerate([("A", "B", "C", "D"), ("A", "C", "B", "D")], start=1):
        matches = []
        for home, away in (pairing[:2], pairing[2:]):
            deals = []
            for board in range(1, 5):
                deal = random_deal(rng, ruleset)
                deal.pop("ruleset", None)
                deals.append({"board": board, **deal})
            matches.append({"table": len(matches) + 1, "ns": home, "ew": away, "deals": deals})
        rounds.append({"number": number, "status": "official", "matches": matches})
    archive = pairs_archive(codes, rounds, slug=f"stats-{seed}", length=4)
    archive["event"]["ruleset"] = ruleset
    # Hypothesis runs its examples in one test's transaction, and may draw a seed twice (with
    # another rule set, or again to replay a failure): the same slug then replaces the event.
    return import_archive(archive, replace=True)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), ruleset=st.sampled_from(["huapai", "online-2deck", "family"]))
def test_the_stored_figures_sum_to_what_scoring_every_deal_again_gives(seed, ruleset):
    event = random_event(seed, ruleset)
    assert not Deal.objects.filter(table__round__event=event, seat_stats=None).exists()
    from_stored = statistics.player_statistics(event)
    Deal.objects.filter(table__round__event=event).update(seat_stats=None)  # as deals stored before
    rescored = statistics.player_statistics(event)
    assert from_stored == rescored
    assert sum(stats.deals for stats in from_stored.values()) == 4 * 16


def test_no_deal_is_scored_to_sum_the_statistics(monkeypatch):
    event = random_event(7)

    def refuse(*args, **kwargs):
        raise AssertionError("a deal was scored again")

    monkeypatch.setattr(stored_module, "score_stored", refuse)
    monkeypatch.setattr("scoring.games.huapai.player_stats.score_stored", refuse)
    figures = statistics.player_statistics(event)
    assert figures and sum(stats.deals for stats in figures.values()) == 64
