"""The public figures the warmer computes after a public change (`scoring.cache.warmup`, which
is handed `warm_public_figures` by `scoring.apps`)."""

from scoring.models import Event, Round
from scoring.results.labels import entrant_labels
from scoring.results.standings import standings_by_round
from scoring.results.statistics import warm_player_statistics


def warm_public_figures(event: Event) -> None:
    """The public standings after each published round (the page and standings.xlsx), the
    entrant labels and every player's statistics, each cached under the public version."""
    published = list(Round.objects.published().filter(event=event).values_list("number", flat=True))
    standings_by_round(event, published_only=True, rounds=[None, *published])
    entrant_labels(event)
    warm_player_statistics(event)
