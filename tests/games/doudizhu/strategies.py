"""Hypothesis strategies for 蚌埠斗地主 deals (law §1.2), written from the law, not the engine."""

from hypothesis import strategies as st

SEATS = ("N", "E", "S", "W")
seats = st.sampled_from(SEATS)

deal_options = st.fixed_dictionaries(
    {},
    optional={
        "feidan_stack": st.sampled_from(["add", "once"]),
        "feidan_reversal": st.booleans(),
        "tianzha_points": st.integers(0, 1000),
        "tianzun_points": st.integers(0, 1000),
    },
)


@st.composite
def played_deals(draw, options=deal_options):
    """A valid played deal (no 天炸/天尊), its keys in any of the law's optional forms."""
    landlord = draw(seats)
    bid = draw(st.sampled_from([1, 2, 3, "grab"]))
    deal = {"game": "bengbu-doudizhu", "landlord": landlord, "bid": bid}
    opened = draw(st.sampled_from([None, True] if bid == "grab" else [None, True, False]))
    if opened is not None:
        deal["open"] = opened
    deal["first_out"] = draw(seats)
    counts = draw(st.dictionaries(seats, st.integers(0, 3), max_size=4) | st.none())
    if counts is not None:
        if landlord in counts:
            counts[landlord] = draw(st.integers(0, 5))
        deal["feidan"] = counts
    chosen = draw(st.none() | options)
    if chosen:
        deal["options"] = chosen
    if draw(st.booleans()):
        deal["tianzha"] = draw(st.sampled_from([[], None]))
    if draw(st.booleans()):
        deal["tianzun"] = None
    return deal


@st.composite
def tian_deals(draw, options=deal_options):
    """A valid 天炸/天尊 deal: at least one holder, no key of play."""
    tianzha = draw(st.lists(seats, unique=True, max_size=4))
    tianzun = draw(st.none() | seats)
    if not tianzha and tianzun is None:
        tianzha = [draw(seats)]
    deal = {"game": "bengbu-doudizhu", "tianzha": tianzha}
    if tianzun is not None or draw(st.booleans()):
        deal["tianzun"] = tianzun
    chosen = draw(st.none() | options)
    if chosen:
        deal["options"] = chosen
    return deal
