"""The cross table and the awards order as pure functions, on matches worked by hand."""

from scoring.engine.awards import awards_order
from scoring.engine.cross_table import Meeting, cross_table
from scoring.engine.standings import Format, MatchResult, TableResult


def pairs_match(round_number, ns, ew, deals, *, fmt=None):
    """A pairs match at one table; `deals`: [(NS side score, EW side score)] in playing order."""
    table = TableResult.from_deals(ns, ew, [{"scores": {"N": own, "S": 0, "E": other, "W": 0}} for own, other in deals])
    return MatchResult(round=round_number, home=ns, away=ew, tables=[table])


def test_each_side_sees_its_own_match_points_and_difference():
    fmt = Format(length=2)
    lines = cross_table(fmt, [pairs_match(1, "A", "B", [(50, -350), (400, -100)])], published_rounds=[1])
    # A: 450 against −450 → wins (2) by 900; B the mirror.
    assert lines["A"].meetings == [Meeting(1, "B", 2, 900, True)]
    assert lines["B"].meetings == [Meeting(1, "A", 0, -900, True)]


def test_an_unfinished_match_of_an_open_round_is_marked_and_a_published_one_counts_as_it_stands():
    fmt = Format(length=2)
    matches = [pairs_match(1, "A", "B", [(50, -350)]), pairs_match(2, "A", "C", [(-10, 20)])]
    lines = cross_table(fmt, matches, published_rounds=[1])
    assert lines["A"].against("B") == [Meeting(1, "B", 2, 400, True)]  # one board of two, but published
    assert lines["A"].against("C") == [Meeting(2, "C", 0, -30, False)]


def test_a_match_not_started_a_bye_and_two_meetings():
    fmt = Format(length=1)
    matches = [
        pairs_match(1, "A", "B", [(100, 0)]),
        MatchResult(round=1, bye="C"),
        pairs_match(2, "B", "A", [(30, 10)]),
        MatchResult(round=2, home="C", away="D", tables=[TableResult(ns="C", ew="D")]),
    ]
    lines = cross_table(fmt, matches)
    assert lines["A"].against("B") == [Meeting(1, "B", 2, 100, True), Meeting(2, "B", 0, -20, True)]
    assert lines["C"].byes == [1]
    assert lines["C"].meetings == [Meeting(2, "D", None, None, False)]


def test_games_mode_counts_match_points_per_game():
    # Threshold 1000, two 局: A wins the first (+1000 against 0), B the second (−0 against +1000).
    fmt = Format(mode="games", length=2, threshold=1000)
    lines = cross_table(fmt, [pairs_match(1, "A", "B", [(1000, 0), (0, 1000)])], published_rounds=[1])
    assert lines["A"].meetings == [Meeting(1, "B", 2, 0, True)]  # 2 + 0 match points, totals equal


def test_an_individual_event_has_no_cross_table():
    assert cross_table(Format(kind="individual"), [pairs_match(1, "A", "B", [(1, 0)])]) == {}


def rows(*ranks):
    return [{"id": code, "rank": rank} for code, rank in ranks]


def test_prizes_are_called_from_the_last_place_up():
    standings = rows(("A", 1), ("B", 2), ("C", 3), ("D", 4))
    assert [(place, [r["id"] for r in won]) for place, won in awards_order(standings, places=3)] == [
        (3, ["C"]),
        (2, ["B"]),
        (1, ["A"]),
    ]


def test_a_withdrawn_entrant_is_passed_over_and_tied_entrants_share_a_place():
    standings = rows(("A", 1), ("B", 2), ("C", 2), ("D", 4), ("E", 5))
    order = awards_order(standings, places=3, withdrawn={"A"})
    # Without A: B and C share first; D is third (two entrants above it), E is out of the prizes.
    assert [(place, [r["id"] for r in won]) for place, won in order] == [(3, ["D"]), (1, ["B", "C"])]
