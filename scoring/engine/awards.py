"""The awards order: who is called to the prize table, from the last prize up to the winner.

Prizes go down the final standings to entrants who finished the event: an entrant that withdrew
before the last round keeps its rank in the standings but takes no prize, and the next one moves
up. Entrants sharing a rank share the prize place (the tie-break chain left them equal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def awards_order(
    rows: list[dict[str, int | str]], *, places: int, withdrawn: dict[Any, Any] | set[str] | tuple[()] = ()
) -> list[tuple[int, Any]]:
    """`rows`: standings rows (dicts with "id" and "rank") in standings order; `places`: how many
    prize places; `withdrawn`: ids of entrants that take no prize. Returns
    `[(place, [row, …])]` in the order the prizes are given: the last place first."""
    skipped = set(withdrawn)
    prizes = []
    position = 0
    previous_rank = place = None
    for row in rows:
        if row["id"] in skipped:
            continue
        position += 1
        if row["rank"] != previous_rank:
            place, previous_rank = position, row["rank"]
        if place > places:
            break
        if prizes and prizes[-1][0] == place:
            prizes[-1][1].append(row)
        else:
            prizes.append((place, [row]))
    return list(reversed(prizes))
