"""Individual events and byes, per the revised event-archive.md: the number of deals played never
decides a place, players level share the rank, and a bye earns what an average full table gives
(a score of 0; under table points `seats − 1`). For every registered game that plays individuals,
so that a new game is covered by being registered."""

import pytest

from scoring.engine.standings import Format, MatchResult, TableResult, compute_standings
from scoring.engine.vocabulary import STANDINGS_TABLE_POINTS, STANDINGS_TOTAL, Kind
from scoring.games import GAMES
from scoring.games.common import table_points

INDIVIDUAL_GAMES = [game for game in GAMES.values() if game.event_kinds is None or Kind.INDIVIDUAL in game.event_kinds]


def _round_with_a_bye(game, totals):
    """One round: a full table of the game's seats with these match totals (in seat order), and
    player "bye" sitting out."""
    seats = dict(zip(game.seats, [f"p{i}" for i in range(1, len(game.seats) + 1)], strict=True))
    seat_totals = dict(zip(game.seats, totals, strict=True))
    table = TableResult(
        seats=seats, seat_totals=seat_totals, seat_points=table_points(seat_totals), deal_count=len(game.seats)
    )
    return [MatchResult(round=1, tables=[table]), MatchResult(round=1, bye="bye")], [*seats.values(), "bye"]


@pytest.mark.parametrize("game", INDIVIDUAL_GAMES, ids=lambda game: game.id)
def test_a_bye_level_with_a_player_who_played_shares_the_place(game):
    # Totals by hand: the first player wins 30, the second breaks even, the rest lose the 30.
    totals = [30, 0, *([-30 // (len(game.seats) - 2)] * (len(game.seats) - 2))]
    totals[-1] -= sum(totals)
    matches, entrants = _round_with_a_bye(game, totals)
    fmt = Format(kind=Kind.INDIVIDUAL, standings=STANDINGS_TOTAL, game=game.id)
    rows = {row.id: row for row in compute_standings(fmt, matches, entrants)}
    assert rows["p1"].rank == 1
    # The bye (0 deals) and p2 (every deal played) are level on 0: they share second place.
    assert rows["bye"].total_score == rows["p2"].total_score == 0
    assert rows["bye"].rank == rows["p2"].rank == 2
    assert rows["bye"].deals == 0 and rows["p2"].deals == len(game.seats)
    assert rows["p3"].rank == 4


@pytest.mark.parametrize("game", INDIVIDUAL_GAMES, ids=lambda game: game.id)
def test_a_bye_earns_an_average_full_tables_points(game):
    # At a table where every player has the same total, every player gets 1 point per
    # opponent: seats − 1, the average of any full table, and what the bye earns.
    matches, entrants = _round_with_a_bye(game, [0] * len(game.seats))
    fmt = Format(kind=Kind.INDIVIDUAL, standings=STANDINGS_TABLE_POINTS, game=game.id)
    rows = compute_standings(fmt, matches, entrants)
    expected = {"huapai": 3, "bengbu-doudizhu": 3, "paohuzi": 2}.get(game.id, len(game.seats) - 1)
    assert {row.table_points for row in rows} == {expected}
    assert {row.rank for row in rows} == {1}  # all level: one shared first place


def test_deals_played_never_break_a_tie_over_several_rounds():
    # Round 1: p1..p3 at a three-seat table, p4 sits out; round 2: p2..p4 play, p1 sits out.
    # p1 and p4 both end on 0 with different deal counts; p2 and p3 likewise level.
    fmt = Format(kind=Kind.INDIVIDUAL, standings=STANDINGS_TOTAL, game="paohuzi")

    def table(seats, totals, deals):
        seat_totals = dict(zip(("E", "S", "W"), totals, strict=True))
        return TableResult(
            seats=dict(zip(("E", "S", "W"), seats, strict=True)), seat_totals=seat_totals, deal_count=deals
        )

    matches = [
        MatchResult(round=1, tables=[table(["p1", "p2", "p3"], [0, 5, -5], 9)]),
        MatchResult(round=1, bye="p4"),
        MatchResult(round=2, tables=[table(["p2", "p3", "p4"], [-5, 5, 0], 3)]),
        MatchResult(round=2, bye="p1"),
    ]
    rows = compute_standings(fmt, matches, ["p1", "p2", "p3", "p4"])
    assert [(row.id, row.rank, row.total_score, row.deals) for row in rows] == [
        ("p1", 1, 0, 9),
        ("p2", 1, 0, 12),
        ("p3", 1, 0, 12),
        ("p4", 1, 0, 3),
    ]
