"""The referees' grid for a 升级 round: a match that ended by its target needs no more boards,
so the grid shows its table complete rather than boards missing (as the publication checklist
already does)."""

import pytest

from scoring.archive.database import import_archive
from scoring.models import Table
from scoring.table_entry.grid import table_rows
from tests.archives import shengji_archive

pytestmark = pytest.mark.django_db

# Worked by hand from law §2.3: from A (1), 台下 taking 0 points twice is S2 twice, NS on 台上
# going A→3→5: past the target 3 after two deals, the match is over (M2).
ENDED_AFTER_TWO = [{"board": 1, "declarer": "NS", "points": 0}, {"board": 2, "points": 0}]


def test_a_match_ended_by_its_target_shows_its_boards_played_and_complete():
    event = import_archive(
        shengji_archive(
            table_one=ENDED_AFTER_TWO,
            table_two=[{"board": 1, "declarer": "EW", "points": 60}],
            options={"start_level": 1, "target": 3, "deals": None},
            boards=8,
            status="in_play",
        )
    )
    rnd = event.rounds.get(number=1)
    rows = table_rows(rnd)
    ended = rows[Table.objects.get(round=rnd, number=1).id]
    going = rows[Table.objects.get(round=rnd, number=2).id]
    assert ended["cells"] == ("confirmed", "confirmed") and ended["boards"] == 2
    assert ended["state"] == "complete" and ended["todo"] == 0
    # A match still going needs the event's most boards: 8 cells, seven of them missing.
    assert len(going["cells"]) == 8 and going["cells"][1:] == ("missing",) * 7 and going["todo"] == 7
