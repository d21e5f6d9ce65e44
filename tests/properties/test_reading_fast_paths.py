"""The reader's shortcuts for canonical spellings read a deal exactly as its general path.

`read_deal` takes a canonical card with a seat (or list of seats) in `holders`, a kind (or
list of kinds) in `exposed`, and the captured cards of four seats holding every point card
exactly as often as the decks give it, without the general path; spelling the same deal
loosely (lower case, suit symbols, spaces) sends every entry down the general path, so the
two readings must be equal, and so must their refusals.
"""

from hypothesis import given
from hypothesis import strategies as st

from scoring.games.huapai.cards import SUIT_SYMBOLS
from scoring.games.huapai.deal import from_canonical, read_deal
from scoring.games.huapai.player_stats import _without_exposures, without_exposures_of
from scoring.games.huapai.rulesets import RULESETS
from tests.strategies import valid_deals

loose_seat = st.sampled_from([" {} ", "{} ", "\t{}"])


def _loose_card(card):
    return f" {SUIT_SYMBOLS[card[0]]}{card[1:].lower()}"


def _loosely(deal, draw):
    def seat(value):
        return draw(loose_seat).format(value.lower())

    def seats(value):
        return [seat(item) for item in value] if isinstance(value, list) else seat(value)

    spelled = dict(deal)
    spelled["captured"] = {seat: [_loose_card(card) for card in cards] for seat, cards in deal["captured"].items()}
    spelled["holders"] = {_loose_card(card): seats(value) for card, value in deal["holders"].items()}
    spelled["exposed"] = {_loose_card(card): value for card, value in deal["exposed"].items()}
    return spelled


@given(valid_deals(ruleset=st.sampled_from(["huapai", "online-2deck"])), st.data())
def test_a_deal_reads_the_same_however_its_holders_are_spelled(deal, data):
    fast, fast_problems = read_deal(deal)
    general, general_problems = read_deal(_loosely(deal, data.draw))
    assert fast_problems == general_problems == []
    assert fast == general


@given(valid_deals(ruleset=st.sampled_from(["huapai", "online-2deck"])), st.sampled_from("NESW"))
def test_a_canonical_deal_without_a_seats_exposures_is_the_deal_read_again(deal, seat):
    """Players' statistics score each deal again without one seat's exposures, from its canonical
    form (`from_canonical`) and not reading it again: the same deal as `read_deal` makes of it."""
    rules = RULESETS[deal["ruleset"]]
    canonical, problems = read_deal(deal, rules=rules)
    assert problems == []
    for changed in (canonical.as_json(), without_exposures_of(canonical.as_json(), seat)):
        read_again, problems = read_deal(changed, rules=rules)
        assert problems == []
        assert from_canonical(changed, rules) == read_again
    assert _without_exposures(canonical, seat) == read_deal(without_exposures_of(deal, seat), rules=rules)[0]


junk = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.sampled_from(["", "X", "NN", "shown", "first", "N", "S"]),
    st.lists(st.sampled_from(["N", "E", "shown", "first", "", 1]), max_size=4),
    st.dictionaries(st.sampled_from(["N", "a"]), st.integers(), max_size=2),
)


@given(valid_deals(ruleset=st.sampled_from(["huapai", "online-2deck"])), st.sampled_from(["holders", "exposed"]), junk)
def test_a_wrong_entry_is_refused_alike_whether_the_card_is_spelled_canonically_or_not(deal, field, value):
    canonical = {**deal, field: {**deal[field], "SQ": value}}
    loose = {**deal, field: {**{k: v for k, v in deal[field].items() if k != "SQ"}, "sq": value}}
    first, first_problems = read_deal(canonical)
    second, second_problems = read_deal(loose)
    assert [p.code for p in first_problems] == [p.code for p in second_problems]
    assert first == second


captured_changes = st.sampled_from(["drop a card", "copy a card", "an extra card", "a number", "a seat less", "none"])


@given(valid_deals(ruleset=st.sampled_from(["huapai", "online-2deck"])), captured_changes, st.randoms())
def test_captured_cards_off_the_usual_shape_are_refused_alike_however_they_are_spelled(deal, change, rng):
    captured = {seat: list(cards) for seat, cards in deal["captured"].items()}
    seat = rng.choice([seat for seat, cards in captured.items() if cards])
    if change == "drop a card":
        captured[seat].pop()
    elif change == "copy a card":
        captured[seat].append(captured[seat][0])
    elif change == "an extra card":
        captured[seat].append("S2")  # not a point card: read and left out
    elif change == "a number":
        captured[seat].append(7)
    elif change == "a seat less":
        del captured[seat]
    canonical = {**deal, "captured": captured}
    loose = {
        **canonical,
        "captured": {s: [_loose_card(c) if isinstance(c, str) else c for c in cards] for s, cards in captured.items()},
    }
    first, first_problems = read_deal(canonical)
    second, second_problems = read_deal(loose)
    assert [p.code for p in first_problems] == [p.code for p in second_problems]
    assert [p.as_json() for p in first_problems] == [p.as_json() for p in second_problems]
    assert first == second
    if change in ("drop a card", "copy a card", "a number", "a seat less"):
        assert first_problems, change
