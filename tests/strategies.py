"""Hypothesis strategies for random valid deals."""

from hypothesis import strategies as st

from scoring.rules import EXPOSABLE, POINT_CARDS, SEATS

seats = st.sampled_from(SEATS)


@st.composite
def valid_deals(draw, ruleset="huapai", exposures=True, penalties=True):
    if isinstance(ruleset, st.SearchStrategy):
        ruleset = draw(ruleset)
    owner = {card: draw(seats) for card in POINT_CARDS}
    captured = {seat: [card for card in POINT_CARDS if owner[card] == seat] for seat in SEATS}
    holders, exposed = {}, {}
    seats_with_first = set()
    for card in EXPOSABLE:
        holder = draw(st.one_of(st.none(), seats))
        if holder is None:
            continue
        holders[card] = holder
        if not exposures:
            continue
        kind = draw(st.sampled_from([None, "shown", "first"]))
        if kind == "first" and holder in seats_with_first:
            kind = "shown"
        if kind:
            exposed[card] = kind
            if kind == "first":
                seats_with_first.add(holder)
    deal = {"ruleset": ruleset, "captured": captured, "holders": holders, "exposed": exposed}
    if penalties:
        deal["penalties"] = draw(
            st.dictionaries(seats, st.integers(min_value=-500, max_value=-1).map(lambda n: n * 10))
        )
    return deal
