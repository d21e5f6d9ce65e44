"""What the tournament core may ask of a game: the `Game` protocol.

A game is a pure plug-in (plain data in and out, no Django): the site's entrants, rounds,
tables, entry, confirmation, history, publication, standings and papers are the same for
every game, and everything that depends on a game's law is asked of its `Game`. Nothing
outside `scoring/games/` branches on a game's or a rule set's name
(tests/games/test_game_boundary.py).

A game's *rule sets* are variants of its law (华牌: one deck or two, house rules) chosen per
event with options as data; the game is the family they belong to. An event plays one game.
"""

from collections.abc import Callable
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
    # The canonical deal's keys, kept as one JSON value for every game (`Deal.game_data`).
    deal_keys: tuple[str, ...]
    generic_options: bool  # the event form shows a field per option spec (华牌: fields of its own)
    takes_penalties: bool  # whether its deal JSON carries a referee's penalties (华牌: `penalties`)
    # What a referee may record at its tables and how he may rule (`scoring.games.calls`, codes):
    # a call of another kind, or a ruling with another outcome, is refused in words. Penalty
    # points are an outcome only where `takes_penalties`; claims (the point cards' fall) only
    # where `call_kinds` has "claim".
    call_kinds: tuple[str, ...]
    call_outcomes: tuple[str, ...]
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


class GameBase:
    """What a game may add beyond the protocol, with the defaults of a game that does not.

    Every game derives from it, so the site asks these members directly, typed, and a game
    states only what it has; nothing probes a game with `getattr`
    (tests/games/test_game_boundary.py)."""

    # Entry: the deal as entry fields (plain dicts: key, label, kind, bounds; `first_only` for a
    # field of a table's first deal only), read by `scoring.entry.game_fields`. A kind may be a
    # widget drawn whole: 华牌's point cards by seat (its rows are `entry_grid`), its exposures
    # with their holders, its penalties.
    def entry_fields(self, rules: Any = None) -> list[dict] | None:
        return None

    # What a game's rules say beyond the protocol, asked here rather than of the rules' own type.
    def card_copies(self, rules: Any) -> int:
        """The copies of each card a referee's grid and a claim count (华牌's 拱双猪: two)."""
        return 1

    def normalises(self, rules: Any) -> bool:
        """Whether scores differ from raw scores before penalties (pages then show both)."""
        return False

    def ruleset_label(self, rules: Any) -> str:
        """The rule set's name for people, a msgid ("" where the rule set has none)."""
        return ""

    # What a deal's result gives beside each seat's score, for the entry page's preview: the
    # sides' scores (`result["sides"]`, 华牌's NS and EW) and the raw scores before
    # normalisation (`result["raw"]`).
    result_sides: tuple[str, ...] = ()
    result_raw: bool = False

    def refusal_key(self, error: Any) -> str | None:
        """The entry field a refusal is about (the page shows it beside that field), or None."""
        return None

    entry_help: str | None = None  # the entry page's words for its keys, a msgid

    # A state threaded from deal to deal at a table (升级's 台上 and levels). Such a game has
    # `place_deal`, `table_match`, `match_lines` and `match_summary`, asked through
    # `scoring.games.stored` (`place_deal`, `table_match`, `table_outcome`).
    carries_state: bool = False
    default_match_length: int | None = None  # a new event's most deals a table plays in a round

    def place_deal(self, deal: dict, earlier: list[dict], rules: Any) -> dict:
        """The deal with the state its table's match reached after `earlier`."""
        return deal

    def table_match(self, deals: list[dict], rules: Any) -> dict | None:
        """The match of a table's deals: state, deals played, finished, winner."""
        return None

    def boards_in_play(self, rules: Any, result: dict | None, length: int) -> int:
        """How many boards a table's match counts while it goes on (`result`: `table_match`'s,
        None before its first deal), 1…`length`: the cells of the referees' grid and of the
        players' phones, the boards "still to confirm" and the ones the publication checklist
        wants. A match of a set number of deals counts them all (this default); one that may end
        by itself sooner (升级's target) counts the deals played and the next one, never the
        round's most. A finished or ruled match counts the deals it had (`stored.boards_played_out`)."""
        return length

    def match_lines(self, before: dict | None, after: dict | None, rules: Any) -> list:
        """The match around one deal in words, as `Text`s."""
        return []

    def match_summary(self, result: dict, ruling: dict | None = None) -> Any:
        """A table's match in words (a `Text`), with the chief arbiter's ruling where it has one."""
        return None

    # What a chief arbiter's ruling on an unfinished match means (`scoring.games.rulings`'s
    # outcomes: as it stands, drawn, a side), asked through `scoring.games.stored.ruled_match`.
    def ruled_winner(self, result: dict, outcome: str) -> str | None:
        """The match's winner under the ruling ("draw" where drawn)."""
        return None

    def ruling_words(self, result: dict, ruling: dict) -> Any:
        """The ruling in words (a `Text`)."""
        return None

    # Its words for the standings' figures ({figure: msgid}: 升级's 级差); none: the site's own.
    standings_labels: dict[str, str] = {}  # read-only: a game replaces it, never changes it
    # What its score sheet keeps beyond its fields: extra columns (heading, sub-heading, width in
    # mm) and a line of instructions.
    sheet_columns: tuple[tuple[str, str, int], ...] = ()
    sheet_note: str = ""

    def side_score(self, scores: dict[str, int], side: str) -> int:
        """A side's figure of one deal from its seats' scores: their sum (华牌's partnership
        scores together). A game whose partners each carry the side's figure says otherwise."""
        return sum(scores.get(seat, 0) for seat in self.sides[side])

    def deal_words(self, deal: dict) -> list[tuple[str, Any]]:
        """What a stored deal shows beyond its fields: [(label, value as a `Text` or str)]."""
        return []

    # Players' statistics: the labels of `statistics` ({figure: msgid}) and the figures that keep
    # their largest value rather than a sum (跑胡子's highest 番).
    statistics_labels: dict[str, str] = {}  # read-only, likewise
    # Players' statistics kept with each deal when it is scored (`stored_statistics`,
    # `Deal.seat_stats`: 华牌's, summed over thousands of deals) rather than counted from the
    # stored deals when asked (`seat_statistics`).
    keeps_statistics_per_deal: bool = False
    statistics_highest: tuple[str, ...] = ()

    # The rules in force in short phrases, each a `Text` the site renders in the reader's language
    # (华牌); the rule set's own name is then its `rules.label`. None: the site reads them from
    # the option specs' words (`Option.short_label`, `phrase`, `words`, `none_phrase`), one phrase
    # an option (`scoring.events.rulebook`).
    rules_in_words: Callable[[Any], list] | None = None

    def sample_deals(self, count: int, seed: int = 2026) -> list[dict]:
        """`count` valid deals under the game's default rules, in the order one table plays them
        (a game that carries a state: one match from its start), the same on every machine for a
        seed: for the tests' conformance suite (what an event supplies, such as `"game"` and
        options, may be left out or set aside by the caller)."""
        raise NotImplementedError(f"{self.id} gives no sample deals")
