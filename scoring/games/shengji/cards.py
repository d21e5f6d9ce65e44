"""升级's table and counting units (law §2.1, §2.3 S1): seats, sides, levels and their ranks,
the point cards and the bands of the 台下 side's points."""

from __future__ import annotations

from scoring.games.refusals import _
from scoring.games.seats import PARTNERSHIPS, TABLE_SEATS

SEATS = TABLE_SEATS
# Fixed partnerships, partners opposite (「身為同伙的兩個人要面對面坐」).
SIDES = PARTNERSHIPS
SIDE_SET = frozenset(SIDES)
OTHER_SIDE = {"NS": "EW", "EW": "NS"}
SIDE_NAMES = {"NS": _("南北"), "EW": _("东西")}

# Levels are absolute: 1 is A, 13 is K, 14 is A of the second lap (§2.1, D-S4).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KING = len(RANKS)  # the level of K: a level above it is past K, its rank from A again (D-S4)
LEVEL_MIN = 1
# The law sets no upper bound on a level; this one keeps every level a 32-bit and JSON-safe
# integer (orjson writes no integer beyond 64 bits) and is far beyond any match: a target is
# at most 1000 and a level rises by 2 at most a deal.
LEVEL_MAX = 1_000_000
START_LEVEL_MAX = 13  # start_level: A…K
TARGET_MAX = 1000

# S1: each K and 10 is 10, each 5 is 5; two decks of four suits hold 200.
POINT_CARDS = {"K": 10, "10": 10, "5": 5}
DECKS = 2
POINTS_TOTAL = DECKS * 4 * sum(POINT_CARDS.values())
POINTS_STEP = 5
assert POINTS_TOTAL == 200

# S2–S5: (lowest points of the band, rule, sides swap, levels gained by the side on 台上 after
# the deal). The 台下 side gains nothing in any band.
BANDS = (
    (0, "S2", False, 2),
    (50, "S3", False, 1),
    (100, "S4", True, 0),
    (120, "S5", True, 1),
)


def rank(level: int) -> str:
    """The rank a side at this absolute level plays: A23…K taken at (level − 1) mod 13."""
    return RANKS[(level - 1) % 13]


def band(points: int) -> tuple[str, bool, int]:
    """The band (rule, swap, gain) the 台下 side's points fall in (D-S1: 50 ≤ p < 100 …)."""
    found = BANDS[0]
    for entry in BANDS:
        if points >= entry[0]:
            found = entry
    return found[1:]
