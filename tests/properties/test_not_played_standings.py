"""Boards not played in the standings (issue 23), for random rounds under each rule: the site's
standings (SQL sums, the engine's ranking) against sums worked out here the plainest way.

A round of 2–5 tables and 1–4 boards a match is imported in play with a random part of its
boards played; a referee records every other board not played under the event's rule (for
`adjusted`, the chief arbiter then gives a random score and a second referee confirms it)."""

import random
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.archive.database import import_archive
from scoring.engine.not_played import RULES
from scoring.entry.services import deal_confirm, deal_save
from scoring.games.huapai import score_deal
from scoring.games.huapai.samples import random_deal
from scoring.models import Table
from scoring.results.standings_json import standings_json
from scoring.rulings.not_played import board_not_played
from tests.conftest import scaled_examples
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db
POINTS = {"win": 2, "draw": 1, "loss": 0}


def side_scores(deal):
    """(NS, EW) after penalties, and the same without them, by the engine."""
    scores = score_deal({k: v for k, v in deal.items() if k != "board"})["scores"]
    penalties = deal.get("penalties", {})
    with_ = (scores["N"] + scores["S"], scores["E"] + scores["W"])
    without = (
        with_[0] - penalties.get("N", 0) - penalties.get("S", 0),
        with_[1] - penalties.get("E", 0) - penalties.get("W", 0),
    )
    return with_, without


def half_away(value):
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


def random_round(rng, rule):
    tables, boards = rng.randint(2, 5), rng.randint(1, 4)
    codes = [f"P{i}" for i in range(1, 2 * tables + 1)]
    matches, played = [], {}
    for table in range(1, tables + 1):
        deals = []
        for board in range(1, boards + 1):
            if rng.random() < 0.6:
                deal = {k: v for k, v in random_deal(rng).items() if k != "ruleset"}
                deals.append({"board": board, **deal})
                played[(table, board)] = deal
        matches.append({"table": table, "ns": codes[2 * table - 2], "ew": codes[2 * table - 1], "deals": deals})
    archive = {
        "format": "huapai-event/1",
        "event": {
            "slug": "np-random",
            "name": "随机未打",
            "kind": "pairs",
            "match": {"mode": "boards", "boards": boards},
            "tiebreaks": ["match_points", "score_difference"],
            "not_played": rule,
        },
        "players": [{"id": f"p{i}", "name": f"选手{i}"} for i in range(2 * len(codes))],
        "pairs": [{"id": c, "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i, c in enumerate(codes)],
        "rounds": [{"number": 1, "status": "in_play", "matches": matches}],
    }
    adjusted = {
        (table, board): {seat: 10 * rng.randint(-30, 30) for seat in "NESW"}
        for table in range(1, tables + 1)
        for board in range(1, boards + 1)
        if (table, board) not in played
    }
    return archive, tables, boards, played, adjusted


def worked_by_hand(rule, tables, boards, played, adjusted, codes):
    """{entrant: (total score, score difference, 场分)} summed here, board by board."""
    figures = {code: [0, 0, 0] for code in codes}
    for table in range(1, tables + 1):
        ns_total = ew_total = 0
        for board in range(1, boards + 1):
            if (table, board) in played:
                (ns, ew), _ = side_scores(played[(table, board)])
            elif rule == "zero":
                ns = ew = 0
            elif rule == "adjusted":
                given_ = adjusted[(table, board)]
                ns, ew = given_["N"] + given_["S"], given_["E"] + given_["W"]
            else:
                others = [side_scores(played[(t, board)])[1] for t in range(1, tables + 1) if (t, board) in played]
                ns = half_away(Fraction(sum(o[0] for o in others), len(others))) if others else 0
                ew = half_away(Fraction(sum(o[1] for o in others), len(others))) if others else 0
            ns_total += ns
            ew_total += ew
        ns_code, ew_code = codes[2 * table - 2], codes[2 * table - 1]
        for code, own, other in ((ns_code, ns_total, ew_total), (ew_code, ew_total, ns_total)):
            points = POINTS["win"] if own > other else POINTS["loss"] if own < other else POINTS["draw"]
            figures[code][0] += own
            figures[code][1] += own - other
            figures[code][2] += points
    return {code: tuple(values) for code, values in figures.items()}


@settings(max_examples=scaled_examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), rule=st.sampled_from(RULES))
def test_standings_with_boards_not_played_equal_the_sums_worked_by_hand(seed, rule):
    rng = random.Random(seed)
    archive, tables, boards, played, adjusted = random_round(rng, rule)
    codes = [p["id"] for p in archive["pairs"]]
    with transaction.atomic():
        cache.clear()
        event = import_archive(archive)
        referee, second = make_user("np-ref", "referee", event), make_user("np-ref2", "referee", event)
        organiser = make_user("np-org", "organiser", event)
        for table in Table.objects.select_related("round__event").filter(round__event=event).order_by("number"):
            for board in range(1, boards + 1):
                if (table.number, board) in played:
                    continue
                table.refresh_from_db()  # the round is in play from the first record on
                deal, _ = board_not_played(table=table, board=board, user=referee, reason="未开始")
                if rule == "adjusted":
                    given_ = adjusted[(table.number, board)]
                    deal, _ = deal_save(
                        table=table,
                        board=board,
                        deal_json={"captured": {}, "adjusted": given_, "adjusted_reason": "裁判长"},
                        user=organiser,
                        expected_version=deal.version,
                    )
                    deal_confirm(deal=deal, user=second, expected_version=deal.version)
        rows = {row["id"]: row for row in standings_json(event)["rows"]}
        expected = worked_by_hand(rule, tables, boards, played, adjusted, codes)
        found = {code: (rows[code]["total_score"], rows[code]["score_difference"], rows[code]["match_points"])
                 for code in codes}  # fmt: skip
        transaction.set_rollback(True)
    assert found == expected
