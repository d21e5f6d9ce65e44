"""Players' statistics of an event: summed from the figures each deal stored when it was scored
(`Deal.seat_stats`) against scoring every deal again, with the floor of reading the same rows.

    .venv/bin/python bench/player_statistics.py [--pairs 250]

Uses a SQLite database of its own, var/bench-statistics-<pairs>.sqlite3, made on the first run
(an event of `--pairs` pairs, four rounds of 16 random boards, every round official).
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLUMNS = ("table_id", "board", "table__round__sessions", "seat_stats", "table__north_id", "table__east_id")


def make_event(pairs):
    from scoring.archive.database import import_archive
    from scoring.games.huapai.samples import random_deal

    rng = random.Random(5)
    codes = [f"A{i}" for i in range(pairs)]
    rounds = []
    for number in range(1, 5):
        order = codes[:]
        rng.shuffle(order)
        matches = []
        for table in range(pairs // 2):
            deals = []
            for board in range(1, 17):
                deal = random_deal(rng)
                del deal["ruleset"]
                deals.append({"board": board, **deal})
            matches.append({"table": table + 1, "ns": order[2 * table], "ew": order[2 * table + 1], "deals": deals})
        rounds.append({"number": number, "status": "official", "matches": matches})
    return import_archive(
        {
            "format": "huapai-event/1",
            "event": {
                "slug": "stats-bench",
                "name": "统计",
                "kind": "pairs",
                "match": {"mode": "boards", "length": 16},
            },
            "players": [{"id": f"p{i}", "name": f"选手{i}"} for i in range(2 * pairs)],
            "pairs": [{"id": code, "players": [f"p{2 * i}", f"p{2 * i + 1}"]} for i, code in enumerate(codes)],
            "rounds": rounds,
        }
    )


def best_of_three(work):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=250)
    pairs = parser.parse_args().pairs
    os.environ.update(
        DJANGO_SETTINGS_MODULE="huapai.settings",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{REPO}/var/bench-statistics-{pairs}.sqlite3",
    )
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.models import Deal, Event
    from scoring.results.statistics import player_statistics

    call_command("migrate", verbosity=0)
    event = Event.objects.filter(slug="stats-bench").first() or make_event(pairs)
    deals = Deal.objects.filter(table__round__event=event)

    def read_rows():
        for _row in deals.values_list(*COLUMNS).iterator(chunk_size=5000):
            pass

    floor = best_of_three(read_rows)
    stored = best_of_three(lambda: player_statistics(event))
    kept = list(deals.values_list("pk", "seat_stats"))
    deals.update(seat_stats=None)  # as deals stored before the figures were kept
    rescored = best_of_three(lambda: player_statistics(event))
    for pk, figures in kept:
        Deal.objects.filter(pk=pk).update(seat_stats=figures)
    print(f"{deals.count():,} deals; floor (reading their rows): {floor:.2f} s")
    print(f"summed from the stored figures: {stored:.2f} s ({stored / floor:.1f}x the floor)")
    print(f"scoring every deal again:       {rescored:.2f} s ({rescored / floor:.1f}x the floor)")


if __name__ == "__main__":
    main()
