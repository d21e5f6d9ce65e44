"""The referees' grid for a 升级 round: a match that ended by its target needs no more boards,
so the grid shows its table complete rather than boards missing (as the publication checklist
already does)."""

import pytest

from scoring.archive.database import import_archive
from scoring.models import Table
from scoring.rounds.publication import publication_checklist
from scoring.table_entry.grid import table_rows
from scoring.table_entry.services import boards_needed
from scoring.table_entry.state import table_state
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
    # A match to a target still going counts the deals played and the next one, never the
    # round's most (8 here): two cells, the next one to play missing.
    assert going["cells"] == ("confirmed", "missing") and going["boards"] == 2
    assert going["state"] == "in_progress" and going["todo"] == 1


def test_a_match_to_a_target_is_counted_by_the_deals_it_needs_everywhere():
    """Issue 43: a match in progress to a target counted as the round's 40 deals — 40 cells on the
    grid and the phone, "还有 44 副未确认", the checklist wanting deals up to 40. It counts the deals
    played and the next one on the grid, its count still to confirm, the phone and the checklist."""
    event = import_archive(
        shengji_archive(
            table_one=[{"board": 1, "declarer": "NS", "points": 40}, {"board": 2, "points": 80}],
            table_two=[],
            options={"start_level": 1, "target": 13, "deals": None},
            boards=40,
            status="in_play",
        )
    )
    rnd = event.rounds.get(number=1)
    one, two = (Table.objects.select_related("round__event").get(round=rnd, number=n) for n in (1, 2))
    rows = table_rows(rnd)
    assert rows[one.id]["cells"] == ("confirmed", "confirmed", "missing") and rows[one.id]["todo"] == 1
    assert rows[two.id]["cells"] == ("missing",) and rows[two.id]["todo"] == 1  # not started: its first deal
    assert sum(row["todo"] for row in rows.values()) == 2  # the grid's "还有 2 副未确认", not 78
    assert [board["board"] for board in table_state(one)["boards"]] == [1, 2, 3]
    assert table_state(one)["totals"]["boards"] == 3 and boards_needed(one) == 3
    assert [board["board"] for board in table_state(two)["boards"]] == [1]
    blocking = [str(text) for text in publication_checklist(rnd)["blocking"]]
    assert "1号桌比赛未结束（已录 2 副）：录入其后各副，或由裁判长裁定比赛结果" in blocking
    assert "2号桌缺少第 1 副" in blocking
    assert not any("40" in text for text in blocking)
