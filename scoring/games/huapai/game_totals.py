"""局 accounting (README §7): running totals per side, where each 局 starts and ends."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Game:
    number: int  # 1-based 局 number at the table
    deals: list = field(default_factory=list)  # indices into the table's deal sequence
    ns: int = 0  # running totals
    ew: int = 0
    finished: bool = False
    running: list = field(default_factory=list)  # (ns, ew) after each deal

    @property
    def winner(self) -> str | None:
        """ "NS", "EW", or None for a draw (equal totals)."""
        if self.ns > self.ew:
            return "NS"
        if self.ew > self.ns:
            return "EW"
        return None


def split_games(side_scores: list[tuple[int, int]], threshold: int = 1000) -> list[Game]:
    """Group a table's deals into 局.

    `side_scores` is the sequence of `(ns, ew)` deal scores in playing order
    (penalties included). A 局 ends after the deal where either running total
    is ≤ −threshold or ≥ +threshold; the next deal starts a new 局 from 0. The
    last 局 is unfinished when the deals run out before it ends.
    """
    games = []
    current = None
    for index, (ns, ew) in enumerate(side_scores):
        if current is None:
            current = Game(number=len(games) + 1)
            games.append(current)
        current.deals.append(index)
        current.ns += ns
        current.ew += ew
        current.running.append((current.ns, current.ew))
        if any(abs(total) >= threshold for total in (current.ns, current.ew)):
            current.finished = True
            current = None
    return games
