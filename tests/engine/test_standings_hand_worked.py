"""Standings over small events worked by hand (side scores from examples.json).

Examples used: T1 sides NS −270 / EW +40; T2 NS −70 / EW −180; T7 NS +300 / EW −50;
T14 NS +3200 / EW 0; T17 NS −3160 / EW −140.
"""

import pytest
from django.utils import translation

from scoring.archive.format import parse_archive
from scoring.engine.standings import Row, compute_standings, rank_rows
from scoring.results.explanations import explanation_text
from tests.archives import deal, four_pairs_two_rounds, one_match, pairs_archive, players, sides, team_match


def standings(archive, after_round=None):
    parsed = parse_archive(archive)
    rows = compute_standings(parsed.format, parsed.match_results(), parsed.entrant_ids(), after_round=after_round)
    return [row.as_json(parsed.event["kind"]) for row in rows], rows


def test_the_side_scores_the_hand_work_relies_on():
    assert sides("T1") == {"NS": -270, "EW": 40}
    assert sides("T2") == {"NS": -70, "EW": -180}
    assert sides("T7") == {"NS": 300, "EW": -50}


def test_boards_mode_ranks_by_match_points_then_score_difference():
    # By hand: B beat A (+310) and D (+310): 4 mp, diff 620, total 80.
    # C beat D (+350), lost to A (−110): 2 mp, diff 240, total 120.
    # A lost to B (−310), beat C (+110): 2 mp, diff −200, total −340.
    # D lost both: 0 mp, diff −660, total −320.
    rows, ranked = standings(four_pairs_two_rounds())
    assert rows == [
        {
            "rank": 1,
            "id": "B",
            "match_points": 4,
            "score_difference": 620,
            "total_score": 80,
            "penalties": 0,
            "played": 2,
        },
        {
            "rank": 2,
            "id": "C",
            "match_points": 2,
            "score_difference": 240,
            "total_score": 120,
            "penalties": 0,
            "played": 2,
        },
        {
            "rank": 3,
            "id": "A",
            "match_points": 2,
            "score_difference": -200,
            "total_score": -340,
            "penalties": 0,
            "played": 2,
        },
        {
            "rank": 4,
            "id": "D",
            "match_points": 0,
            "score_difference": -660,
            "total_score": -320,
            "penalties": 0,
            "played": 2,
        },
    ]
    assert explanation_text(ranked[1].explanation) == "场分少 2"
    assert explanation_text(ranked[2].explanation) == "场分相同，得分差少 440"
    with translation.override("en"):
        assert explanation_text(ranked[2].explanation) == "same match points; score difference 440 lower"


def test_head_to_head_decides_when_it_comes_first_in_the_chain():
    # A and C both have 2 mp; A beat C in round 2, so head-to-head puts A above C.
    rows, ranked = standings(four_pairs_two_rounds(tiebreaks=["match_points", "head_to_head", "score_difference"]))
    assert [row["id"] for row in rows] == ["B", "A", "C", "D"]
    assert explanation_text(ranked[2].explanation) == "场分相同，相互间场分 0:2"


def test_standings_after_round_one_use_round_one_only():
    rows, _ = standings(four_pairs_two_rounds(), after_round=1)
    by_id = {row["id"]: row for row in rows}
    assert by_id["C"]["score_difference"] == 350 and by_id["C"]["match_points"] == 2
    assert by_id["A"]["played"] == 1


def test_equal_on_every_criterion_share_a_rank():
    # T1 then T1 rotated: NS −270 + 40, EW 40 − 270: both −230, a draw.
    archive = pairs_archive(
        ["A", "B"],
        [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1), deal("T1", 2, rotated=True)]},
                ],
            }
        ],
    )
    rows, ranked = standings(archive)
    assert [(r["rank"], r["match_points"], r["score_difference"], r["total_score"]) for r in rows] == [
        (1, 1, 0, -230),
        (1, 1, 0, -230),
    ]
    assert explanation_text(ranked[1].explanation) == "各项均相同，并列"


def test_a_bye_scores_a_win_with_no_difference_and_head_to_head_is_skipped_when_they_never_met():
    archive = pairs_archive(
        ["A", "B", "C"],
        [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1)]},
                    {"bye": "C"},
                ],
            }
        ],
        tiebreaks=["match_points", "head_to_head", "score_difference"],
    )
    rows, _ = standings(archive)
    assert rows == [
        {
            "rank": 1,
            "id": "B",
            "match_points": 2,
            "score_difference": 310,
            "total_score": 40,
            "penalties": 0,
            "played": 1,
        },
        {
            "rank": 2,
            "id": "C",
            "match_points": 2,
            "score_difference": 0,
            "total_score": 0,
            "penalties": 0,
            "played": 1,
        },
        {
            "rank": 3,
            "id": "A",
            "match_points": 0,
            "score_difference": -310,
            "total_score": -270,
            "penalties": 0,
            "played": 1,
        },
    ]


def test_a_match_without_deals_counts_for_nothing():
    archive = one_match([])
    rows, _ = standings(archive)
    assert [(r["match_points"], r["played"]) for r in rows] == [(0, 0), (0, 0)]


def test_games_mode_awards_match_points_per_game():
    # 局 1: T14 puts NS on +3200 ≥ 1000: NS wins. 局 2: T17, NS −3160 ≤ −1000: EW wins it.
    archive = one_match([deal("T14", 1), deal("T17", 2)], mode="games", length=2)
    rows, _ = standings(archive)
    by_id = {r["id"]: r for r in rows}
    assert by_id["A"]["match_points"] == 2 and by_id["B"]["match_points"] == 2
    # Difference over all deals: A 3200 − 3160 = 40, B 0 − 140 = −140.
    assert by_id["A"]["score_difference"] == 180 and by_id["A"]["total_score"] == 40


def test_an_unfinished_last_game_is_decided_by_the_running_totals():
    # 局 1: T14, NS wins. 局 2 unfinished after T1 (NS −270, EW +40): EW leads and wins it.
    # 局 3 never started.
    archive = one_match([deal("T14", 1), deal("T1", 2)], mode="games", length=3)
    rows, _ = standings(archive)
    assert {r["id"]: r["match_points"] for r in rows} == {"A": 2, "B": 2}


def test_teams_add_both_tables_of_a_duplicate_match():
    # Table 1: X NS, T1: X −270, Y +40. Table 2: Y NS, T7: Y +300, X −50. X −320, Y +340: Y wins.
    archive = team_match([deal("T1", 1)], [deal("T7", 1)])
    rows, _ = standings(archive)
    assert rows == [
        {
            "rank": 1,
            "id": "Y",
            "match_points": 2,
            "score_difference": 660,
            "total_score": 340,
            "penalties": 0,
            "played": 1,
        },
        {
            "rank": 2,
            "id": "X",
            "match_points": 0,
            "score_difference": -660,
            "total_score": -320,
            "penalties": 0,
            "played": 1,
        },
    ]


def test_individual_events_rank_by_total_score():
    # T1 seat scores: N −210, E +60, S −60, W −20.
    people = players(5)
    archive = {
        "format": "huapai-event/1",
        "event": {"slug": "t-ind", "name": "个人", "kind": "individual"},
        "players": people,
        "rounds": [
            {
                "number": 1,
                "matches": [
                    {
                        "table": 1,
                        "seats": {"N": "p01", "E": "p02", "S": "p03", "W": "p04"},
                        "deals": [deal("T1", 1)],
                    },
                    {"bye": "p05"},
                ],
            }
        ],
    }
    rows, _ = standings(archive)
    assert rows == [
        {"rank": 1, "id": "p02", "total_score": 60, "deals": 1},
        {"rank": 2, "id": "p05", "total_score": 0, "deals": 0},
        {"rank": 3, "id": "p04", "total_score": -20, "deals": 1},
        {"rank": 4, "id": "p03", "total_score": -60, "deals": 1},
        {"rank": 5, "id": "p01", "total_score": -210, "deals": 1},
    ]


def test_fewer_penalty_points_rank_higher():
    rows = [
        Row(id="A", match_points=2, penalties=-50),
        Row(id="B", match_points=2, penalties=-10),
        Row(id="C", match_points=2),
    ]
    ranked = rank_rows(rows, ["match_points", "penalties"], {}, set())
    assert [row.id for row in ranked] == ["C", "B", "A"]
    assert explanation_text(ranked[2].explanation) == "场分相同，罚分多 40"


@pytest.mark.parametrize("chain", [["score_difference", "match_points"], ["total_score"]])
def test_the_chain_order_is_configuration(chain):
    rows, _ = standings(four_pairs_two_rounds(tiebreaks=chain))
    key = chain[0]
    values = [row[key] for row in rows]
    assert values == sorted(values, reverse=True)
