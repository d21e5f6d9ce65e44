"""A not-played board's score (scoring.engine.not_played), pure: the average of the other
tables rounded so that the deal stays consistent; the rule and marks as stored."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.not_played import (
    average_scores,
    mark_problems,
    mark_words,
    new_mark,
    rule_of,
    rule_problems,
)

scores = st.integers(-2000, 2000).map(lambda n: n * 10) | st.integers(-3000, 3000)
rows = st.lists(st.fixed_dictionaries({seat: scores for seat in "NESW"}), min_size=1, max_size=9)


def half_away(value):
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


@given(rows)
def test_each_side_gets_its_rounded_average_and_each_seat_stays_within_a_point_of_its_own(found):
    result = average_scores(found)
    count = len(found)
    for first, second in (("N", "S"), ("E", "W")):
        side = Fraction(sum(row[first] + row[second] for row in found), count)
        assert result[first] + result[second] == half_away(side)
        for seat in (first, second):
            assert abs(result[seat] - Fraction(sum(row[seat] for row in found), count)) < 1


@given(st.lists(st.tuples(scores, scores, scores), min_size=1, max_size=9))
def test_a_zero_sum_event_stays_zero_sum(triples):
    found = [{"N": n, "E": e, "S": s, "W": -(n + e + s)} for n, e, s in triples]
    assert sum(average_scores(found).values()) == 0


def test_halves_round_away_from_zero_and_no_table_is_none():
    assert average_scores([]) is None
    result = average_scores([{"N": 5, "E": -5, "S": 0, "W": 0}, {"N": 0, "E": 0, "S": 0, "W": 0}])
    assert result == {"N": 3, "E": -3, "S": 0, "W": 0}


def test_the_rule_marks_and_their_words():
    assert rule_of({}) == "zero" and rule_of({"not_played": "average"}) == "average"
    assert rule_of({"not_played": "nonsense"}) == "zero" and rule_of(None) == "zero"
    assert rule_problems({"not_played": "average"}) == [] and rule_problems({"not_played": 1})
    mark = {"rule": "average", "reason": "x", "tables": 2, "time": True}
    assert new_mark("average", "x", tables=2, time=True) == mark
    assert str(mark_words(new_mark("adjusted", "x", awaiting=True))) == "未打：等裁判长给调整分"
    zeros = dict.fromkeys("NESW", 0)
    assert mark_problems({"not_played": {"rule": "zero", "reason": "x"}, "adjusted": zeros}) == []
    assert mark_problems({"not_played": {"rule": "zero"}, "adjusted": zeros, "captured": {"N": ["HA"]}})
    for bad in ("zero", {"rule": "x"}, {"rule": "zero", "reason": 5}, {"rule": "average", "tables": -1}):
        assert mark_problems({"not_played": bad}), bad
    assert mark_problems({"not_played": {"rule": "zero", "awaiting": "yes"}})
