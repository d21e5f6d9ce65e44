"""The `manage.py standings --json` document (event-archive.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.models import Round
from scoring.results.standings import event_standings

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Event


def standings_json(event: Event, *, published_only: bool = False, after_round: int | None = None) -> dict[str, Any]:
    """The `manage.py standings --json` document of event-archive.md."""
    rows = event_standings(event, published_only=published_only, after_round=after_round)
    rounds = Round.objects.filter(event=event, stage="")
    if published_only:
        rounds = rounds.published()
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    return {
        "event": event.slug,
        "kind": event.kind,
        "rounds": rounds.count(),
        "rows": [row.as_json(event.kind) for row in rows],
    }
