"""Players' statistics (猪, 羊, 变压器, exposures…) over the published deals, cached per
public version (`scoring.cache.results`): the whole event's once, and per player for the
entrant pages."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from scoring.cache.results import cached, store_items, stored_items
from scoring.cache.versions import current_version
from scoring.engine.vocabulary import SEATS
from scoring.events.lineups import session_of
from scoring.games import GAMES, game_of
from scoring.games.huapai.player_stats import PlayerStats, deal_statistics, from_stored
from scoring.games.refusals import DealError
from scoring.games.stored import event_rules
from scoring.models import Deal, LineUp, Membership, Player

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game
    from scoring.models import Event, Table


def warm_player_statistics(event: Event) -> None:
    """Every player's statistics, computed once for the public version (the publication's
    warm-up) and stored per player as well, so that each entrant's page reads its own."""
    version = current_version(event, public=True)
    if stored_items(event, "player-stats", [], public=True) is not None:
        return
    totals = event_player_statistics(event, version)
    store_items(event, "player-stats", totals, public=True, version=version)


def members_statistics(event: Event, members: list[Player], tables: list[Table]) -> dict[int, PlayerStats | GameStats]:
    """{player id: PlayerStats} of an entrant's members: the warm-up's figures when it has
    run for the current public version, else computed over the entrant's own tables (a
    player plays only at their entrant's tables, so the two agree)."""
    stored = stored_items(event, "player-stats", [player.id for player in members], public=True)
    if stored is not None and len(stored[0]) == len(members):
        return stored[0]
    # Not warmed for this version, or a member without figures (no published deal yet, or
    # dropped by the cache): count them here, over these tables.
    return player_statistics(event, players={player.id for player in members}, tables=[t.id for t in tables])


def event_player_statistics(event: Event, version: int | None = None) -> dict[int, PlayerStats | GameStats]:
    """{player id: PlayerStats} of the whole event, cached under the public version.

    Summed from the figures each deal stored when it was scored (`Deal.seat_stats`); only a
    deal stored before those were kept is scored again. One request or warm-up computes it
    while the others wait for its answer."""
    return cached(event, "player-stats", lambda: player_statistics(event), public=True, version=version)


def player_statistics(
    event: Event, *, players: set[int] | None = None, tables: list[int] | None = None
) -> dict[int, PlayerStats | GameStats]:
    """{player id: PlayerStats} over the confirmed deals of the published rounds
    (`scoring.games.huapai.player_stats`), computed now; `players` and `tables` (ids) limit it to those
    players at those tables (an entrant's page: its members at its tables, a few index
    look-ups). Who sat where follows the team line-ups per 节. A game that counts no
    statistics (`Game.statistics`) has none; a game that keeps its deal whole counts them from it."""
    game = game_of(event)
    if not game.statistics:
        return {}
    if not game.keeps_statistics_per_deal:
        return _game_statistics(event, game, players, tables)
    rules = event_rules(event)
    deals = Deal.objects.public().filter(table__round__event=event)
    lineups_read = LineUp.objects.public().filter(table__round__event=event)
    if tables is not None:
        deals = deals.filter(table_id__in=tables)
        lineups_read = lineups_read.filter(table_id__in=tables)
    lineups = {}
    for row in lineups_read.order_by("session").values(
        "table_id", "session", "north_id", "east_id", "south_id", "west_id"
    ):
        seats = {"N": row["north_id"], "E": row["east_id"], "S": row["south_id"], "W": row["west_id"]}
        lineups.setdefault(row["table_id"], []).append((row["session"], seats))
    totals = defaultdict(PlayerStats)
    rows = deals.values_list(
        "table_id",
        "board",
        "table__round__sessions",
        "seat_stats",
        "game_data",
        "adjusted",
        "table__north_id",
        "table__east_id",
        "table__south_id",
        "table__west_id",
    )
    for table_id, board, sessions, stored, deal_json, adjusted, *seat_ids in rows.iterator(chunk_size=5000):
        seats = dict(zip(SEATS, seat_ids, strict=True))
        session = session_of(board or 1, event.match_length, sessions)
        for from_session, lineup in lineups.get(table_id, ()):
            if from_session <= session:
                seats = lineup
        if stored is not None:  # summed from what the deal stored when it was scored
            per_player = {
                player: from_stored(stored[seat])
                for seat, player in seats.items()
                if player is not None and (players is None or player in players)
            }
        else:  # a deal stored before its figures were kept: scored again
            try:
                per_player = deal_statistics(rules, deal_json, adjusted, seats, only=players)
            except DealError:
                continue  # a stored deal the engine now refuses is listed by the publication checks
        for player, stats in per_player.items():
            totals[player].add(stats)
    return dict(totals)


class GameStats:
    """One player's statistics in a game that counts them from its deals (`Game.seat_statistics`):
    the deals played and each of the game's figures, as attributes (`stats.landlord`)."""

    def __init__(self, names: tuple[str, ...], highest: tuple[str, ...] = ()) -> None:
        self.deals = 0
        self.figures = dict.fromkeys(names, 0)
        self.highest = frozenset(highest)  # figures kept as the largest, not summed (跑胡子's 最高番)

    def add(self, figures: tuple[int, ...]) -> None:
        self.deals += 1
        for name, value in zip(self.figures, figures, strict=True):
            self.figures[name] = max(self.figures[name], value) if name in self.highest else self.figures[name] + value

    def __getattr__(self, name: str) -> int:
        figures = self.__dict__.get("figures", {})
        if name in figures:
            return figures[name]
        raise AttributeError(name)

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def _game_statistics(
    event: Event, game: Game, players: set[int] | None, tables: list[int] | None
) -> dict[int, GameStats]:
    """{player id: GameStats} over the confirmed deals of the published rounds, counted from the
    deals as stored (`Deal.game_data`); an adjusted deal without its play counts as a deal only."""
    deals = Deal.objects.public().filter(table__round__event=event)
    if tables is not None:
        deals = deals.filter(table_id__in=tables)
    totals = {}
    columns = ("table__north_id", "table__east_id", "table__south_id", "table__west_id")
    for data, *seat_ids in deals.values_list("game_data", *columns).iterator(chunk_size=5000):
        seats = dict(zip(("N", "E", "S", "W"), seat_ids, strict=True))
        for seat, figures in game.seat_statistics(data).items():
            player = seats.get(seat)
            if player is None or (players is not None and player not in players):
                continue
            totals.setdefault(player, GameStats(game.statistics, game.statistics_highest)).add(figures)
    return totals


# Every figure a game's statistics page may be ordered by (`?sort=`), every game's.
STATISTICS_ORDER = tuple(dict.fromkeys(name for game in GAMES.values() for name in game.statistics))


def statistics_columns(event: Event) -> list[tuple[str, str]]:
    """[(figure, label)] of a game that names its statistics (`Game.statistics_labels`), for the
    pages to draw its own columns; empty for 华牌, whose pages name theirs."""
    game = game_of(event)
    labels = game.statistics_labels
    return [(name, gettext(labels[name])) for name in game.statistics if name in labels]


def statistics_rows(event: Event, order: str = "") -> list[dict[str, Any]]:
    """A row per player who played a published deal: the player, their entrant (for the link)
    and their `PlayerStats`; by the pinyin of the name, or most first by `order` (STATISTICS_ORDER)."""
    totals = event_player_statistics(event)
    entrant_of = dict(
        Membership.objects.filter(player_id__in=totals, entrant__event=event).values_list("player_id", "entrant__code")
    )
    rows = [
        {
            "code": player.code,
            "name": player.name,
            "sort_key": player.sort_key,
            "club": player.club,
            "entrant": entrant_of.get(player.id),
            "stats": totals[player.id],
        }
        for player in Player.objects.filter(event=event, id__in=totals).order_by("sort_key", "code")
    ]
    if order in game_of(event).statistics:
        rows.sort(key=lambda row: getattr(row["stats"], order), reverse=True)
    return rows
