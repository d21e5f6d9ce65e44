"""Two rules no test caught before (issue 9): a mutation of either must fail here."""

import pytest

from scoring.archive import import_archive
from scoring.models import Round
from scoring.results import standings_json
from scoring.standings import Row, rank_rows
from tests.archives import four_pairs_two_rounds


def test_head_to_head_is_skipped_when_only_some_of_the_tied_group_met():
    """A, B and C tie; only A and B met (A won). Head-to-head needs every pair of the group to
    have met, so it is skipped and the three share first place; applying it whenever *any*
    pair met would put A first."""
    rows = [Row(id=code, match_points=4, score_difference=100) for code in ("A", "B", "C")]
    meetings = {("A", "B"): 2, ("B", "A"): 0}
    met = {frozenset(("A", "B"))}
    ranked = rank_rows(rows, ["match_points", "head_to_head", "score_difference"], meetings, met)
    assert [(row.id, row.rank) for row in ranked] == [("A", 1), ("B", 1), ("C", 1)]
    assert all(row.head_to_head is None for row in ranked)


def test_head_to_head_decides_when_every_pair_of_the_tied_group_met():
    rows = [Row(id=code, match_points=4, score_difference=100) for code in ("A", "B")]
    ranked = rank_rows(rows, ["match_points", "head_to_head"], {("A", "B"): 0, ("B", "A"): 2}, {frozenset("AB")})
    assert [(row.id, row.rank) for row in ranked] == [("B", 1), ("A", 2)]


@pytest.mark.django_db
def test_public_standings_leave_out_rounds_that_are_not_published():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"  # round 2 has confirmed deals but is not published
    event = import_archive(archive)
    assert Round.objects.get(event=event, number=2).status == "in_play"
    public = standings_json(event, published_only=True)["rows"]
    officials = standings_json(event)["rows"]
    after_round_one = standings_json(event, after_round=1)["rows"]
    assert public == after_round_one
    assert public != officials  # round 2 changes the standings: leaving it out is visible
