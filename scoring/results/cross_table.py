"""An event's cross table read from the database: every entrant of the main part against every
opponent it met, with the 场分 it won and its score difference, its byes, its rank and totals as
the standings give them. The page, the PDF and the workbook print this one structure.

Who is listed: the entrants in the event by the last round shown (a late entry appears from the
round it joined; it is not put into rounds published before it came). Withdrawn entrants stay,
marked with the round after which they withdrew: their results stand.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from django.utils import translation

from scoring.engine.cross_table import cross_table
from scoring.engine.standings import natural_key
from scoring.engine.vocabulary import Kind
from scoring.models import Entrant, Round
from scoring.results.labels import entrant_labels
from scoring.results.match_results import event_format, event_match_results
from scoring.results.standings import standings_by_round

if TYPE_CHECKING:
    from typing import Any

    from scoring.engine.cross_table import CrossLine, Meeting
    from scoring.models import Event

# Beyond this many entrants a grid of every entrant against every other is a wall of empty
# cells no page or sheet of paper can hold: the table lists each entrant's opponents by round.
GRID_LIMIT = 32


def shown_rounds(event: Event, *, published_only: bool) -> list[Round]:
    """The main part's rounds the cross table covers, in order."""
    rounds = Round.objects.filter(event=event, stage="").order_by("number")
    if published_only:
        rounds = rounds.published()
    return list(rounds)


def event_cross_table(event: Event, *, published_only: bool, language: str | None = None) -> dict[str, list[Any] | str]:
    """The cross table as plain data, or None for an individual event:

    `{"rounds": [Round], "layout": "grid" | "rounds", "entrants": [code],
      "rows": [{"code", "name", "club", "withdrawn_after", "rank", "match_points", "score_difference",
                "cells": [[meeting dict]] (grid: one list per entrant of "entrants", in that order),
                "by_round": [meeting dict, bye or None] (one per round of "rounds"), "byes": [round]}]}`

    A meeting dict: round, opponent, points, difference (None when not played yet), finished, and
    for a cell its `text` (`meeting_text`) and the difference `signed`.
    The officials' version (`published_only=False`) shows every round; its ranks and totals count
    only finished matches of unpublished rounds, as the officials' standings do.
    """
    if event.kind == Kind.INDIVIDUAL:
        return None
    with translation.override(language or translation.get_language()):
        labels = entrant_labels(event)
    rounds = shown_rounds(event, published_only=published_only)
    numbers = [rnd.number for rnd in rounds]
    published = {rnd.number for rnd in rounds if rnd.is_published}
    shown = set(numbers)
    matches = [m for m in event_match_results(event, published_only=published_only) if m.round in shown]
    lines = cross_table(event_format(event), matches, published_rounds=published)
    standings = (
        standings_by_round(event, published_only=published_only, rounds=[None], finished_only=not published_only)[None]
        if rounds
        else []
    )
    ranked = {row.id: row for row in standings}
    last = numbers[-1] if numbers else 0
    entrants = sorted(
        (
            (code, joined, withdrawn)
            for code, joined, withdrawn in Entrant.objects.filter(event=event).values_list(
                "code", "joined_round", "withdrawn_after_round"
            )
            if (joined is None and last) or (joined is not None and joined <= last) or code in lines
        ),
        key=lambda entrant: natural_key(entrant[0]),
    )
    codes = [code for code, _joined, _withdrawn in entrants]
    grid = len(codes) <= GRID_LIMIT
    rank_of = ranks_among({code: row.rank for code, row in ranked.items()}, codes)
    rows = []
    for code, _joined, withdrawn in entrants:
        line = lines.get(code)
        meetings = [_meeting(m) for m in line.meetings] if line else []
        label = labels.get(code, {})
        row = ranked.get(code)
        rows.append(
            {
                "code": code,
                "name": label.get("name", code),
                "club": label.get("club", ""),
                "withdrawn_after": withdrawn,
                "rank": rank_of.get(code),
                "match_points": row.match_points if row else 0,
                "score_difference": row.score_difference if row else 0,
                "cells": [[m for m in meetings if m["opponent"] == other] for other in codes] if grid else [],
                "by_round": [_in_round(meetings, line, number, event.points_win) for number in numbers],
                "byes": list(line.byes) if line else [],
            }
        )
    return {"rounds": rounds, "layout": "grid" if grid else "rounds", "entrants": codes, "rows": rows}


def _in_round(meetings: list[dict[str, Any]], line: CrossLine, number: int, bye_points: int) -> dict[str, Any]:
    """The entrant's meeting in round `number`, its bye (scored as a win, as the standings
    score it: `{"round", "bye": True, "points"}`), or None."""
    found = next((m for m in meetings if m["round"] == number), None)
    if found is None and line is not None and number in line.byes:
        return {"round": number, "bye": True, "points": bye_points}
    return found


def _meeting(meeting: Meeting) -> dict[str, Any]:
    found = {
        "round": meeting.round,
        "opponent": meeting.opponent,
        "points": meeting.points,
        "difference": meeting.difference,
        "finished": meeting.finished,
        "bye": False,
    }
    found["text"] = meeting_text(found)
    found["signed"] = "" if meeting.difference is None else signed(meeting.difference)
    return found


def meeting_text(meeting: dict[str, Any], *, with_opponent: bool = False) -> str:
    """A meeting in a cell: "2 / +250", the 场分 won and the score difference; "…" marks a match not finished
    (counted nowhere yet); "—" one not played yet. With the opponent: "A07 2 / +250"."""
    if meeting["points"] is None:
        text = "—"
    else:
        text = f"{meeting['points']} / {signed(meeting['difference'])}" + ("" if meeting["finished"] else " …")
    return f"{meeting['opponent']} {text}" if with_opponent else text


def signed(number: int) -> str:
    """+250, -250, 0: a difference reads with its sign."""
    return f"{number:+d}" if number else "0"


def ranks_among(ranks: dict[str, int], kept: list[str]) -> dict[str, int]:
    """{code: rank} counted among the `kept` entrants only: an entrant not yet in the event by
    the rounds shown is no one's better (1 + how many kept entrants rank strictly higher;
    ties stay ties)."""
    listed = sorted(ranks[code] for code in kept if ranks.get(code) is not None)
    return {code: 1 + bisect_left(listed, ranks[code]) for code in kept if ranks.get(code) is not None}
