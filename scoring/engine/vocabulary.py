"""The competition's vocabulary, defined once (pure Python, no Django).

Event kinds, match modes, round states, tie-break keys with their labels and
default order, 局 thresholds and seat names. Model choices, validation, archive
reading, standings labels and templates all take them from here.
"""

from __future__ import annotations

from enum import StrEnum

from scoring.games import GAMES, get_game
from scoring.games.seats import PARTNERSHIPS as SIDES
from scoring.games.seats import SEAT_NAMES
from scoring.games.seats import TABLE_SEATS as SEATS


class Kind(StrEnum):
    PAIRS = "pairs"
    TEAMS = "teams"
    INDIVIDUAL = "individual"


class MatchMode(StrEnum):
    BOARDS = "boards"
    GAMES = "games"


class RoundStatus(StrEnum):
    SCHEDULED = "scheduled"
    IN_PLAY = "in_play"
    PROVISIONAL = "provisional"  # published, corrections still open
    OFFICIAL = "official"


PUBLISHED_STATUSES = (RoundStatus.PROVISIONAL, RoundStatus.OFFICIAL)


LABEL_CONTEXT = "tie-break"


def pgettext_noop(context: str, message: str) -> str:
    """Marks a label for `makemessages` (scoring's makemessages extracts this name) without
    importing Django: the Django layer shows it with `pgettext(LABEL_CONTEXT, label)`."""
    return message


# Tie-break keys and their labels, in the order an organiser picks from.
TIEBREAK_LABELS = {
    "match_points": pgettext_noop("tie-break", "场分"),
    "score_difference": pgettext_noop("tie-break", "得分差"),
    "total_score": pgettext_noop("tie-break", "总得分"),
    "head_to_head": pgettext_noop("tie-break", "相互间场分"),
    "penalties": pgettext_noop("tie-break", "罚分"),
}
# Recognised in archives; "lot" is drawn by the arbiter outside the system, so it ranks nothing.
ARCHIVE_TIEBREAKS = (*TIEBREAK_LABELS, "lot")
DEFAULT_TIEBREAKS = ("match_points", "score_difference", "head_to_head", "penalties")
# Individual events rank by total score, players level sharing the rank (event-archive.md); the
# deals each played are shown, never ranked by.
# With the option `standings` = "table_points" (games law §0) they rank by table points first,
# the total score being the first tie-break.
INDIVIDUAL_LABELS = {"deals": pgettext_noop("tie-break", "副数"), "table_points": pgettext_noop("tie-break", "桌分")}
# The two standings of an event of individuals who play for themselves (games law §0).
STANDINGS_TOTAL, STANDINGS_TABLE_POINTS = "total", "table_points"

# What an event's match unit may end at (华牌: a 局 at ±1000 or ±800): every game's
# `match_thresholds`, the choices of the event's 局分 (`Event.game_threshold`); an event of a
# game whose units do not end at a score keeps the default there and nothing reads it.
GAME_THRESHOLDS = tuple(dict.fromkeys(threshold for game in GAMES.values() for threshold in game.match_thresholds))
DEFAULT_GAME_THRESHOLD = get_game().match_thresholds[0]  # a new event plays the default game
DEFAULT_MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}

__all__ = [
    "ARCHIVE_TIEBREAKS",
    "DEFAULT_GAME_THRESHOLD",
    "DEFAULT_MATCH_POINTS",
    "DEFAULT_TIEBREAKS",
    "GAME_THRESHOLDS",
    "INDIVIDUAL_LABELS",
    "PUBLISHED_STATUSES",
    "SEATS",
    "SEAT_NAMES",
    "SIDES",
    "STANDINGS_TABLE_POINTS",
    "STANDINGS_TOTAL",
    "TIEBREAK_LABELS",
    "Kind",
    "MatchMode",
    "RoundStatus",
]
