"""Hypothesis strategies for 升级 deals, states and match options."""

from hypothesis import strategies as st

sides = st.sampled_from(["NS", "EW"])
levels = st.integers(1, 60)
points = st.integers(0, 40).map(lambda k: 5 * k)
start_levels = st.integers(1, 13)


@st.composite
def states(draw):
    return {"declarer": draw(sides), "levels": {"NS": draw(levels), "EW": draw(levels)}}


@st.composite
def first_deals(draw):
    deal = {"game": "shengji", "declarer": draw(sides), "points": draw(points)}
    if draw(st.booleans()):
        deal["options"] = {"start_level": draw(start_levels)}
    return deal


@st.composite
def later_deals(draw):
    state = draw(states())
    deal = {"game": "shengji", "state": state, "points": draw(points)}
    if draw(st.booleans()):
        deal["declarer"] = state["declarer"]
    return deal


valid_deals = first_deals() | later_deals()


@st.composite
def match_options(draw):
    """Event options of a match that can end: a target, a number of deals, or both."""
    start = draw(start_levels)
    target = draw(st.none() | st.integers(start, start + 12))
    deals = draw(st.integers(1, 12) if target is None else st.none() | st.integers(1, 12))
    return {"start_level": start, "target": target, "deals": deals}


@st.composite
def match_deals(draw, max_size=16):
    """A match's deals as a referee records them: the first names its declarer, later ones
    carry only their points."""
    played = draw(st.lists(points, min_size=1, max_size=max_size))
    return [{"game": "shengji", "declarer": draw(sides), "points": played[0]}] + [
        {"game": "shengji", "points": p} for p in played[1:]
    ]
