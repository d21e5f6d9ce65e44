"""The games the site runs, by id. What a game is: `scoring.games.base.Game`."""

from scoring.games.doudizhu.game import DOUDIZHU
from scoring.games.huapai.game import HUAPAI
from scoring.games.paohuzi.game import PAOHUZI
from scoring.games.shengji.game import SHENGJI

GAMES = {game.id: game for game in (HUAPAI, DOUDIZHU, SHENGJI, PAOHUZI)}
DEFAULT_GAME = HUAPAI.id
# The games the site runs events of: a game whose law allows no kind of event (`event_kinds`
# empty) would be scored by `score_deal` only. Today every game runs events: 升级 pairs
# matches won by levels, 跑胡子 at tables of three.
EVENT_GAMES = {game_id: game for game_id, game in GAMES.items() if game.event_kinds != ()}


def get_game(game_id=DEFAULT_GAME):
    """The game with this id; `KeyError` for an unknown one (callers refuse it in their terms)."""
    return GAMES[game_id]


def game_of(event):
    """The game an event plays (every event plays 华牌 until events choose their game)."""
    return GAMES[getattr(event, "game", DEFAULT_GAME)]
