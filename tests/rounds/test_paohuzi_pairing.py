"""Pairing a 跑胡子 event (tables of three, seats E S W, North empty; docs/games/paohuzi.md): Swiss
by standings and random, for 6 to 10 players — everyone at one table or sitting out, never two;
when the count does not divide by three the rest sit out (a bye: the lowest placed who has not
sat out yet), and the next round seats someone else out."""

import pytest

from scoring.archive.database import import_archive
from scoring.engine.pairing import PairingError
from scoring.models import Match, Table
from scoring.results.standings import event_standings
from scoring.rounds.creation import PairingOptions, round_pair
from tests.archives import paohuzi_archive

pytestmark = pytest.mark.django_db


def empty_event(count):
    archive = paohuzi_archive(count=count, bye=None, slug=f"t-phz-{count}")
    archive["rounds"] = []
    return import_archive(archive)


def seated(rnd):
    tables = list(Table.objects.filter(round=rnd).select_related("north", "east", "south", "west"))
    byes = [m.bye.code for m in Match.objects.filter(round=rnd, bye__isnull=False).select_related("bye")]
    return tables, byes


@pytest.mark.parametrize("count", [6, 7, 8, 9, 10])
@pytest.mark.parametrize("method", ["swiss", "random"])
def test_every_player_sits_once_at_a_table_of_three_or_sits_out(count, method):
    event = empty_event(count)
    rnd, pairing = round_pair(event, method, options=PairingOptions(seed=11))
    tables, byes = seated(rnd)
    assert len(tables) == count // 3 and len(byes) == count % 3
    codes = []
    for table in tables:
        assert table.north is None
        assert table.east and table.south and table.west
        codes += [table.east.code, table.south.code, table.west.code]
    everyone = codes + byes
    assert len(everyone) == len(set(everyone)) == count  # no one twice, no one left out
    assert sorted(everyone) == [f"p{n:02d}" for n in range(1, count + 1)]
    assert pairing.byes == byes


def test_swiss_seats_tables_in_standings_order_and_the_bye_moves_on():
    event = import_archive(paohuzi_archive(status="official"))  # round 1: p07 sat out
    order = [row.id for row in event_standings(event)]
    rnd, _pairing = round_pair(event, "swiss")
    tables, byes = seated(rnd)
    # The lowest placed who has not sat out sits out (not p07 again); the rest in standings order.
    expected_bye = next(code for code in reversed(order) if code != "p07")
    assert byes == [expected_bye]
    rest = [code for code in order if code != expected_bye]
    assert [(t.east.code, t.south.code, t.west.code) for t in tables] == [tuple(rest[:3]), tuple(rest[3:6])]


def test_eight_players_two_sit_out_and_no_one_twice_before_everyone_once():
    event = empty_event(8)
    out = []
    for _round in range(4):
        rnd, _pairing = round_pair(event, "random", options=PairingOptions(seed=3))
        _tables, byes = seated(rnd)
        out += byes
        # Rounds without deals count as unfinished: pair the next by marking none played.
        Match.objects.filter(round=rnd, bye__isnull=True).delete()
    assert len(out) == 8 and len(set(out)) == 8


def test_fewer_than_three_players_is_refused_in_words():
    event = empty_event(2)
    with pytest.raises(PairingError) as refused:
        round_pair(event, "swiss")
    assert refused.value.code == "too_few_entrants" and "3" in str(refused.value)


def test_a_manual_draw_names_three_players_a_table():
    event = empty_event(7)
    rnd, _pairing = round_pair(event, "manual", options=PairingOptions(manual="p01 p02 p03\np04 p05 p06\nbye p07"))
    tables, byes = seated(rnd)
    assert [(t.east.code, t.south.code, t.west.code) for t in tables] == [("p01", "p02", "p03"), ("p04", "p05", "p06")]
    assert byes == ["p07"]
    with pytest.raises(PairingError) as refused:
        round_pair(event, "manual", options=PairingOptions(manual="p01 p02 p03 p04"))
    assert refused.value.code == "manual_line" and "3" in str(refused.value)


def test_a_table_of_three_avoids_players_who_have_met_while_its_score_group_allows():
    """Nine players after round 1 at (1 2 3) (4 5 6) (7 8 9), standing 1…9: standings-order tables
    would seat every table again; each table takes the highest placed free player and the next
    ones he has not met, the higher placed first."""
    from scoring.engine.pairing import Candidate, pair_individual

    ids = [f"p{n}" for n in range(1, 10)]
    candidates = [Candidate(id=code) for code in ids]
    for start in (0, 3, 6):
        group = candidates[start : start + 3]
        for player in group:
            player.opponents = {other.id for other in group if other is not player}
    pairing = pair_individual(candidates, ("E", "S", "W"))
    assert [tuple(t.values()) for t in pairing.tables] == [("p1", "p4", "p7"), ("p2", "p5", "p8"), ("p3", "p6", "p9")]
    assert pairing.byes == []
    fresh = pair_individual([Candidate(id=code) for code in ids], ("E", "S", "W"))  # nobody has met: standings order
    assert [tuple(t.values()) for t in fresh.tables] == [tuple(ids[0:3]), tuple(ids[3:6]), tuple(ids[6:9])]


def test_swiss_meets_the_history_from_the_database():
    """After round 1, the next round's tables of three hold players who have not met where the
    standings allow it (seven players: the four of the two tables' lower half)."""
    event = import_archive(paohuzi_archive(status="official"))
    rnd, _pairing = round_pair(event, "swiss")
    tables, _byes = seated(rnd)
    round_one = [{"p01", "p02", "p03"}, {"p04", "p05", "p06"}]
    first = {tables[0].east.code, tables[0].south.code, tables[0].west.code}
    assert all(len(first & old) <= 1 for old in round_one)  # table 1: nobody met before
