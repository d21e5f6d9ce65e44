"""The end of an event for its organiser: the final standings, whether they are final, and the
awards order.

The standings are the published ones (what the results say officially). With a final stage the
order at the top is the final stage's — a knockout's placings 1–4 (the other finalists share the
next place), a final round robin's table — and the other entrants follow in the main part's order.
Prizes go to entrants that did not withdraw (as places in a final stage do,
`scoring.rounds.final_stage.finalists`): the next entrant moves up (`scoring.engine.awards`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.awards import awards_order
from scoring.engine.brackets import StageKind
from scoring.models import Entrant, Round
from scoring.results.cross_table import ranks_among
from scoring.results.labels import standings_rows
from scoring.results.standings import event_standings
from scoring.rounds.final_stage import stage_summary

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Event


def final_results(event: Event, *, places: int, language: str) -> dict[str, bool | list[Any]]:
    """`{"final", "rounds_not_official", "stage_undecided", "rows", "awards"}`: `rows` are
    standings rows (dicts) in the final order, each with "withdrawn_after"; `awards` is
    `[(place, [row])]` from the last prize to the first (`awards_order`)."""
    rounds = list(event.rounds.order_by("number"))
    published = [r for r in rounds if r.is_published]
    withdrawn = dict(
        Entrant.objects.filter(event=event, withdrawn_after_round__isnull=False).values_list(
            "code", "withdrawn_after_round"
        )
    )
    rows = standings_rows(event, event_standings(event, published_only=True), language) if published else []
    rows = _in_the_event(event, rows, published)
    rows, undecided = _with_final_stage(event, rows)
    for row in rows:
        row["withdrawn_after"] = withdrawn.get(row["id"])
    return {
        "final": event.is_finished,
        "rounds_not_official": [r.number for r in rounds if r.status != Round.Status.OFFICIAL],
        "stage_undecided": undecided,
        "rows": rows,
        "awards": [] if undecided else awards_order(rows, places=places, withdrawn=withdrawn),
    }


def _in_the_event(event: Event, rows: list[dict[str, int | str]], published: list[Round]) -> list[dict[str, int | str]]:
    """The rows of entrants in the event by the last published round (a late entry that has not
    played a published round is not placed), ranked among themselves."""
    last = max((r.number for r in published), default=0)
    late = set(Entrant.objects.filter(event=event, joined_round__gt=last).values_list("code", flat=True))
    kept = [row for row in rows if row["id"] not in late]
    rank_of = ranks_among({row["id"]: row["rank"] for row in kept}, [row["id"] for row in kept])
    return [dict(row, rank=rank_of[row["id"]]) for row in kept]


def _with_final_stage(event: Event, rows: list[dict[str, int | str]]) -> tuple[list[Any], bool]:
    """`(rows in the final order, whether the final stage is still undecided)`."""
    summary = stage_summary(event, public=True)
    if summary is None:
        return rows, False
    finalists = list(summary["seeds"])
    if summary["kind"] == StageKind.KNOCKOUT:
        if not summary["placings"]:
            return rows, True
        top = list(summary["placings"])
        placed = {code for _place, code in top}
        # A larger knockout's other finalists (beaten before the semi-finals) share the next place.
        top += [(len(top) + 1, code) for code in finalists if code not in placed]
    else:
        stage_rounds = event.rounds.filter(stage=summary["kind"])
        if not stage_rounds.exists() or stage_rounds.unpublished().exists():
            return rows, True
        top = [(row.rank, row.id) for row in summary["table"]]
    by_code = {row["id"]: row for row in rows}
    ordered = [dict(by_code[code], rank=place) for place, code in top if code in by_code]
    others = [row for row in rows if row["id"] not in set(finalists)]
    # The others keep their ties, ranked after the finalists.
    previous, rank = object(), 0
    for position, row in enumerate(others, start=len(finalists) + 1):
        if row["rank"] != previous:
            previous, rank = row["rank"], position
        ordered.append(dict(row, rank=rank))
    return ordered, False
