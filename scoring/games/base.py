"""What the tournament core may ask of a game: the `Game` protocol.

A game is a pure plug-in (plain data in and out, no Django): the site's entrants, rounds,
tables, entry, confirmation, history, publication, standings and papers are the same for
every game, and everything that depends on a game's law is asked of its `Game`. Nothing
outside `scoring/games/` branches on a game's or a rule set's name
(tests/games/test_game_boundary.py).

A game's *rule sets* are variants of its law (华牌: one deck or two, house rules) chosen per
event with options as data; the game is the family they belong to. An event plays one game.
"""

from dataclasses import dataclass
from typing import Any, Protocol

from scoring.games.options import Option


@dataclass(frozen=True)
class GridRow:
    """One row of the entry grid: a card to assign (its code and copy) and its label."""

    card: str
    copy: int
    label: str


class Game(Protocol):
    """A card game the site can run a competition of."""

    id: str  # "huapai"; stored on events and in archives
    name: str  # in the game's own language, for pages and papers
    seats: tuple[str, ...]  # every seat of a table, in playing order ("N", "E", "S", "W")
    sides: dict[str, tuple[str, ...]]  # the sides that score together ({"NS": ("N", "S"), …})
    rulesets: tuple[str, ...]  # the rule sets an event may choose
    default_ruleset: str
    options: tuple[str, ...]  # the per-event options' names (their values checked by `rules`)
    # Every option as data (`scoring.games.options.Option`: name, level, default, label, allowed
    # values), deal level and event level alike: an event's form is built from these. `rules`
    # takes the deal-level ones in `options` and the event-level ones as keywords.
    option_specs: tuple[Option, ...]
    match_thresholds: tuple[int, ...]  # what ends a match's unit (华牌: a 局 at ±1000 or ±800)
    # What the site stores and asks beyond scoring (through `scoring.games.stored`):
    event_kinds: tuple[str, ...] | None  # the kinds of event the law allows (None: any kind)
    # The canonical deal's keys, kept as one JSON value (`Deal.game_data`); None: the game writes
    # its deal onto the stored deal's own columns itself (`apply_result`, 华牌's cards).
    deal_keys: tuple[str, ...] | None
    generic_options: bool  # the event form shows a field per option spec (华牌: fields of its own)
    takes_penalties: bool  # whether its deal JSON carries a referee's penalties (华牌: `penalties`)
    breakdown_terms: tuple[str, ...]  # the closed vocabulary of its breakdown notes (translated word by word)
    statistics: tuple[str, ...]  # the figures players' statistics count per player (none: no statistics);
    # a game that keeps its deal whole counts them from it: `seat_statistics(deal)` → {seat: figures},
    # named by `statistics_labels` (华牌 keeps them with each deal: `stored_statistics`)

    def rules(self, ruleset: str, options: dict | None = None, **settings: Any) -> Any:
        """The rules in force: a rule set with an event's options (raises the game's refusal)."""

    def read_deal(self, deal: dict, rules: Any) -> tuple[Any, list]:
        """`(valid deal or None, refusals)`: every refusal has a stable code and names the field."""

    def score_deal(self, deal: dict, rules: Any | None = None) -> dict:
        """A deal's scores per seat with their breakdown (raises the game's refusal)."""

    def score_stored(self, rules: Any, deal: dict, adjusted: dict | None = None) -> dict:
        """A stored deal's canonical fields and scores, an arbiter's adjusted score replacing them."""

    def stored_statistics(self, rules: Any, scored: dict, adjusted: dict | None = None) -> dict | None:
        """What players' statistics need of a deal, per seat, kept with it (None: nothing kept)."""

    def entry_grid(self, rules: Any) -> list[GridRow]:
        """The rows a referee fills in, in the order they count the cards."""

    def match_units(self, side_scores: list[tuple[int, int]], threshold: int) -> list:
        """A table's deals grouped into the units a match is won by (华牌: 局), in order.

        The site asks it with a pairs table's `(NS, EW)` deal scores and the event's 局分
        (`Event.game_threshold`, one of `match_thresholds`): for a games-mode match, and for an
        entrant's page (升级: none, its match is won by levels). 蚌埠斗地主 and 跑胡子 group each
        seat's scores into matches of `threshold` deals; the site does not ask them (their
        tables' matches are their `deals_per_match`)."""


# What a game may add beyond the protocol, asked with `getattr` where the site needs it:
# - `entry_fields(rules)`: its deal as entry fields (plain dicts: key, label, kind, bounds; `first_only`
#   for a field of a table's first deal only), `refusal_key(error)`: the field a refusal is about,
#   `entry_help`: the entry page's words for its keys (`scoring.entry.game_fields`, `web.referee.game_entry`).
# - `carries_state` (升级): a state is threaded from deal to deal at a table. Such a game has
#   `place_deal(deal, earlier, rules)` (the deal with the state its table's match reached),
#   `table_match(deals, rules)` (the match of a table's deals: state, deals played, finished, winner),
#   `match_lines(before, after, rules)` and `match_summary(result, ruling=None)` (the match in words, as
#   `Text`s), `ruled_winner(result, outcome)` and `ruling_words(result, ruling)` (what a chief arbiter's
#   ruling on an unfinished match means: `scoring.games.rulings`'s outcomes, as it stands, drawn, a side);
#   the site asks them through `scoring.games.stored` (`place_deal`, `table_match`, `table_outcome`, `ruled_match`).
#   `default_match_length`: a new event's most deals a table plays in a round.
# - `standings_labels` ({figure: label}: its words for the standings' figures, 升级's 级差), `sheet_columns`
#   and `sheet_note` (what its score sheet keeps beyond its fields), `deal_words(deal)` (what a stored
#   deal shows beyond its fields: 升级's state before the deal).
# - `rules_in_words(rules)` (华牌): the rules in force in short phrases, each a `Text` (a Chinese msgid
#   marked with `_` and its parameters) the site renders in the reader's language; the rule set's
#   own name is then its `rules.label` (a marked msgid too; `rules.name` without one). A game
#   without it has its rules in force read from its option specs' words (`Option.short_label`,
#   `phrase`, `words`, `none_phrase`: `scoring.games.options`), one phrase an option
#   (`scoring.events.rulebook`).
