"""A small pairs event whose every figure is worked out by hand from the rules
(/work/shared/rules/README.md §4, §7), for the director's papers: the cross table, the draw,
the awards and the results pack.

Three deals, no exposures, no holders (so no 自得):

- α: N ♥A (−50); E ♥K…♥2 (−40 −30 −20 and six −10: −150); S ♦J (+100); W ♠Q ♣10 ((−100)×2 = −200).
  NS −50+100 = +50, EW −150−200 = −350. With a penalty of −30 on W ("α−30"): EW −380.
- β: α turned one seat: E ♥A, S ♥K…♥2, W ♦J, N ♠Q ♣10. NS −200−150 = −350, EW −50+100 = +50.
- γ: N ♦J ♣10 ((+100)×2 = +200); E ♠Q (−100); S all thirteen hearts (全红: +200); W nothing.
  NS +400, EW −100.

Pairs A 张伟、李娜 · B 王芳、刘洋 · C 陈静、杨磊 · D 赵敏、黄勇 · E 周杰、曾霞 (E joins in round 3;
B withdraws after round 2). Two boards a match.

Round 1 (official):  A–B α, γ: A 50+400 = +450, B −350−100 = −450 → A 2 (+900), B 0 (−900).
                     C–D β, α−30: C −350+50 = −300, D 50−380 = −330 → C 2 (+30), D 0 (−30).
Round 2 (provisional): A–C α, β: A 50−350 = −300, C −350+50 = −300 → drawn, 1 each (0).
                     D–B γ, γ: D +800, B −200 → D 2 (+1000), B 0 (−1000).
Round 3 (in play, draw released): A–D α only (one board of two: not finished): A +50, D −350.
                     C–E β, β: C −700, E +100 → E 2 (+800), C 0 (−800).

Public standings (rounds 1–2): A 3 (+900) 1st, C 3 (+30) 2nd, D 2 (+970) 3rd, B 0 (−1900) 4th.
Officials' (rounds 1–3, unfinished A–D not counted): A 3 (+900), C 3 (−770), D 2 (+970),
E 2 (+800), B 0 (−1900).
"""

HEARTS_BELOW_ACE = ["HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"]
ALPHA = {"N": ["HA"], "E": HEARTS_BELOW_ACE, "S": ["DJ"], "W": ["SQ", "C10"]}
BETA = {"E": ["HA"], "S": HEARTS_BELOW_ACE, "W": ["DJ"], "N": ["SQ", "C10"]}
GAMMA = {"N": ["DJ", "C10"], "E": ["SQ"], "S": ["HA", *HEARTS_BELOW_ACE], "W": []}

PAIRS = {
    "A": ("张伟", "李娜"),
    "B": ("王芳", "刘洋"),
    "C": ("陈静", "杨磊"),
    "D": ("赵敏", "黄勇"),
    "E": ("周杰", "曾霞"),
}


def _deal(board, captured, penalties=None):
    return {"board": board, "captured": captured, **({"penalties": penalties} if penalties else {})}


def _match(table, ns, ew, deals):
    return {"table": table, "ns": ns, "ew": ew, "deals": [_deal(n, c, p) for n, (c, p) in enumerate(deals, start=1)]}


def directors_archive(slug="t-director"):
    players, pairs = [], []
    for code, names in PAIRS.items():
        ids = []
        for position, name in enumerate(names, start=1):
            ids.append(f"{code}-{position}")
            players.append({"id": f"{code}-{position}", "name": name, "club": "太原" if code in "AC" else "大同"})
        pair = {"id": code, "players": ids}
        if code == "E":
            pair["joined_round"] = 3
        if code == "B":
            pair["withdrawn_after_round"] = 2
        pairs.append(pair)
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": slug,
            "name": "太原华牌邀请赛",
            "kind": "pairs",
            "match": {"mode": "boards", "boards": 2},
        },
        "players": players,
        "pairs": pairs,
        "rounds": [
            {
                "number": 1,
                "status": "official",
                "matches": [
                    _match(1, "A", "B", [(ALPHA, None), (GAMMA, None)]),
                    _match(2, "C", "D", [(BETA, None), (ALPHA, {"W": -30})]),
                ],
            },
            {
                "number": 2,
                "status": "provisional",
                "matches": [
                    _match(1, "A", "C", [(ALPHA, None), (BETA, None)]),
                    _match(2, "D", "B", [(GAMMA, None), (GAMMA, None)]),
                ],
            },
            {
                "number": 3,
                "status": "in_play",
                "draw": "released",
                "matches": [
                    _match(1, "A", "D", [(ALPHA, None)]),
                    _match(2, "C", "E", [(BETA, None), (BETA, None)]),
                ],
            },
        ],
    }
