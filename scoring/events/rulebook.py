"""The rules in force for an event, in plain words (public event page, entry page, printed sheets).

The words are the games' own, Chinese and marked for the catalogue where the game keeps them;
this module only renders them in the page's language through Django's translations, naming no
game, rule set or option itself:

- a game that words its rules itself (`Game.rules_in_words(rules)`: 华牌's decks, 首明, 自得,
  normalisation, 局分, as `Text`s) gets its rule set's name (`rules.label`, else `rules.name`)
  then those phrases;
- another game gets its name, then each of its options as it stands, in the option's own words
  (`scoring.games.options.Option`: `short_label`, `phrase`, `words`, `none_phrase`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games import GAMES, game_of
from scoring.games.options import Option
from scoring.games.stored import carries_state, event_rules
from scoring.messages import message_text

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game
    from scoring.models import Event

# An option left without a value that has no phrase of its own for it: "label：不设".
NO_VALUE = gettext_lazy("不设")


def game_name(game: Game) -> str:
    """The game's name in the page's language (each game marks its own name for translation)."""
    return _(game.name)


def option_label(spec: Option) -> Any:
    """What the event form calls an option (in the page's language): its short label, else its label, else its name."""
    return gettext_lazy(spec.short_label or spec.label or spec.name)


@cache
def _specs_named(name: str) -> tuple[Option, ...]:
    """Every game's options of this name (an option name is the law's: §0's `standings` is
    shared by the games that take it)."""
    return tuple(spec for game in GAMES.values() for spec in game.option_specs if spec.name == name)


def value_word(option: Option | str, value: bool | int | str) -> str:
    """An option's value in words (true / false and numbers as they are, where no word is given).
    `option`: its spec, or its name (the words of the game that has an option of that name)."""
    specs = (option,) if isinstance(option, Option) else _specs_named(option)
    word = next((word for spec in specs if (word := spec.word(value)) is not None), None)
    if word is not None:
        return _(word)
    return str(value).lower() if type(value) is bool else str(value)


def _option_phrase(spec: Option, value: bool | int | str | None) -> str:
    if value is None:
        return _(spec.none_phrase) if spec.none_phrase else f"{option_label(spec)}：{NO_VALUE}"
    word = value_word(spec, value)
    return _(spec.phrase) % {"value": word} if spec.phrase else f"{option_label(spec)}：{word}"


def rules_in_force(event: Event) -> list[str]:
    """Short phrases: the rule set (or the game), then each rule or option as it stands."""
    game = game_of(event)
    in_words = game.rules_in_words
    if in_words is None:
        stored = event.options if isinstance(event.options, dict) else {}
        phrases = [f"{game_name(game)} ({game.id})"] + [
            _option_phrase(spec, stored.get(spec.name, spec.default)) for spec in game.option_specs
        ]
        if carries_state(game):  # a match that ends by itself: the most deals a table plays in a round
            # Played out to the round's most deals, it stands as it is; stopped by time, the chief
            # arbiter rules on it (scoring.rulings.match_ruling).
            phrases.append(
                _("每桌每轮至多 %(n)s 副，打满仍未结束按当时级数定胜负；时间到未结束由裁判长裁定")
                % {"n": event.match_length}
            )
        return phrases
    rules = event_rules(event)
    label = game_of(event).ruleset_label(rules)
    return [f"{_(label) if label else rules.name} ({rules.name})"] + [message_text(text) for text in in_words(rules)]


def rules_text(event: Event) -> str:
    return " · ".join(rules_in_force(event))
