"""Benchmark: the two ways a 华牌 deal could be stored, measured in one run on one database.

Every game keeps its deal whole in `Deal.game_data` (one JSON column). 华牌 used to keep its
cards in three columns of their own (`captured`, `holders`, `exposed`) beside `penalties`.
The choice was to be kept only if it costs nothing that matters; this measures both shapes of
the same busy deals in two scratch tables of the same database, interleaved, best of `--repeat`:

- save: inserting the deals one row each (`executemany`), as the import and the save path do;
- read: selecting them back and decoding them to deal JSON, as travellers, statistics and the
  table's state do.

Standings read only the seat score columns, which both shapes share, so they do not differ.

Run: .venv/bin/python bench/deal_shape.py [--deals 20000] [--repeat 5] [--db sqlite|postgres]
"""

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SHAPES = {
    # The shape every game has today: the deal whole.
    "one JSON column (today)": ("game_data text", lambda deal: (json.dumps(deal),)),
    # 华牌's former shape: a column per part of the deal.
    "a column per part (before)": (
        "captured text, holders text, exposed text, penalties text",
        lambda deal: tuple(json.dumps(deal.get(key, {})) for key in ("captured", "holders", "exposed", "penalties")),
    ),
}


def decode_whole(row):
    return json.loads(row[0])


def decode_parts(row):
    return dict(zip(("captured", "holders", "exposed", "penalties"), map(json.loads, row), strict=True))


DECODE = {"one JSON column (today)": decode_whole, "a column per part (before)": decode_parts}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args()
    if args.db == "postgres":
        os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huapai.settings")
    import django

    django.setup()
    from django.db import connection

    from scoring.games.huapai.samples import random_deal

    rng = random.Random(2026)
    deals = [random_deal(rng) for _ in range(args.deals)]
    best = {name: {"save": float("inf"), "read": float("inf")} for name in SHAPES}
    with connection.cursor() as cursor:
        for _ in range(args.repeat):
            for name, (columns, encode) in SHAPES.items():
                width = columns.count(",") + 1
                cursor.execute("DROP TABLE IF EXISTS bench_deal_shape")
                cursor.execute(f"CREATE TABLE bench_deal_shape (id integer, {columns})")
                rows = [(number, *encode(deal)) for number, deal in enumerate(deals)]
                started = time.perf_counter()
                cursor.executemany(
                    f"INSERT INTO bench_deal_shape VALUES (%s{', %s' * width})",
                    rows,
                )
                best[name]["save"] = min(best[name]["save"], time.perf_counter() - started)
                started = time.perf_counter()
                cursor.execute(f"SELECT {', '.join(c.split()[0] for c in columns.split(', '))} FROM bench_deal_shape")
                read = [DECODE[name](row) for row in cursor.fetchall()]
                best[name]["read"] = min(best[name]["read"], time.perf_counter() - started)
                assert len(read) == len(deals)
            cursor.execute("DROP TABLE IF EXISTS bench_deal_shape")
    floor = best["a column per part (before)"]
    print(f"{args.deals} busy 华牌 deals on {connection.vendor}, best of {args.repeat}:")
    for name, figures in best.items():
        print(
            f"  {name:28} save {figures['save'] * 1000:8.1f} ms ({figures['save'] / floor['save']:.2f}×)"
            f"   read {figures['read'] * 1000:8.1f} ms ({figures['read'] / floor['read']:.2f}×)"
        )


if __name__ == "__main__":
    main()
