"""Random whole events, imported into the database, against a plain oracle written here.

The oracle scores each deal with the engine (tested on its own) and then does
the event arithmetic of event-archive.md the simplest way it can; the site's
figures come from the SQL aggregation and `scoring.engine.standings`.
"""

import random
from collections import defaultdict

import pytest

from scoring.archive.database import import_archive
from scoring.games.huapai import SEATS, score_deal
from scoring.games.huapai.samples import random_deal
from scoring.results.standings_json import standings_json

pytestmark = pytest.mark.django_db
CHAIN = ["match_points", "score_difference", "penalties"]
POINTS = {"win": 2, "draw": 1, "loss": 0}


def seat_scores(deal):
    return score_deal({k: v for k, v in deal.items() if k != "board"})["scores"]


def make_deals(rng, count):
    deals = []
    for board in range(1, count + 1):
        deal = random_deal(rng)
        deal.pop("ruleset")
        deal["board"] = board
        deals.append(deal)
    return deals


def result(own, other):
    return POINTS["win"] if own > other else POINTS["loss"] if own < other else POINTS["draw"]


def oracle_rank(figures, keys):
    ordered = sorted(figures.items(), key=lambda item: tuple(-item[1][k] for k in keys))
    rows, previous, rank = [], None, 0
    for position, (code, fig) in enumerate(ordered, start=1):
        key = tuple(fig[k] for k in keys)
        if key != previous:
            rank, previous = position, key
        rows.append((rank, code, fig))
    return rows


def random_pairs_event(seed, mode):
    rng = random.Random(seed)
    count = rng.randint(2, 9)
    codes = [f"A{i}" for i in range(1, count + 1)]
    people = [{"id": f"p{i}", "name": f"选手{i}"} for i in range(2 * count)]
    rounds = []
    for number in range(1, rng.randint(1, 4) + 1):
        order = codes[:]
        rng.shuffle(order)
        matches = []
        if len(order) % 2:
            matches.append({"bye": order.pop()})
        for table, i in enumerate(range(0, len(order), 2), start=1):
            n = rng.randint(0, 5) if mode == "boards" else rng.randint(1, 4)
            matches.append({"table": table, "ns": order[i], "ew": order[i + 1], "deals": make_deals(rng, n)})
        rounds.append({"number": number, "matches": matches})
    length = 2 if mode == "games" else 16
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": f"r{seed}{mode}",
            "name": "随机",
            "kind": "pairs",
            "match": {"mode": mode, mode: length},
            "tiebreaks": CHAIN,
            "game_threshold": 800 if mode == "games" else 1000,
        },
        "players": people,
        "pairs": [{"id": c, "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i, c in enumerate(codes)],
        "rounds": rounds,
    }, length


def oracle_pairs(archive, mode, length, threshold):
    fig = {
        p["id"]: {"match_points": 0, "score_difference": 0, "total_score": 0, "penalties": 0, "played": 0}
        for p in archive["pairs"]
    }
    for rnd in archive["rounds"]:
        for match in rnd["matches"]:
            if "bye" in match:
                fig[match["bye"]]["match_points"] += POINTS["win"]
                fig[match["bye"]]["played"] += 1
                continue
            if not match["deals"]:
                continue
            ns_total = ew_total = ns_pen = ew_pen = 0
            ns_points = ew_points = 0
            run_ns = run_ew = 0
            games, open_game = 0, False
            for deal in match["deals"]:
                scores = seat_scores(deal)
                ns, ew = scores["N"] + scores["S"], scores["E"] + scores["W"]
                ns_total += ns
                ew_total += ew
                ns_pen += deal.get("penalties", {}).get("N", 0) + deal.get("penalties", {}).get("S", 0)
                ew_pen += deal.get("penalties", {}).get("E", 0) + deal.get("penalties", {}).get("W", 0)
                run_ns += ns
                run_ew += ew
                open_game = True
                if max(abs(run_ns), abs(run_ew)) >= threshold:
                    ns_points += result(run_ns, run_ew)
                    ew_points += result(run_ew, run_ns)
                    run_ns = run_ew = 0
                    games += 1
                    open_game = False
            if mode == "games":
                if open_game and games < length:
                    ns_points += result(run_ns, run_ew)
                    ew_points += result(run_ew, run_ns)
            else:
                ns_points, ew_points = result(ns_total, ew_total), result(ew_total, ns_total)
            for code, points, own, other, pen in (
                (match["ns"], ns_points, ns_total, ew_total, ns_pen),
                (match["ew"], ew_points, ew_total, ns_total, ew_pen),
            ):
                fig[code]["match_points"] += points
                fig[code]["score_difference"] += own - other
                fig[code]["total_score"] += own
                fig[code]["penalties"] += pen
                fig[code]["played"] += 1
    return [{"rank": rank, "id": code, **f} for rank, code, f in oracle_rank(fig, CHAIN)]


def trim_games(archive, length, threshold):
    """Drop deals after the last 局 (the importer rightly refuses them)."""
    for rnd in archive["rounds"]:
        for match in rnd["matches"]:
            kept, games, run_ns, run_ew = [], 0, 0, 0
            for deal in match.get("deals", []):
                if games == length:
                    break
                kept.append(deal)
                scores = seat_scores(deal)
                run_ns += scores["N"] + scores["S"]
                run_ew += scores["E"] + scores["W"]
                if max(abs(run_ns), abs(run_ew)) >= threshold:
                    games, run_ns, run_ew = games + 1, 0, 0
            if "deals" in match:
                match["deals"] = kept


def by_rank_then_figures(rows):
    return sorted(rows, key=lambda r: (r["rank"], r["id"]))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("mode", ["boards", "games"])
def test_random_pairs_events_match_the_oracle(seed, mode):
    archive, length = random_pairs_event(seed, mode)
    threshold = archive["event"]["game_threshold"]
    if mode == "games":
        trim_games(archive, length, threshold)
    expected = oracle_pairs(archive, mode, length, threshold)
    event = import_archive(archive)
    assert by_rank_then_figures(standings_json(event)["rows"]) == by_rank_then_figures(expected)


@pytest.mark.parametrize("seed", range(5))
def test_random_team_events_match_the_oracle(seed):
    rng = random.Random(100 + seed)
    count = rng.choice([2, 4, 6])
    teams = [f"T{i}" for i in range(count)]
    people = [{"id": f"p{i}", "name": f"队员{i}"} for i in range(4 * count)]
    members = {t: [f"p{4 * i + k}" for k in range(4)] for i, t in enumerate(teams)}
    fig = {t: {"match_points": 0, "score_difference": 0, "total_score": 0, "penalties": 0, "played": 0} for t in teams}
    rounds = []
    for number in (1, 2):
        order = teams[:]
        rng.shuffle(order)
        matches = []
        for m, i in enumerate(range(0, count, 2)):
            home, away = order[i], order[i + 1]
            boards = make_deals(rng, rng.randint(1, 4))
            other = [dict(d, **{k: v for k, v in random_deal(rng).items() if k != "ruleset"}) for d in boards]
            t1 = {
                "table": 2 * m + 1,
                "ns_team": home,
                "ew_team": away,
                "ns": members[home][:2],
                "ew": members[away][2:],
                "deals": boards,
            }
            t2 = {
                "table": 2 * m + 2,
                "ns_team": away,
                "ew_team": home,
                "ns": members[away][:2],
                "ew": members[home][2:],
                "deals": other,
            }
            matches.append({"home": home, "away": away, "tables": [t1, t2]})
            totals = {home: 0, away: 0}
            pens = {home: 0, away: 0}
            for table in (t1, t2):
                for deal in table["deals"]:
                    s = seat_scores(deal)
                    p = deal.get("penalties", {})
                    totals[table["ns_team"]] += s["N"] + s["S"]
                    totals[table["ew_team"]] += s["E"] + s["W"]
                    pens[table["ns_team"]] += p.get("N", 0) + p.get("S", 0)
                    pens[table["ew_team"]] += p.get("E", 0) + p.get("W", 0)
            for team, opp in ((home, away), (away, home)):
                fig[team]["match_points"] += result(totals[team], totals[opp])
                fig[team]["score_difference"] += totals[team] - totals[opp]
                fig[team]["total_score"] += totals[team]
                fig[team]["penalties"] += pens[team]
                fig[team]["played"] += 1
        rounds.append({"number": number, "matches": matches})
    archive = {
        "format": "huapai-event/1",
        "event": {"slug": f"teams{seed}", "name": "团体", "kind": "teams", "tiebreaks": CHAIN},
        "players": people,
        "teams": [{"id": t, "name": t, "players": members[t]} for t in teams],
        "rounds": rounds,
    }
    expected = [{"rank": r, "id": c, **f} for r, c, f in oracle_rank(fig, CHAIN)]
    event = import_archive(archive)
    assert by_rank_then_figures(standings_json(event)["rows"]) == by_rank_then_figures(expected)


@pytest.mark.parametrize("seed", range(5))
def test_random_individual_events_match_the_oracle(seed):
    rng = random.Random(200 + seed)
    count = rng.randint(4, 11)
    ids = [f"p{i:02d}" for i in range(count)]
    totals, deals_played = defaultdict(int), defaultdict(int)
    rounds = []
    for number in (1, 2, 3):
        order = ids[:]
        rng.shuffle(order)
        matches = []
        for table, i in enumerate(range(0, count - count % 4, 4), start=1):
            seats = dict(zip(SEATS, order[i : i + 4], strict=True))
            deals = make_deals(rng, rng.randint(1, 3))
            for deal in deals:
                for seat, score in seat_scores(deal).items():
                    totals[seats[seat]] += score
                    deals_played[seats[seat]] += 1
            matches.append({"table": table, "seats": seats, "deals": deals})
        rounds.append({"number": number, "matches": matches})
    archive = {
        "format": "huapai-event/1",
        "event": {"slug": f"ind{seed}", "name": "个人", "kind": "individual"},
        "players": [{"id": i, "name": f"选手{i}"} for i in ids],
        "rounds": rounds,
    }
    # Players level on total share the rank: deals played never decide a place (event-archive.md).
    fig = {i: {"total_score": totals[i]} for i in ids}
    expected = [
        {"rank": r, "id": c, "total_score": f["total_score"], "deals": deals_played[c]}
        for r, c, f in oracle_rank(fig, ["total_score"])
    ]
    event = import_archive(archive)
    assert by_rank_then_figures(standings_json(event)["rows"]) == by_rank_then_figures(expected)
