"""When a match is finished, for the officials' standings (scoring.engine.standings.match_finished)."""

from scoring.engine.standings import Format, MatchResult, TableResult, match_finished
from scoring.engine.vocabulary import Kind, MatchMode


def table(deals):
    return TableResult(ns="A", ew="B", side_scores=list(deals), deal_count=len(deals))


def test_a_boards_match_is_finished_when_every_table_has_played_every_board():
    fmt = Format(mode=MatchMode.BOARDS, length=3)
    assert not match_finished(fmt, MatchResult(round=1, home="A", away="B", tables=[table([(0, 0)] * 2)]))
    assert match_finished(fmt, MatchResult(round=1, home="A", away="B", tables=[table([(0, 0)] * 3)]))
    teams = Format(kind=Kind.TEAMS, mode=MatchMode.BOARDS, length=2)
    half = MatchResult(round=1, home="A", away="B", tables=[table([(0, 0)] * 2), table([(0, 0)])])
    assert not match_finished(teams, half)


def test_a_games_match_is_finished_when_its_last_game_has_ended():
    fmt = Format(mode=MatchMode.GAMES, length=2, threshold=1000)
    one_game = [(-600, 100), (-500, 0)]  # NS reach −1100: the first 局 ends
    assert not match_finished(fmt, MatchResult(round=1, home="A", away="B", tables=[table(one_game)]))
    second_running = [*one_game, (-900, 0)]  # the second 局 at −900 is still being played
    assert not match_finished(fmt, MatchResult(round=1, home="A", away="B", tables=[table(second_running)]))
    both = [*second_running, (-200, 0)]
    assert match_finished(fmt, MatchResult(round=1, home="A", away="B", tables=[table(both)]))


def test_a_bye_is_finished_and_a_match_without_tables_is_not():
    fmt = Format()
    assert match_finished(fmt, MatchResult(round=1, bye="A"))
    assert not match_finished(fmt, MatchResult(round=1, home="A", away="B"))
