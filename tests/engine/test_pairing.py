"""Pairing properties: everyone seated once, no avoidable rematch, byes, NS/EW balance."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.pairing import Candidate, berger_round, pair_individual, pair_roundrobin, pair_swiss
from tests.conftest import scaled_examples


def rematch_free_pairing_exists(ids, met):
    """Brute force over perfect matchings (small n only): the oracle for 'avoidable'."""
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    for partner in rest:
        if frozenset((first, partner)) in met:
            continue
        remaining = [x for x in rest if x != partner]
        if rematch_free_pairing_exists(remaining, met):
            return True
    return False


@st.composite
def histories(draw, max_entrants=12):
    n = draw(st.integers(2, max_entrants))
    ids = [f"E{i:02d}" for i in range(n)]
    possible = [frozenset(p) for p in itertools.combinations(ids, 2)]
    met = set(draw(st.lists(st.sampled_from(possible), max_size=len(possible), unique=True)))
    byes = set(draw(st.lists(st.sampled_from(ids), max_size=n - 1, unique=True)))
    points = {i: draw(st.integers(0, 8)) for i in ids}
    candidates = [
        Candidate(
            id=i,
            match_points=points[i],
            opponents={o for pair in met if i in pair for o in pair if o != i},
            byes=int(i in byes),
        )
        for i in sorted(ids, key=lambda i: -points[i])
    ]
    return candidates, met


@settings(max_examples=scaled_examples(300), deadline=None)
@given(histories())
def test_swiss_seats_everyone_once_and_makes_no_avoidable_rematch(history):
    candidates, met = history
    pairing = pair_swiss(candidates)
    seated = [x for table in pairing.tables for x in table] + pairing.byes
    assert sorted(seated) == sorted(c.id for c in candidates)
    assert len(pairing.byes) == len(candidates) % 2
    rematches = sum(frozenset(table) in met for table in pairing.tables)
    assert rematches == pairing.rematches
    if rematches:
        # Only allowed when no choice of bye leaves a rematch-free pairing.
        ids = [c.id for c in candidates]
        # At most one bye each: only entrants without one may sit out (unless all have had one).
        eligible = [c.id for c in candidates if c.byes == 0] or ids
        options = [ids] if len(ids) % 2 == 0 else [[x for x in ids if x != bye] for bye in eligible]
        assert not any(rematch_free_pairing_exists(option, met) for option in options if len(option) <= 12)


@settings(max_examples=scaled_examples(200), deadline=None)
@given(histories())
def test_the_bye_goes_to_the_lowest_placed_entrant_without_one_when_that_works(history):
    candidates, _ = history
    if len(candidates) % 2 == 0:
        return
    pairing = pair_swiss(candidates)
    (bye,) = pairing.byes
    eligible = [c.id for c in candidates if c.byes == 0]
    if eligible and pairing.rematches == 0:
        assert bye in eligible
        if bye != eligible[-1]:
            # A higher-placed entrant got it: the lower ones must have left a rematch.
            lower = eligible[eligible.index(bye) + 1 :]
            assert lower


def test_swiss_pairs_within_score_groups_from_the_top_and_gives_table_one_to_the_leaders():
    candidates = [
        Candidate(id=c, match_points=p) for c, p in [("A", 4), ("B", 4), ("C", 2), ("D", 2), ("E", 0), ("F", 0)]
    ]
    pairing = pair_swiss(candidates)
    assert [set(t) for t in pairing.tables] == [{"A", "B"}, {"C", "D"}, {"E", "F"}]


def test_swiss_floats_one_entrant_down_from_an_odd_group():
    candidates = [
        Candidate(id=c, match_points=p) for c, p in [("A", 4), ("B", 4), ("C", 4), ("D", 2), ("E", 2), ("F", 0)]
    ]
    pairing = pair_swiss(candidates)
    assert [set(t) for t in pairing.tables] == [{"A", "B"}, {"C", "D"}, {"E", "F"}]


def test_swiss_avoids_a_rematch_by_backtracking():
    # A met B, C met D: Monrad order would pair A–B; the search finds A–C, B–D.
    candidates = [
        Candidate(id="A", opponents={"B"}),
        Candidate(id="B", opponents={"A"}),
        Candidate(id="C", opponents={"D"}),
        Candidate(id="D", opponents={"C"}),
    ]
    pairing = pair_swiss(candidates)
    assert pairing.rematches == 0
    assert {frozenset(t) for t in pairing.tables} == {frozenset("AC"), frozenset("BD")}


def test_sides_alternate_for_who_sat_ns_last_time():
    a = Candidate(id="A", ns=1, ew=0, last_side="NS")
    b = Candidate(id="B", ns=0, ew=1, last_side="EW")
    assert pair_swiss([a, b]).tables == [("B", "A")]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9, 16, 17])
def test_a_berger_round_robin_meets_everyone_once_with_balanced_sides(count):
    ids = [f"P{i:02d}" for i in range(count)]
    rounds = count - 1 if count % 2 == 0 else count
    meetings = Counter()
    ns, ew = Counter(), Counter()
    byes = Counter()
    for r in range(rounds):
        pairing = pair_roundrobin([Candidate(id=i) for i in ids], r)
        seated = [x for t in pairing.tables for x in t] + pairing.byes
        assert sorted(seated) == ids
        for home, away in pairing.tables:
            meetings[frozenset((home, away))] += 1
            ns[home] += 1
            ew[away] += 1
        byes.update(pairing.byes)
    assert set(meetings.values()) == {1}
    assert len(meetings) == count * (count - 1) // 2
    assert all(abs(ns[i] - ew[i]) <= 1 for i in ids)
    assert all(byes[i] <= 1 for i in ids)


def test_berger_round_one_for_four_matches_the_published_table():
    # Berger table for 4: round 1 is 1–4, 2–3; round 2 is 4–3, 1–2; round 3 is 2–4, 3–1.
    assert berger_round([1, 2, 3, 4], 0) == [(1, 4), (2, 3)]
    assert berger_round([1, 2, 3, 4], 1) == [(4, 3), (1, 2)]
    assert berger_round([1, 2, 3, 4], 2) == [(2, 4), (3, 1)]


def test_individual_pairing_avoids_repeated_partners():
    a = Candidate(id="a", partners={"b": 1})
    b = Candidate(id="b", partners={"a": 1})
    c = Candidate(id="c")
    d = Candidate(id="d")
    (table,) = pair_individual([a, b, c, d]).tables
    partners = {frozenset((table["N"], table["S"])), frozenset((table["E"], table["W"]))}
    assert frozenset("ab") not in partners


def test_individual_pairing_sits_out_the_lowest_without_a_bye():
    players = [Candidate(id=str(i)) for i in range(6)]
    players[5].byes = 1
    pairing = pair_individual(players)
    assert sorted(pairing.byes) == ["3", "4"]
    assert len(pairing.tables) == 1
