"""Hypothesis strategies for random valid deals, one deck or two, and rule options."""

from hypothesis import strategies as st

from scoring.games.huapai import EXPOSABLE, POINT_CARDS, RULESETS, SEATS
from scoring.games.huapai.rulesets import NORMALISATIONS, SCALE_MAX, SCALE_MIN

seats = st.sampled_from(SEATS)

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "first_exposure": st.booleans(),
        "self_capture": st.booleans(),
        "normalisation": st.sampled_from(NORMALISATIONS),
        "scale": st.integers(SCALE_MIN, SCALE_MAX),
    },
)


@st.composite
def valid_deals(draw, ruleset="huapai", exposures=True, penalties=True, options=None):
    """A valid deal of `ruleset` (a name or a strategy of names) in deal-json.md form.

    Two-deck rule sets get every point card twice and per-copy `exposed`/`holders` lists.
    """
    if isinstance(ruleset, st.SearchStrategy):
        ruleset = draw(ruleset)
    decks = RULESETS[ruleset].decks
    captured = {seat: [] for seat in SEATS}
    for card in POINT_CARDS:
        for _ in range(decks):
            captured[draw(seats)].append(card)
    holders, exposed = {}, {}
    seats_with_first = set()
    for card in EXPOSABLE:
        copy_holders = draw(st.lists(seats, max_size=decks))
        if not copy_holders:
            continue
        kinds = []
        if exposures:
            for holder in copy_holders[: draw(st.integers(0, len(copy_holders)))]:
                kind = draw(st.sampled_from(["shown", "first"]))
                if kind == "first" and holder in seats_with_first:
                    kind = "shown"
                if kind == "first":
                    seats_with_first.add(holder)
                kinds.append(kind)
        if decks == 1:
            holders[card] = copy_holders[0]
            if kinds:
                exposed[card] = kinds[0]
        else:
            holders[card] = copy_holders
            if kinds:
                exposed[card] = kinds
    deal = {"ruleset": ruleset, "captured": captured, "holders": holders, "exposed": exposed}
    if penalties:
        deal["penalties"] = draw(
            st.dictionaries(seats, st.integers(min_value=-500, max_value=-1).map(lambda n: n * 10))
        )
    if options is not None:
        deal["options"] = draw(options) if isinstance(options, st.SearchStrategy) else options
    return deal
