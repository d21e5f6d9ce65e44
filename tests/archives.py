"""Small archives for tests, built from shared examples whose side scores are known by hand."""

import copy
import json

from tests.conftest import SHARED, load_examples

EXAMPLES = {example["name"]: example for example in load_examples()}
ROTATE = {"N": "E", "E": "S", "S": "W", "W": "N"}


def deal(name, board, **extra):
    """The example's deal as an archive deal; `rotated=True` moves every seat one to the left."""
    source = copy.deepcopy(EXAMPLES[name]["deal"])
    source.pop("ruleset", None)
    if extra.pop("rotated", False):
        source["captured"] = {ROTATE[s]: cards for s, cards in source["captured"].items()}
        source["holders"] = {card: ROTATE[s] for card, s in source.get("holders", {}).items()}
        source["penalties"] = {ROTATE[s]: p for s, p in source.get("penalties", {}).items()}
    return {"board": board, **source, **extra}


def sides(name):
    """The hand-worked side scores of an example, read from examples.json."""
    return EXAMPLES[name]["expected"]["sides"]


def players(count, prefix="p"):
    names = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜"
    return [
        {"id": f"{prefix}{i:02d}", "name": names[(i - 1) % len(names)] + "某" + str(i)} for i in range(1, count + 1)
    ]


def pairs_archive(pair_ids, rounds, *, slug="t-pairs", mode="boards", length=16, tiebreaks=None, threshold=1000):
    people = players(2 * len(pair_ids))
    archive = {
        "format": "huapai-event/1",
        "event": {
            "slug": slug,
            "name": "测试双人赛",
            "kind": "pairs",
            "game_threshold": threshold,
            "match": {"mode": mode, "games" if mode == "games" else "boards": length},
        },
        "players": people,
        "pairs": [
            {"id": code, "players": [people[2 * i]["id"], people[2 * i + 1]["id"]]} for i, code in enumerate(pair_ids)
        ],
        "rounds": rounds,
    }
    if tiebreaks:
        archive["event"]["tiebreaks"] = tiebreaks
    return archive


def four_pairs_two_rounds(**options):
    """A B C D over two rounds, worked by hand in test_standings_hand_worked."""
    return pairs_archive(
        ["A", "B", "C", "D"],
        [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1)]},
                    {"table": 2, "ns": "C", "ew": "D", "deals": [deal("T7", 1)]},
                ],
            },
            {
                "number": 2,
                "matches": [
                    {"table": 1, "ns": "A", "ew": "C", "deals": [deal("T2", 1)]},
                    {"table": 2, "ns": "D", "ew": "B", "deals": [deal("T1", 1)]},
                ],
            },
        ],
        **options,
    )


def one_match(deals, **options):
    """Pairs A (NS) and B (EW) playing `deals` at table 1 of round 1."""
    return pairs_archive(
        ["A", "B"], [{"number": 1, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": deals}]}], **options
    )


def team_match(table_one_deals, table_two_deals, *, slug="t-teams", status=None, boards=1):
    """Teams X (p01–p04, home) and Y (p05–p08): X sits NS at table 1, Y at table 2."""
    people = players(8)
    rnd = {
        "number": 1,
        "matches": [
            {
                "home": "X",
                "away": "Y",
                "tables": [
                    {
                        "table": 1,
                        "ns_team": "X",
                        "ew_team": "Y",
                        "ns": ["p01", "p02"],
                        "ew": ["p05", "p06"],
                        "deals": table_one_deals,
                    },
                    {
                        "table": 2,
                        "ns_team": "Y",
                        "ew_team": "X",
                        "ns": ["p07", "p08"],
                        "ew": ["p03", "p04"],
                        "deals": table_two_deals,
                    },
                ],
            }
        ],
    }
    if status:
        rnd["status"] = status
    return {
        "format": "huapai-event/1",
        "event": {"slug": slug, "name": "团体", "kind": "teams", "match": {"mode": "boards", "boards": boards}},
        "players": people,
        "teams": [
            {"id": "X", "name": "甲队", "players": [p["id"] for p in people[:4]]},
            {"id": "Y", "name": "乙队", "players": [p["id"] for p in people[4:]]},
        ],
        "rounds": [rnd],
    }


def individual_archive(count=4, bye=None):
    """Players p01–p0N; round 1 seats p01–p04 at table 1 (example T1), `bye` sits out."""
    seats = {"N": "p01", "E": "p02", "S": "p03", "W": "p04"}
    matches = [{"table": 1, "seats": seats, "deals": [deal("T1", 1)]}]
    if bye:
        matches.append({"bye": bye})
    return {
        "format": "huapai-event/1",
        "event": {"slug": "t-ind", "name": "个人", "kind": "individual"},
        "players": players(count),
        "rounds": [{"number": 1, "matches": matches}],
    }


def game_examples(game_id):
    """The worked examples of shared/rules/games/examples.json for one game, by name."""
    path = SHARED / "rules" / "games" / "examples.json"
    return {e["name"]: e for e in json.loads(path.read_text(encoding="utf-8")) if e["game"] == game_id}


DOUDIZHU = "bengbu-doudizhu"
# Two tables of round 1 of `doudizhu_archive`, each a match of four worked examples of the law
# (none with deal options: the event's rules apply to every deal).
DOUDIZHU_TABLES = {1: ("DDZ01", "DDZ14", "DDZ22", "DDZ29"), 2: ("DDZ13", "DDZ18", "DDZ26", "DDZ17")}


def doudizhu_deal(name, board):
    """A 蚌埠斗地主 worked example as an archive deal (without "game": the event says it)."""
    source = copy.deepcopy(game_examples(DOUDIZHU)[name]["deal"])
    source.pop("game", None)
    return {"board": board, **source}


def doudizhu_archive(*, slug="t-ddz", options=None, tables=DOUDIZHU_TABLES, status=None):
    """A 蚌埠斗地主 individual event: p01–p08, round 1 with p01–p04 at table 1 and p05–p08 at
    table 2 (N E S W in number order), each table's deals the examples named in `tables`."""
    rnd = {
        "number": 1,
        "matches": [
            {
                "table": number,
                "seats": dict(zip("NESW", [f"p{4 * (number - 1) + i:02d}" for i in range(1, 5)], strict=True)),
                "deals": [doudizhu_deal(name, board) for board, name in enumerate(names, start=1)],
            }
            for number, names in tables.items()
        ],
    }
    if status:
        rnd["status"] = status
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": slug,
            "name": "蚌埠斗地主测试赛",
            "game": DOUDIZHU,
            "kind": "individual",
            "match": {"mode": "boards", "boards": 4},
            "options": {"deals_per_match": 4, **(options or {})},
        },
        "players": players(8),
        "rounds": [rnd],
    }


SHENGJI = "shengji"


def shengji_match_deals(name):
    """The deals of a 升级 worked match (examples.json `SJM…`) as archive deals, boards from 1
    (without "game": the event says it; later deals without a state: the match carries it)."""
    deals = copy.deepcopy(game_examples(SHENGJI)[name]["match"])
    return [{"board": board, **{k: v for k, v in d.items() if k != "game"}} for board, d in enumerate(deals, 1)]


# Table 2 of round 1 of `shengji_archive`: EW on 台上 first; 40 (S2: EW A→3), 60 (S3: EW 3→4),
# 100 (S4: the sides swap, NS on 台上 at A, nothing gained), 45 (S2: NS A→3). After 4 deals NS 3,
# EW 4: EW win by one level (M3). Worked by hand from §2.3 S2–S5.
SHENGJI_TABLE_TWO = [
    {"board": 1, "declarer": "EW", "points": 40},
    {"board": 2, "points": 60},
    {"board": 3, "points": 100},
    {"board": 4, "points": 45},
]


def shengji_archive(*, slug="t-sj", status=None, table_one=None, table_two=None, options=None, boards=4):
    """A 升级 pairs event of four pairs A–D (p01–p08), one round: A (NS) against B at table 1
    playing SJM2 (the seed's 模擬 as a 4-deal match: NS 5, EW A, NS win), C (NS) against D at
    table 2 playing `SHENGJI_TABLE_TWO` (EW win, 4 to 3); matches of 4 deals, no target (M3)."""
    people = players(8)
    rnd = {
        "number": 1,
        "matches": [
            {
                "table": 1,
                "ns": "A",
                "ew": "B",
                "deals": shengji_match_deals("SJM2") if table_one is None else table_one,
            },
            {
                "table": 2,
                "ns": "C",
                "ew": "D",
                "deals": copy.deepcopy(SHENGJI_TABLE_TWO) if table_two is None else table_two,
            },
        ],
    }
    if status:
        rnd["status"] = status
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": slug,
            "name": "升级测试赛",
            "game": SHENGJI,
            "kind": "pairs",
            "match": {"mode": "boards", "boards": boards},
            "options": {"start_level": 1, "target": None, "deals": 4} if options is None else options,
        },
        "players": people,
        "pairs": [
            {"id": code, "players": [people[2 * i]["id"], people[2 * i + 1]["id"]]} for i, code in enumerate("ABCD")
        ],
        "rounds": [rnd],
    }


PAOHUZI = "paohuzi"
# Round 1 of `paohuzi_archive`: two tables of three, each a match of three worked examples of the
# law (none with deal options: the event's rules apply to every deal); p07 sits out (a bye).
PAOHUZI_TABLES = {1: ("PHZ01", "PHZ13", "PHZ05"), 2: ("PHZ07", "PHZ14", "PHZ06")}


def paohuzi_deal(name, board):
    """A 跑胡子 worked example as an archive deal (without "game": the event says it)."""
    source = copy.deepcopy(game_examples(PAOHUZI)[name]["deal"])
    source.pop("game", None)
    return {"board": board, **source}


def paohuzi_archive(*, slug="t-phz", options=None, tables=PAOHUZI_TABLES, status=None, count=7, bye="p07"):
    """A 跑胡子 individual event: p01–p0N, round 1 with p01–p03 at table 1 and p04–p06 at table 2
    (E S W in number order, North empty), each table's deals the examples named in `tables`,
    and `bye` sitting out (seven players: a count that does not divide by three)."""
    matches = [
        {
            "table": number,
            "seats": dict(zip("ESW", [f"p{3 * (number - 1) + i:02d}" for i in range(1, 4)], strict=True)),
            "deals": [paohuzi_deal(name, board) for board, name in enumerate(names, start=1)],
        }
        for number, names in tables.items()
    ]
    if bye:
        matches.append({"bye": bye})
    rnd = {"number": 1, "matches": matches}
    if status:
        rnd["status"] = status
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": slug,
            "name": "跑胡子测试赛",
            "game": PAOHUZI,
            "kind": "individual",
            "match": {"mode": "boards", "boards": 3},
            "options": {"deals_per_match": 3, **(options or {})},
        },
        "players": players(count),
        "rounds": [rnd],
    }
