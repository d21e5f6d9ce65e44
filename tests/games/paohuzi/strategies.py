"""Hypothesis strategies for 跑胡子 deals: valid wins and 黄庄 in the law's JSON (§3.2), options,
and the law's expected score computed here, from the law's words, not from the engine."""

from hypothesis import strategies as st

SEATS = ("E", "S", "W")
seats = st.sampled_from(SEATS)

deal_options = st.fixed_dictionaries(
    {},
    optional={
        "min_huxi": st.integers(1, 60),
        "tun_step": st.integers(1, 10),
        "di": st.integers(0, 10),
        "discard_pays": st.sampled_from(["all", "discarder"]),
        "huang_per_wangba": st.integers(0, 100),
    },
)


@st.composite
def wangba_holdings(draw, total):
    """seat → 王霸 held, `total` in all; seats holding none sometimes written as 0 or null."""
    counts = dict.fromkeys(SEATS, 0)
    for _ in range(total):
        counts[draw(seats)] += 1
    written = {}
    for seat in draw(st.permutations(SEATS)):
        if counts[seat]:
            written[seat] = counts[seat]
        else:
            blank = draw(st.sampled_from(["left out", 0, None]))
            if blank != "left out":
                written[seat] = blank
    return written


@st.composite
def huang_deals(draw, options=deal_options):
    deal = {"game": "paohuzi", "winner": None, "wangba": draw(wangba_holdings(2))}
    chosen = draw(options)
    if chosen:
        deal["options"] = chosen
    if draw(st.booleans()):
        deal["dealer"] = draw(seats)
    return deal


@st.composite
def win_deals(draw, options=deal_options, held=None):
    """A valid win. `held`: the winner's 王霸 (drawn when None)."""
    chosen = draw(options)
    winner = draw(seats)
    held = draw(st.integers(0, 2)) if held is None else held
    others = [seat for seat in SEATS if seat != winner]
    wangba = {winner: held} if held else {}
    for _ in range(draw(st.integers(0, 2 - held))):
        seat = draw(st.sampled_from(others))
        wangba[seat] = wangba.get(seat, 0) + 1
    source = "self" if held else draw(st.sampled_from(["self", "draw", "discard"]))
    minimum = chosen.get("min_huxi", 15)
    deal = {
        "game": "paohuzi",
        "winner": winner,
        "wangba": wangba,
        "huxi": draw(st.integers(minimum, 200)),
        "red": draw(st.integers(0, 26)),
        "source": source,
    }
    if source == "discard" or (source == "draw" and draw(st.booleans())):
        deal["from"] = draw(st.sampled_from(others))
    if source == "self":
        kinds = ["none"] + ["wangdiao"] * (held >= 1) + ["wangdiaowang", "wangchuang"] * (held == 2)
        wang = draw(st.sampled_from([*kinds, None]))
        if wang is not None:
            deal["wang"] = wang
    if draw(st.booleans()):
        deal["xing"] = draw(st.integers(0, 4 + held))
    if chosen:
        deal["options"] = chosen
    if draw(st.booleans()):
        deal["dealer"] = draw(seats)
    return deal


valid_deals = st.one_of(win_deals(), huang_deals())


def law_scores(deal):
    """The scores §3.4 gives a valid deal, computed independently of the engine."""
    options = {"min_huxi": 15, "tun_step": 3, "di": 0, "discard_pays": "all", "huang_per_wangba": 5}
    options.update(deal.get("options") or {})
    wangba = {seat: deal["wangba"].get(seat) or 0 for seat in SEATS}
    scores = dict.fromkeys(SEATS, 0)
    winner = deal["winner"]
    if winner is None:  # P6
        for holder in SEATS:
            for other in SEATS:
                if wangba[holder] and not wangba[other]:
                    scores[holder] -= options["huang_per_wangba"] * wangba[holder]
                    scores[other] += options["huang_per_wangba"] * wangba[holder]
        return scores
    tun = 1 + (deal["huxi"] - options["min_huxi"]) // options["tun_step"]
    zi = tun + (deal.get("xing") or 0) + options["di"]
    red = deal["red"]
    colour = 2 if red >= 10 else 3 if red == 1 else 4 if red == 0 else 1
    wang = deal.get("wang") or "none"
    kind = {"wangdiao": 4, "wangdiaowang": 8, "wangchuang": 8}.get(wang, 2 if deal["source"] == "self" else 1)
    x = zi * colour * kind
    if deal["source"] == "discard" and options["discard_pays"] == "discarder":
        scores[winner], scores[deal["from"]] = 2 * x, -2 * x
    else:
        for seat in SEATS:
            scores[seat] = 2 * x if seat == winner else -x
    return scores
