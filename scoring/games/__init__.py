"""The games the site runs, by id. What a game is: `scoring.games.base.Game`.

A game is a folder of its own under `scoring/games/` whose game object is registered here
(`register_game`); the tests' conformance suite registers a test-only fifth game the same way
(docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.doudizhu.game import DOUDIZHU
from scoring.games.huapai.game import HUAPAI
from scoring.games.paohuzi.game import PAOHUZI
from scoring.games.shengji.game import SHENGJI

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game

GAMES = {}
# The games the site runs events of: a game whose law allows no kind of event (`event_kinds`
# empty) would be scored by `score_deal` only. Today every game runs events: 升级 pairs
# matches won by levels, 跑胡子 at tables of three.
EVENT_GAMES = {}


def register_game(game: Game) -> None:
    """Add a game to the registry (its id must be new). The dictionaries are changed in place, so
    every module holding them sees the game; what the site builds from the registry at start-up
    (the event form's choices, the breakdown words) reads it when asked."""
    if game.id in GAMES:
        raise ValueError(f"a game with the id {game.id!r} is registered already")
    GAMES[game.id] = game
    if game.event_kinds != ():
        EVENT_GAMES[game.id] = game


for _game in (HUAPAI, DOUDIZHU, SHENGJI, PAOHUZI):
    register_game(_game)
DEFAULT_GAME = HUAPAI.id


def get_game(game_id: str = DEFAULT_GAME) -> Game:
    """The game with this id; `KeyError` for an unknown one (callers refuse it in their terms)."""
    return GAMES[game_id]


def game_of(event: Any) -> Game:
    """The game an event plays (every event plays 华牌 until events choose their game)."""
    return GAMES[getattr(event, "game", DEFAULT_GAME)]
