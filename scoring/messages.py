"""Text in the request's language: domain messages (the one place where a refusal's template,
Chinese and marked in the pure layer, goes through gettext), the engine's words, and lists of
people's names."""

import re
from functools import cache

from django.utils.translation import get_language, gettext, pgettext

from scoring.engine.names import pinyin_sort_key, romanised
from scoring.games import DEFAULT_GAME, GAMES


def message_text(message) -> str:
    """Render a `Refusal` or `Text` (see `scoring.games.refusals`) in the active language."""
    params = {
        key: message_text(value) if hasattr(value, "template") else value for key, value in message.params.items()
    }
    return gettext(message.template).format(**params)


def message_json(error) -> dict:
    return {"error": {"code": error.code, "message": message_text(error)}}


# The engine's breakdown ("猪 −100 ×2 明 ×2 自得") and the exposure words are made of a closed
# vocabulary, each game's its own (`Game.breakdown_terms`); translating each word renders them
# in the page's language without the engine knowing about languages.
def _terms(game_id):
    return tuple(sorted(set(GAMES[game_id].breakdown_terms), key=len, reverse=True))


@cache
def _pattern(game_id):
    """One game's terms as one expression, built when the game's first text is translated (a
    game registered after start-up has its own too)."""
    return re.compile("|".join(re.escape(term) for term in _terms(game_id)) or "(?!)")


@cache
def _term_table(language, game_id):
    return {term: pgettext("breakdown", term) for term in _terms(game_id)}


def term_text(text, game=None) -> str:
    """A breakdown or exposure text of a game's words (华牌's by default) in the active language."""
    if not text:
        return text
    game_id = DEFAULT_GAME if game is None else game.id
    table = _term_table(get_language(), game_id)
    return _pattern(game_id).sub(lambda match: table[match.group()], str(text))


def breakdown_lines(breakdown):
    """The preview's breakdown, one line a seat that has terms: "N：猪 −100，红心 −30"."""
    return [
        gettext("%(seat)s：%(parts)s") % {"seat": seat, "parts": pgettext("breakdown", "，").join(parts)}
        for seat, parts in breakdown.items()
        if parts
    ]


def games_line(games):
    """The 局 running totals of a table's match, in one line: "第1局 NS 320 / EW -120（结束）；…"."""
    return pgettext("list separator", "；").join(
        (
            gettext("第%(number)s局 NS %(ns)s / EW %(ew)s（结束）")
            if game["finished"]
            else gettext("第%(number)s局 NS %(ns)s / EW %(ew)s")
        )
        % game
        for game in games
    )


def standings_labels(game):
    """A game's own words for the standings' figures (`Game.standings_labels`: 升级's level
    difference where 华牌 has its score difference), in the active language: {figure: label}."""
    return {name: gettext(label) for name, label in game.standings_labels.items()}


HAN = re.compile(r"[\u3400-\u9fff]")


def joined(words):
    """Names or clubs in a list, with the page language's separator (、 or ", ")."""
    return pgettext("list separator", "、").join(words)


def name_with_pinyin(name, sort_key=None):
    """A Chinese name as it is; in another language followed by its pinyin: "朱娟 (Zhu Juan)"."""
    if (get_language() or "zh-hans").startswith("zh") or not HAN.search(name or ""):
        return name
    return f"{name} ({romanised(sort_key or pinyin_sort_key(name))})"


def people_label(people):
    """Players' names for a page: Chinese names stay as they are; in another language each is
    followed by its pinyin, "朱娟 (Zhu Juan)", so readers can say it. `people`: objects with
    `name` and `sort_key`."""
    return joined(name_with_pinyin(person.name, person.sort_key) for person in people)
