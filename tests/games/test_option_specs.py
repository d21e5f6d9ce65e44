"""One option spec for every game (scoring.games.options): strict JSON types, the hint a
refusal names, plain data for a form, and every game listing its options as specs that its
`rules` takes — deal-level ones in `options`, event-level ones as keywords."""

import json

import pytest

from scoring.games import GAMES
from scoring.games.options import DEAL, EVENT, Option
from scoring.games.refusals import DealError

FLAG = Option("flag", DEAL, False, "开关", choices=(False, True))
KIND = Option("kind", EVENT, "total", "方式", choices=("total", "table_points"))
COUNT = Option("count", DEAL, 30, "分数", minimum=0, maximum=1000)
OPEN_ENDED = Option("deals", EVENT, None, "局数", minimum=1, nullable=True)
MIXED = Option("mixed", DEAL, 2, "混合", choices=(True, 2))  # 1 == True and 2.0 == 2 in Python


@pytest.mark.parametrize(
    ("option", "allowed", "refused"),
    [
        (FLAG, [False, True], [0, 1, "true", None, [True], {}]),
        (KIND, ["total", "table_points"], ["Total", "total ", 0, None, ["total"], True]),
        (COUNT, [0, 1, 1000], [-1, 1001, True, False, 2.0, 30.0, "30", None, [30], 10**100]),
        (OPEN_ENDED, [None, 1, 10**9], [0, -1, True, 1.0, "1"]),
        (MIXED, [True, 2], [1, 2.0, 1.0, False, "2", [2]]),
    ],
    ids=["bool", "str", "range", "nullable, no maximum", "mixed"],
)
def test_json_types_are_strict(option, allowed, refused):
    assert [value for value in allowed if option.allows(value)] == allowed
    assert [value for value in refused if option.allows(value)] == []


def test_the_hint_names_the_values_as_a_reader_writes_them():
    assert [FLAG.hint, KIND.hint, COUNT.hint, OPEN_ENDED.hint] == [
        "false / true",
        "total / table_points",
        "0…1000",
        "1…, null",
    ]


def test_an_option_is_plain_data():
    assert COUNT.as_json() == {
        "name": "count",
        "level": "deal",
        "label": "分数",
        "default": 30,
        "values": {"min": 0, "max": 1000},
        "nullable": False,
    }
    assert FLAG.as_json()["values"] == [False, True] and OPEN_ENDED.as_json()["values"] == {"min": 1, "max": None}
    assert json.loads(json.dumps(OPEN_ENDED.as_json())) == OPEN_ENDED.as_json()


@pytest.mark.parametrize(
    "arguments",
    [
        {"level": "table", "default": 1, "minimum": 0, "maximum": 2},  # no such level
        {"level": DEAL, "default": 1},  # neither choices nor bounds
        {"level": DEAL, "default": "a", "choices": ("a",), "minimum": 0},  # both
        {"level": DEAL, "default": 3, "minimum": 0, "maximum": 2},  # the default not allowed
        {"level": DEAL, "default": None, "minimum": 0, "maximum": 2},  # null, not nullable
    ],
)
def test_a_spec_that_contradicts_itself_is_refused_where_it_is_written(arguments):
    with pytest.raises(ValueError):
        Option("x", label="x", **arguments)


def _other_values(option):
    """Allowed values besides the default (null left out: 升级's target and deals may not both be null)."""
    if option.choices is not None:
        values = list(option.choices)
    else:
        values = [option.minimum, option.maximum if option.maximum is not None else option.minimum + 1000]
    return [value for value in values if value is not None and value != option.default]


def _wrong_values(option):
    if option.choices is not None:
        return ["no such value", 2.0]
    return [option.minimum - 1, True, float(option.minimum)] + ([option.maximum + 1] if option.maximum else [])


def _rules(game, option, value):
    if option.level == DEAL:
        return game.rules(game.default_ruleset, {option.name: value})
    return game.rules(game.default_ruleset, None, **{option.name: value})


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_every_game_lists_its_options_as_specs(game):
    specs = game.option_specs
    assert type(specs) is tuple and specs and all(type(option) is Option for option in specs)
    assert tuple(option.name for option in specs) == game.options  # names unique, in the same order
    assert len(set(game.options)) == len(game.options)
    for option in specs:
        assert option.level in (DEAL, EVENT) and option.allows(option.default)
        assert option.label and not option.label.isascii()  # Chinese, for the catalogue
    json.dumps([option.as_json() for option in specs], ensure_ascii=False)


@pytest.mark.parametrize(
    ("game", "option"),
    [(game, option) for game in GAMES.values() for option in game.option_specs],
    ids=[f"{game.id}-{option.name}" for game in GAMES.values() for option in game.option_specs],
)
def test_the_game_takes_every_value_its_spec_allows_and_refuses_the_others(game, option):
    for value in [option.default, *_other_values(option)]:
        _rules(game, option, value)
    for value in _wrong_values(option):
        with pytest.raises(DealError) as refused:
            _rules(game, option, value)
        assert refused.value.code == "bad_option", (option.name, value)
