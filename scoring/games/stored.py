"""An event's game as the site stores it: the rules in force, a deal scored for storage and the
canonical deal it keeps.

Generic: every question goes to the event's `Game` (`scoring.games.base`), found by
`game_of(event)`; nothing here names a game. Pure: an event is any object with the attributes
read here (`models.Event`, the archive reader's), and a stored deal is its deal JSON, so the
archive reader and the database side share it; no column of the database is known here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games import game_of
from scoring.games.options import EVENT

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game
    from scoring.games.options import Option
    from scoring.games.refusals import Text
    from scoring.games.shengji.options import Rules

# A stored deal has a column per seat of a four-seat table; a game's seats are some of them
# (a three-seat table leaves North empty: its column holds 0).
COLUMN_SEATS = ("N", "E", "S", "W")


def plays_alone(game: Game) -> bool:
    """Every player of the game scores for himself (no partnerships): a table's match is each
    seat's sum of deal scores."""
    return all(len(seats) == 1 for seats in game.sides.values())


# The event option that is a table's number of deals, where a game's match is a number of deals
# (蚌埠斗地主 §1.1, 跑胡子 §3.1): the event's match length follows it.
MATCH_LENGTH_OPTION = "deals_per_match"
# The event option that chooses how individuals rank (games law §0): "total" or "table_points".
STANDINGS_OPTION = "standings"


def table_points(game: Game, seat_totals: dict[str, int]) -> dict[str, int]:
    """A table's points per seat (games law §0) from its match totals, by the game (one that
    plays alone); seats the game lacks are not in it."""
    return game.table_points({seat: seat_totals.get(seat, 0) for seat in game.seats})


def event_option_specs(game: Game) -> tuple[Option, ...]:
    """The game's event-level options (match length, standings): set on the event only."""
    return tuple(spec for spec in game.option_specs if spec.level == EVENT)


def split_options(game: Game, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int | str | None]]:
    """An event's stored options (one dict) as `(deal options, event options)`."""
    event_names = {spec.name for spec in event_option_specs(game)}
    options = options if isinstance(options, dict) else {}
    deal = {name: value for name, value in options.items() if name not in event_names}
    return deal, {name: value for name, value in options.items() if name in event_names}


def rules_for_event(game: Game, ruleset: str, options: dict[str, Any], threshold: int | None = None) -> Any:
    """The rules in force for an event's settings (the game's refusal, a `DealError`, for a
    wrong option). A game whose match unit ends at a threshold (华牌's 局) gets the event's."""
    deal, event = split_options(game, options)
    if game.match_thresholds and threshold is not None:
        event["game_threshold"] = threshold
    return game.rules(ruleset, deal or None, **event)


def event_rules(event: Any) -> Any:
    """The one way to an event's rules: its game's rule set with the event's options."""
    return rules_for_event(game_of(event), event.ruleset, event.options, getattr(event, "game_threshold", None))


def event_option(event: Any, name: str) -> str | None:
    """The value of one of the event's event options, its default when the event leaves it out
    (None if the game has no such option): `deals_per_match`, `standings`."""
    game = game_of(event)
    spec = next((spec for spec in event_option_specs(game) if spec.name == name), None)
    if spec is None:
        return None
    options = event.options if isinstance(event.options, dict) else {}
    return options.get(name, spec.default)


def score_stored(
    game: Game, rules: Any, deal_json: dict[str, Any], adjusted: dict[str, int] | None = None
) -> dict[str, Any]:
    """A deal scored as it will be stored: the game's canonical fields and scores, and what
    players' statistics keep of it (`seat_stats`, None where the game keeps nothing).
    Raises the game's `DealError`."""
    scored = game.score_stored(rules, deal_json, adjusted)
    scored["seat_stats"] = game.stored_statistics(rules, scored, adjusted)
    return scored


def column_scores(scores: dict[str, int]) -> dict[str, int]:
    """A game's seat scores on the four seat columns (a seat the game lacks holds 0)."""
    return {seat: scores.get(seat, 0) for seat in COLUMN_SEATS}


def canonical_deal(game: Game, scored: dict[str, Any]) -> dict[str, Any]:
    """The deal JSON a `score_stored` result keeps (what two blind entries compare, what a
    stored deal holds): the keys the game names (`Game.deal_keys`)."""
    return {key: scored[key] for key in game.deal_keys if key in scored}


# A game that carries state from deal to deal at a table (games law §0.3: 升级's levels): each
# deal is scored at its place in the table's match, and a table's result is its match's.


def carries_state(game: Game) -> bool:
    """Whether the game threads a state through a table's deals (`Game.carries_state`)."""
    return game.carries_state


def place_deal(
    game: Game, rules: Rules, deal_json: dict[str, Any], earlier: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The deal JSON to score as the deal after `earlier` (the table's deals before it, as
    stored, in playing order): the game's match puts in the state reached (raises `DealError`).
    A game without a state takes the deal as it is."""
    if not carries_state(game):
        return deal_json
    return game.place_deal(deal_json, earlier, rules)


def table_match(game: Game, rules: Rules, deals: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A table's match from its deals as stored, in playing order (`Game.table_match`): the
    deals the match takes from the first on — a deal it refuses (a board missing before it, a
    later deal still unconfirmed) ends what is counted — as `{"state", "ranks", "deals_played",
    "finished", "winner"}`; None for a game without a state or a table without deals."""
    if not carries_state(game) or not deals:
        return None
    deals = list(deals)
    result = game.table_match(deals, rules)
    while "error" in result:
        position = result["error"].get("deal")
        if not position or position <= 1:
            return None
        deals = deals[: position - 1]
        result = game.table_match(deals, rules)
    return result if result["deals_played"] else None


def ruled_match(game: Game, result: dict | None, ruling: dict | None = None) -> dict | None:
    """A table's match (`table_match`'s result) with the chief arbiter's ruling on it, if any
    (`scoring.games.rulings`): a match that did not finish by itself and was ruled is over, its
    winner what the game says the ruling means (`Game.ruled_winner`); a match that finished by
    itself keeps its own result (the ruling, made on deals since corrected, is moot)."""
    if result is None or ruling is None or result["finished"]:
        return result
    return {**result, "finished": True, "winner": game.ruled_winner(result, ruling["outcome"]), "ruled": True}


def table_outcome(
    game: Game, rules: Rules, deals: list[dict[str, Any]], length: int, ruling: dict[str, int | str] | None = None
) -> tuple[int, int, str | None, bool] | None:
    """What the standings take of a table of a game that carries a state (升级 §2.1 Standings),
    from its deals as stored in playing order: `(NS figure, EW figure, winner, finished)` — the
    levels each side reached (their difference the first tie-break), the match's winner ("NS",
    "EW", "draw"; None while it goes on) and whether it is over: it ended, the chief arbiter
    ruled on it (`ruling`, the winner his ruling gives), or the table has played the round's
    `length` deals (it then stands as it is, the higher level ahead).
    None for another game, or a table without deals."""
    result = ruled_match(game, table_match(game, rules, deals), ruling)
    if result is None:
        return None
    levels = result["state"]["levels"]
    return levels["NS"], levels["EW"], result["winner"], result["finished"] or result["deals_played"] >= length


def boards_played_out(
    game: Game, rules: Rules, deals: list[dict[str, Any]], length: int, ruling: dict[str, int | str] | None = None
) -> int:
    """How many boards a table's match needs (1…this): `length`, or fewer for a game whose match
    ends by itself (升级: the deals up to the one that ended it, as stored in playing order) or
    was ruled on by the chief arbiter (the deals it had: the rest are not expected). A match
    still going counts what its game says (`Game.boards_in_play`: 升级 to a target, the deals
    played and the next one)."""
    result = ruled_match(game, table_match(game, rules, deals), ruling)
    if result is not None and result["finished"]:
        return min(length, result["deals_played"])
    return max(1, min(length, game.boards_in_play(rules, result, length)))


def table_summary(
    game: Game, rules: Rules, deals: list[dict[str, Any]], ruling: dict[str, int | str] | None = None
) -> Text | None:
    """A table's match in the game's words (`Game.match_summary`, a `Text`, with the chief
    arbiter's ruling where he made one), or None."""
    result = table_match(game, rules, deals)
    if result is None:
        return None
    return game.match_summary(result, ruling) if ruling is not None else game.match_summary(result)
