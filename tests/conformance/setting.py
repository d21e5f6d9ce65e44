"""An event of any registered game, built from what the game says of itself (its seats, sides,
kinds of event, options and sample deals): the conformance suite's one setting.

Every (game, kind) the registry allows is one `Setting`: a round of two full tables and one
entrant sitting out, the event played on the players' phones (referees can still do everything).
Nothing here names a game."""

import copy
from dataclasses import dataclass

from scoring.archive.database import import_archive
from scoring.engine.vocabulary import Kind
from scoring.games import GAMES
from scoring.games.stored import MATCH_LENGTH_OPTION, event_option_specs, plays_alone
from scoring.models import Table
from tests.referee_setup import make_user

BOARDS = 2  # deals a table plays in the round


@dataclass(frozen=True)
class Setting:
    game_id: str
    kind: str

    @property
    def game(self):
        return GAMES[self.game_id]

    @property
    def id(self):
        return f"{self.game_id}-{self.kind}"

    @property
    def slug(self):
        return f"c-{self.game_id}-{self.kind}"[:50]


def settings_of_every_game():
    """One setting per registered game and kind of event it allows (teams excepted: 华牌's only,
    and covered by its own tests), so that a game joins the suite by being registered."""
    found = []
    for game_id, game in GAMES.items():
        kinds = game.event_kinds or (Kind.PAIRS, Kind.INDIVIDUAL)
        found += [Setting(game_id, kind) for kind in kinds if kind != Kind.TEAMS]
    return found


def deals_for(game, count, seed=11):
    """The game's own sample deals without the keys an event supplies (its game, rule set,
    options): the event's rules apply."""
    return [
        {key: value for key, value in deal.items() if key not in ("game", "ruleset", "options", "board")}
        for deal in game.sample_deals(count, seed)
    ]


def _seats_of_tables(setting):
    """The entrants of the round's two tables and the one sitting out, and the archive's parts."""
    game = setting.game
    if setting.kind == Kind.INDIVIDUAL:
        count = 2 * len(game.seats) + 1
        people = [{"id": f"p{i:02d}", "name": f"选手{i:02d}"} for i in range(1, count + 1)]
        ids = [person["id"] for person in people]
        tables = [
            dict(zip(game.seats, ids[n * len(game.seats) : (n + 1) * len(game.seats)], strict=True)) for n in (0, 1)
        ]
        matches = [{"table": n + 1, "seats": seats, "deals": []} for n, seats in enumerate(tables)]
        return people, {}, [*matches, {"bye": ids[-1]}]
    people = [{"id": f"p{i:02d}", "name": f"选手{i:02d}"} for i in range(1, 11)]
    pairs = [{"id": f"A{n}", "players": [people[2 * n - 2]["id"], people[2 * n - 1]["id"]]} for n in range(1, 6)]
    matches = [
        {"table": 1, "ns": "A1", "ew": "A2", "deals": []},
        {"table": 2, "ns": "A3", "ew": "A4", "deals": []},
        {"bye": "A5"},
    ]
    return people, {"pairs": pairs}, matches


def archive_of(setting, deals_by_table=None, status="in_play"):
    """The setting's event as an archive: round 1 of two tables (their deals `deals_by_table`,
    {table: [deal]}, boards from 1), the match `BOARDS` deals long, played on the phones."""
    game = setting.game
    people, entrants, matches = _seats_of_tables(setting)
    for match in matches:
        if "table" in match and deals_by_table:
            match["deals"] = [
                {"board": board, **deal} for board, deal in enumerate(deals_by_table.get(match["table"], []), 1)
            ]
    options = {}
    if any(spec.name == MATCH_LENGTH_OPTION for spec in event_option_specs(game)):
        options[MATCH_LENGTH_OPTION] = BOARDS
    return {
        "format": "huapai-event/1",
        "event": {
            "slug": setting.slug,
            "name": f"{game.name}一致性测试",
            "game": game.id,
            "kind": setting.kind,
            "match": {"mode": "boards", "boards": BOARDS},
            "options": options,
            "entry": "players",
        },
        "players": people,
        **copy.deepcopy(entrants),
        "rounds": [{"number": 1, "status": status, "matches": matches}],
    }


def build(setting, deals_by_table=None, status="in_play"):
    """The setting's event in the database, with two referees and an organiser."""
    event = import_archive(archive_of(setting, deals_by_table, status))
    return {
        "event": event,
        "table": Table.objects.select_related("round__event").get(round__event=event, number=1),
        "referee1": make_user(f"{setting.slug}-r1", "referee", event),
        "referee2": make_user(f"{setting.slug}-r2", "referee", event),
        "organiser": make_user(f"{setting.slug}-o", "organiser", event),
    }


def side_codes(table):
    """{side: the access code of an entrant of that side at the table}, in the game's side order:
    the codes the table link takes (a pair's, or each seated player's)."""
    from scoring.table_entry.codes import side_entrants

    found = {}
    for side, entrant in side_entrants(table):
        found.setdefault(side, entrant.access_code)
    return found


def alone(setting):
    return plays_alone(setting.game)


__all__ = ["BOARDS", "Setting", "alone", "archive_of", "build", "deals_for", "settings_of_every_game", "side_codes"]
