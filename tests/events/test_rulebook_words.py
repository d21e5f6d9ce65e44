"""The rules in force take their words from the games (`scoring.events.rulebook`): every option of
every game has its words, each rule set its name, all in the English catalogue; the rulebook
itself names no game, rule set or option (the project's rule: differences are fields of the
rules or questions to the game)."""

import ast
from functools import cache

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring.events import rulebook
from scoring.games import GAMES
from scoring.messages import message_text
from tests.conftest import REPO

GAME_IDS = sorted(GAMES)


@cache
def english():
    """The English catalogue's translated msgids."""
    import polib

    return {entry.msgid for entry in polib.pofile(str(REPO / "locale/en/LC_MESSAGES/django.po")) if entry.msgstr}


def _words(spec):
    return [
        word
        for word in (spec.short_label or spec.label, spec.phrase, spec.none_phrase, *(w for _v, w in spec.words))
        if word
    ]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_has_its_words(game_id):
    game = GAMES[game_id]
    worded = getattr(game, "rules_in_words", None) is not None
    for spec in game.option_specs:
        assert rulebook.option_label(spec), spec.name  # a label: its short label, else its label
        assert spec.phrase is None or "%(value)s" in spec.phrase, spec.name  # else "label：value"
        for value, _word in spec.words:
            assert spec.allows(value), (spec.name, value)
        if not worded:  # its options are the rules in force: every choice in words
            assert all(spec.word(choice) for choice in spec.choices or ()), spec.name
    for spec in game.option_specs:
        for word in _words(spec):
            assert word in english(), (spec.name, word)


# The games that word their rules themselves (华牌); the others' rules in force are their options' words.
WORDED_GAME_IDS = [game_id for game_id in GAME_IDS if getattr(GAMES[game_id], "rules_in_words", None) is not None]


def test_at_least_one_game_words_its_rules():
    assert "huapai" in WORDED_GAME_IDS


@pytest.mark.parametrize("game_id", WORDED_GAME_IDS)
def test_a_game_that_words_its_rules_names_each_rule_set(game_id):
    game = GAMES[game_id]
    in_words = game.rules_in_words
    for ruleset in game.rulesets:
        rules = game.rules(ruleset)
        assert rules.label, ruleset
        texts = in_words(rules)
        assert texts and all(hasattr(text, "template") for text in texts)
        for language in ("zh-hans", "en"):
            with translation.override(language):
                rendered = [message_text(text) for text in texts]
                assert all(phrase and "{" not in phrase and "%(" not in phrase for phrase in rendered)
        assert rules.label in english(), ruleset
        assert all(text.template in english() for text in texts)


def test_the_value_words_of_an_option_name_are_those_of_its_spec():
    for game in GAMES.values():
        for spec in game.option_specs:
            for choice in spec.choices or ():
                assert rulebook.value_word(spec.name, choice) == rulebook.value_word(spec, choice)


def test_the_rulebook_names_no_game_rule_set_or_option():
    names = set(GAMES)
    for game in GAMES.values():
        names |= set(game.rulesets) | {spec.name for spec in game.option_specs}
        names |= {str(choice) for spec in game.option_specs for choice in spec.choices or () if type(choice) is str}
    tree = ast.parse((REPO / "scoring" / "events" / "rulebook.py").read_text(encoding="utf-8"))
    literals = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and type(node.value) is str}
    assert literals & names == set()


def test_an_option_without_a_phrase_reads_label_and_value():
    spec = GAMES["huapai"].option_specs[-1]  # 倍数: its label only
    assert spec.phrase is None and spec.short_label is None
    with translation.override("zh-hans"):
        assert rulebook._option_phrase(spec, 3) == f"{spec.label}：3"
    with translation.override("en"):
        assert rulebook._option_phrase(spec, 3) == f"{gettext(spec.label)}：3"
        assert rulebook._option_phrase(spec, None) == f"{gettext(spec.label)}：{gettext('不设')}"
