"""Final stages (决赛阶段), pure: a knockout bracket from the seeds, who goes through,
the next knockout round, the final placings, and a final round robin of the top N.

Decisions (docs/competition.md "Final stages"): the higher seed sits NS (or at home);
a knockout match is won on 场分, then on the score difference; a tie on both goes to
the higher seed (a chief arbiter may order a play-off outside the system instead and
enter it as a manual round). After the semi-finals, the winners play the final and
the losers the match for third place, both in the same round.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scoring.engine.pairing import PairingError, berger_round
from scoring.engine.standings import compute_standings
from scoring.games.refusals import _

if TYPE_CHECKING:
    from typing import Any

    from scoring.engine.standings import Format, MatchResult

KNOCKOUT_SIZES = (4, 8)
ROUND_ROBIN_SIZES = range(3, 17)


class StageKind:
    KNOCKOUT = "knockout"
    ROUND_ROBIN = "final_round_robin"


class MatchLabel:
    QUARTER_FINAL = "quarter_final"
    SEMI_FINAL = "semi_final"
    FINAL = "final"
    THIRD_PLACE = "third_place"


def bracket_positions(size: int) -> list[int]:
    """Seeds in bracket order, so that 1 and 2 can meet only in the final: 4 → [1, 4, 2, 3],
    8 → [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def knockout_first_round(seeds: list[str]) -> tuple[list[Any], str]:
    """`seeds`: entrant ids, best first. Returns `(tables, label)`: [(higher seed, lower seed)]."""
    size = len(seeds)
    if size not in KNOCKOUT_SIZES:
        raise PairingError(_("淘汰赛需要 4 或 8 个参赛者"), code="bad_stage_size")
    order = bracket_positions(size)
    tables = [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, size, 2)]
    return tables, MatchLabel.SEMI_FINAL if size == 4 else MatchLabel.QUARTER_FINAL


@dataclass(frozen=True)
class Outcome:
    winner: str
    loser: str
    decided_by: str  # "match_points", "score_difference" or "seed"


def match_outcome(fmt: Format, match: MatchResult, seed_of: dict[str, int]) -> Outcome:
    """Who goes through: 场分, then the score difference, then the higher seed."""
    chain = replace(fmt, tiebreaks=["match_points", "score_difference"])
    rows = {row.id: row for row in compute_standings(chain, [match], [match.home, match.away])}
    home, away = rows[match.home], rows[match.away]
    for key in ("match_points", "score_difference"):
        if getattr(home, key) != getattr(away, key):
            better = home if getattr(home, key) > getattr(away, key) else away
            worse = away if better is home else home
            return Outcome(better.id, worse.id, key)
    better, worse = sorted((match.home, match.away), key=lambda code: seed_of[code])
    return Outcome(better, worse, "seed")


def knockout_next_round(fmt: Format, matches: list[MatchResult], seed_of: dict[str, int]) -> list[tuple[str, str, str]]:
    """The next knockout round from the current one's matches (in bracket order, all played;
    not the final's round). Returns `[(ns, ew, label)]`."""
    outcomes = [match_outcome(fmt, m, seed_of) for m in matches]
    if len(outcomes) == 2:
        winners = sorted((o.winner for o in outcomes), key=lambda c: seed_of[c])
        losers = sorted((o.loser for o in outcomes), key=lambda c: seed_of[c])
        return [(*winners, MatchLabel.FINAL), (*losers, MatchLabel.THIRD_PLACE)]
    tables = []
    for first, second in zip(outcomes[::2], outcomes[1::2], strict=True):
        ns, ew = sorted((first.winner, second.winner), key=lambda c: seed_of[c])
        tables.append((ns, ew, MatchLabel.SEMI_FINAL))
    return tables


def final_round_robin(finalists: list[str]) -> list[list[Any]]:
    """Every round of a round robin of `finalists` (best first): [[(ns, ew) or (id, None)]]."""
    if len(finalists) not in ROUND_ROBIN_SIZES:
        raise PairingError(_("决赛循环需要 3–16 个参赛者"), code="bad_stage_size")
    count = len(finalists) + len(finalists) % 2
    return [berger_round(list(finalists), index) for index in range(count - 1)]
