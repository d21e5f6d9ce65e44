"""Two rules no test caught before (issue 9): a mutation of either must fail here."""

import pytest

from scoring.archive.database import import_archive
from scoring.engine.standings import Row, rank_rows
from scoring.models import Round
from scoring.results.standings_json import standings_json
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


def test_the_vocabulary_is_defined_once_and_the_models_take_it():
    from scoring.engine import vocabulary
    from scoring.models import Event

    assert list(Event.Kind.values) == [kind.value for kind in vocabulary.Kind]
    assert list(Event.MatchMode.values) == [mode.value for mode in vocabulary.MatchMode]
    assert list(Round.Status.values) == [status.value for status in vocabulary.RoundStatus]
    assert set(Round.PUBLISHED) == {"provisional", "official"}


@pytest.mark.parametrize("tiebreaks", [["match_points", "coin"], [], "match_points", ["penalties", "penalties"]])
def test_an_event_refuses_an_unknown_or_repeated_tie_break(tiebreaks):
    from django.core.exceptions import ValidationError

    from scoring.models import Event

    with pytest.raises(ValidationError) as caught:
        Event(slug="x", name="x", tiebreaks=tiebreaks).clean()
    assert "tiebreaks" in caught.value.message_dict


@pytest.mark.django_db
def test_published_rounds_are_one_queryset_method():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"
    event = import_archive(archive)
    assert list(event.rounds.published().values_list("number", flat=True)) == [1]


@pytest.mark.django_db
def test_pairing_and_publication_refusals_carry_codes(people, event):
    from scoring.engine.pairing import PairingError
    from scoring.rounds.creation import round_pair
    from scoring.rounds.publication import PublicationError, round_make_official

    with pytest.raises(PairingError) as pairing:
        round_pair(event, "swiss")  # round 3 is scheduled, not played
    assert pairing.value.code == "round_unfinished"
    with pytest.raises(PublicationError) as publication:
        round_make_official(Round.objects.get(event=event, number=3), user=people["organiser"])
    assert publication.value.code == "not_provisional"
