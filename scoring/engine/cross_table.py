"""The cross table: every entrant's meetings with each opponent — the 场分 it won and its score
difference, from its own side — and its byes. Plain match results in (`scoring.engine.standings`),
plain data out; the same scoring of a match as the standings (`score_match`), so the two agree.

Pairs and teams only: an individual meets three others at a table, never one opponent.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring.engine.standings import match_finished, score_match
from scoring.engine.vocabulary import Kind

if TYPE_CHECKING:
    from scoring.engine.standings import Format, MatchResult


@dataclass(frozen=True)
class Meeting:
    round: int
    opponent: str
    points: int | None  # 场分 won; None: not played yet (no confirmed deal)
    difference: int | None  # own total − the opponent's total
    finished: bool  # counted as it stands: a published round, or every table played its length


@dataclass
class CrossLine:
    meetings: list = field(default_factory=list)  # [Meeting] in round order
    byes: list = field(default_factory=list)  # round numbers of the byes that scored a win

    def against(self, opponent: str) -> list[Meeting]:
        return [meeting for meeting in self.meetings if meeting.opponent == opponent]


def cross_table(
    fmt: Format, matches: list[MatchResult], *, published_rounds: list[int] | set[int] | tuple[()] = ()
) -> dict[str, CrossLine]:
    """{entrant: CrossLine} for every entrant named in `matches` (pairs and teams; empty for an
    individual event). `published_rounds`: rounds whose matches count as they stand (the arbiter's
    word), whatever `match_finished` says of them."""
    lines = defaultdict(CrossLine)
    if fmt.kind == Kind.INDIVIDUAL:
        return {}
    published = set(published_rounds)
    for match in sorted(matches, key=lambda m: m.round):
        if match.bye:
            lines[match.bye].byes.append(match.round)
            continue
        if not match.home or not match.away:
            continue
        finished = match.round in published or match_finished(fmt, match)
        figures = score_match(fmt, match) if match.played else {}
        for own, other in ((match.home, match.away), (match.away, match.home)):
            if own in figures:
                points, own_total, other_total, _penalty = figures[own]
                meeting = Meeting(match.round, other, points, own_total - other_total, finished)
            else:
                meeting = Meeting(match.round, other, None, None, finished)
            lines[own].meetings.append(meeting)
    return dict(lines)
