"""Generate a large pairs event archive (default: 10,000 players, 5,000 pairs, 9 Swiss rounds × 16 boards).

Rounds are paired with the site's own Swiss pairing on standings computed
from the plain results, so the event looks like a real one. Deterministic.
Run: .venv/bin/python bench/big_event.py --pairs 5000 --out bench/out/big-5000.json
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.engine.pairing import candidates_from_history, pair_swiss  # noqa: E402
from scoring.engine.standings import Format, MatchResult, TableResult, compute_standings  # noqa: E402
from scoring.games.huapai import score_deal  # noqa: E402
from scoring.games.huapai.samples import random_deal  # noqa: E402

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文"  # noqa: E501
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超霞平刚华建国志红玉兰英梅林海波辉鹏宇飞斌浩凯雪琳晨阳"


def generate(pairs, rounds=9, boards=16, seed=1):
    rng = random.Random(seed)
    players = []
    for index in range(1, 2 * pairs + 1):
        name = rng.choice(SURNAMES) + rng.choice(GIVEN) + (rng.choice(GIVEN) if rng.random() < 0.6 else "")
        players.append({"id": f"p{index:05d}", "name": name, "club": f"俱乐部{rng.randint(1, 200)}"})
    codes = [f"A{n:04d}" for n in range(1, pairs + 1)]
    entrants = [{"id": c, "players": [players[2 * i]["id"], players[2 * i + 1]["id"]]} for i, c in enumerate(codes)]
    fmt = Format(length=boards)
    history, archive_rounds, swiss_seconds = [], [], []
    for number in range(1, rounds + 1):
        rows = compute_standings(fmt, history, codes)
        if number == 1:
            rng.shuffle(rows)
        started = time.perf_counter()
        pairing = pair_swiss(candidates_from_history(rows, history))
        swiss_seconds.append(time.perf_counter() - started)
        matches = []
        for table, (ns, ew) in enumerate(pairing.tables, start=1):
            deals = []
            scored = []
            for board in range(1, boards + 1):
                deal = random_deal(rng)
                del deal["ruleset"]
                deal["board"] = board
                deals.append(deal)
                scored.append({"scores": score_deal(deal)["scores"], "penalties": deal.get("penalties", {})})
            matches.append({"table": table, "ns": ns, "ew": ew, "deals": deals})
            history.append(MatchResult(round=number, home=ns, away=ew, tables=[TableResult.from_deals(ns, ew, scored)]))
        for bye in pairing.byes:
            matches.append({"bye": bye})
            history.append(MatchResult(round=number, bye=bye))
        archive_rounds.append({"number": number, "status": "official", "matches": matches})
    archive = {
        "format": "huapai-event/1",
        "event": {
            "slug": f"big-{pairs}",
            "name": f"华牌大赛 {2 * pairs} 人",
            "kind": "pairs",
            "match": {"mode": "boards", "boards": boards},
        },
        "players": players,
        "pairs": entrants,
        "rounds": archive_rounds,
    }
    return archive, swiss_seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    archive, swiss = generate(args.pairs, args.rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(archive, out, ensure_ascii=False, separators=(",", ":"))
    print(json.dumps({"pure_swiss_seconds": swiss}))


if __name__ == "__main__":
    main()
