"""G3 of the games law read alike by every game (`scoring.games.options.read_option_values`): an
"options" value that is not an object, a name the game does not have (null or not: a misspelt
option must not pass silently), and a value outside the allowed ones are `bad_option`, in the
same words whichever game is asked."""

import pytest

from scoring.games import GAMES
from scoring.games.refusals import DealError

GENERIC = [game for game in GAMES.values() if game.generic_options]


def _a_valid_deal(game):
    (deal,) = game.sample_deals(1)
    return {key: value for key, value in deal.items() if key not in ("game", "options")}


def _refusal(game, options):
    deal = {**_a_valid_deal(game), "options": options}
    with pytest.raises(DealError) as caught:
        game.score_deal(deal)
    return caught.value


@pytest.mark.parametrize("game", GENERIC, ids=lambda game: game.id)
def test_options_that_are_not_an_object_are_refused_in_one_wording(game):
    error = _refusal(game, ["start_level"])
    assert error.code == "bad_option" and error.message == "“options” 必须是对象"


@pytest.mark.parametrize("game", GENERIC, ids=lambda game: game.id)
@pytest.mark.parametrize("value", [1, None])
def test_an_unknown_option_is_refused_whatever_its_value(game, value):
    error = _refusal(game, {"no_such_option": value})
    assert error.code == "bad_option"
    assert error.message.startswith("未知选项 'no_such_option'（可用：")


@pytest.mark.parametrize("game", GENERIC, ids=lambda game: game.id)
def test_a_value_outside_the_allowed_ones_names_the_option_and_its_values(game):
    deal_level = next(spec for spec in game.option_specs if spec.level == "deal")
    error = _refusal(game, {deal_level.name: "not a value"})
    assert error.code == "bad_option"
    assert error.message == f"选项 {deal_level.name} 的值 'not a value' 无效（{deal_level.hint}）"
