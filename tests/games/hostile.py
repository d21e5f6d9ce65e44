"""Hostile values for every game's reader, shared by tests/games/*/test_hostile_input.py,
tests/games/shengji/test_validation.py and tests/games/test_engine_hostile_input.py: any JSON
value, put anywhere in a deal, is the game's refusal with a code, never another exception."""

import json

import orjson
from hypothesis import strategies as st

from scoring.games.refusals import DealError

# An integer whose repr raises (longer than Python's integer-string limit).
UNPRINTABLE = 10**5000


def json_values(words=(), numbers=(), *, orjson_only=False, huge=False, key_size=4):
    """Any JSON value, nested in lists and objects (up to 3 entries each, 8 leaves in all):
    null, booleans, integers within 64 bits and to ±2**70, floats with infinities, short text,
    and a game's own `words` and `numbers` (its keys, seats, choices and bounds).

    `orjson_only`: only what orjson writes (integers within 64 bits, finite floats), for a
    stream's lines. `huge`: a Python caller's worst too, integers of 4,400 to 5,000 digits
    (no repr) and NaN. `key_size`: the longest object key."""
    integers = st.integers(-(2**63), 2**64 - 1)
    if not orjson_only:
        integers |= st.integers(-(2**70), 2**70)
    if huge:
        integers |= st.integers(4400, 5000).map(lambda digits: 10**digits)
    scalars = (
        st.none()
        | st.booleans()
        | integers
        | st.floats(allow_nan=huge, allow_infinity=not orjson_only)
        | st.text(max_size=6)
    )
    if words:
        scalars |= st.sampled_from(list(words))
    if numbers:
        scalars |= st.sampled_from(list(numbers))
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=key_size), children, max_size=3)
        ),
        max_leaves=8,
    )


def put(deal, path, value):
    """Set `deal[path[0]][path[1]]…` to `value`, making each object on the way (replacing a
    value that is not an object)."""
    target = deal
    for key in path[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    target[path[-1]] = value


def nested_list(depth, inner=None):
    """`depth` lists, one inside the other, the innermost empty or holding `inner`: as deep as a
    stream's line may be (orjson reads 1024), or deeper than `repr` goes."""
    value = [] if inner is None else [inner]
    for _ in range(depth - 1):
        value = [value]
    return value


def assert_refusal(error, codes=None):
    """A refusal as the law wants it: the game's `DealError` with a code (one of `codes`, when
    given) and a short message, its JSON written by the standard library and by orjson."""
    assert isinstance(error, DealError), error
    assert error.code and (codes is None or error.code in codes), error.code
    assert error.message and len(error.message) < 300, error.message
    json.dumps(error.as_json(), ensure_ascii=False)
    orjson.dumps(error.as_json())
