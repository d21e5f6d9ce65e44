"""A game's deal as the site asks for it and shows it: the game's entry fields
(`Game.entry_fields`, plain data: a deal key, its label and kind) read into one shape, and a
stored deal in the fields' words. Every game's entry page is these fields; some kinds are
widgets drawn whole (华牌's card grid, `scoring.entry.grid`) rather than one input.

Plain data, no scoring: the game's engine checks and scores the deal JSON made from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext, pgettext

from scoring.engine.vocabulary import SEAT_NAMES
from scoring.messages import message_text

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.base import Game

# What a field asks (the games' entry fields): one seat; several seats; one of some values; yes
# or no; an integer per seat; an integer; a seat or nobody (跑胡子's 黄庄).
SEAT, SEATS, CHOICE, BOOL, COUNTS, PER_SEAT, INT, SEAT_OR_NONE = (
    "seat",
    "seats",
    "choice",
    "bool",
    "counts",
    "per_seat",
    "int",
    "seat_or_huang",
)
# Widgets, drawn whole by `scoring.entry.grid`: the point cards by seat (a row per copy of a card,
# `Game.entry_grid`), the exposures of the cards a field names (`choices`) with their holders, and
# a penalty per seat, entered as the points taken off.
CARDS, EXPOSURES, PENALTIES = "cards", "exposures", "penalties"
WIDGETS = (CARDS, EXPOSURES, PENALTIES)
KINDS = (SEAT, SEATS, CHOICE, BOOL, COUNTS, PER_SEAT, INT, SEAT_OR_NONE, *WIDGETS)
# The form's value of a seat-or-nobody field when the referee says nobody (跑胡子's 黄庄): the
# deal's null. An empty field is not entered (the deal lacks the key, and the law says so).
NOBODY = "none"
# `GameField.needed`: a field the deal has only when a seat-or-nobody field names a seat.
NEEDED_WITH_WINNER = "win"


@dataclass(frozen=True)
class GameField:
    """One entry field of a game: its deal key, label (the game's words, translated here),
    kind, whether the deal needs it, its values or bounds, and words for values."""

    key: str
    label: str
    kind: str
    required: bool = False
    choices: tuple = ()
    minimum: int = 0
    maximum: int | None = None
    words: dict = field(default_factory=dict)
    step: int | None = None  # an integer's step (升级's points: multiples of 5); the engine refuses others
    first_only: bool = False  # asked on a table's first deal only (升级's 台上: later deals carry the state)
    # When the deal needs it beyond `required` (跑胡子: "win", only when there is a winner), the
    # value the law assumes when it is left out, and the keys that choose a value on the page.
    needed: str | None = None
    default: object = None
    hotkeys: dict = field(default_factory=dict)
    # Exposures: every holder asked, exposed or not (华牌 where 自得 counts); else only an
    # exposed card's holder.
    holders_always: bool = False


def _read(spec: dict[str, Any]) -> GameField:
    """A game's field description (a dict, or an object with the same names) as a `GameField`."""
    get = spec.get if isinstance(spec, dict) else lambda name, default=None: getattr(spec, name, default)
    most = get("max", None)
    if isinstance(most, dict):  # a bound per role (斗地主: the landlord's, a farmer's): the widest
        most = max(most.values())
    needed = get("needed", None)
    return GameField(
        key=get("key"),
        label=gettext(get("label")),
        kind=get("kind"),
        required=bool(get("required", False)) or needed == "always",
        choices=tuple(get("choices", ()) or ()),
        minimum=get("minimum", None) or 0,
        maximum=most if most is not None else get("maximum", None),
        words=dict(get("words", None) or {}),
        step=get("step", None),
        first_only=bool(get("first_only", False)),
        needed=needed,
        default=get("default", None),
        hotkeys=dict(get("hotkeys", None) or {}),
        holders_always=bool(get("holders_always", False)),
    )


def on_its_grid(game: Game, rules: Any = None) -> bool:
    """Whether the game's deal is entered and drawn on a card grid (华牌's point cards by seat)
    rather than in fields and their words: the one question the pages and papers that draw a
    deal ask (tests/games/test_game_boundary.py lists where)."""
    return any(spec.kind == CARDS for spec in game_fields(game, rules))


def game_fields(game: Game, rules: Any = None, board: int | None = None) -> list[GameField]:
    """The game's entry fields in the order a referee records them, widgets among them. With
    `board`, the fields that board asks: a field of a table's first deal only (`first_only`) is
    left out of the later ones."""
    fields = [_read(spec) for spec in game.entry_fields(rules) or ()]
    if board is not None and board > 1:
        fields = [spec for spec in fields if not spec.first_only]
    return fields


def seat_word(seat: str) -> str:
    return f"{gettext(SEAT_NAMES[seat])}({seat})" if seat in SEAT_NAMES else str(seat)


def value_word(spec: GameField, value: Any) -> str:
    """One value of a field in words: a seat by its name, a choice by its word, yes or no."""
    if spec.kind == SEAT_OR_NONE and value is None and spec.words.get(None):
        return gettext(spec.words[None])  # nobody, in the game's word (跑胡子: 黄庄)
    if spec.kind in (SEAT, SEAT_OR_NONE):
        return seat_word(value) if value is not None else gettext("无")
    if spec.kind == SEATS:
        return pgettext("list separator", "、").join(seat_word(seat) for seat in value) if value else gettext("无")
    if spec.kind == BOOL:
        return gettext("是") if value else gettext("否")
    if spec.kind in (COUNTS, PER_SEAT):
        items = [(seat, count) for seat, count in (value or {}).items() if count]
        separator = pgettext("list separator", "、")
        return separator.join(f"{seat_word(seat)} {count}" for seat, count in items) if items else "0"
    word = spec.words.get(value)
    return gettext(word) if word else str(value)


def deal_words(game: Game, deal: dict[str, Any], rules: Any = None) -> list[tuple[str, str]]:
    """[(label, value in words)] of the fields a stored deal gives (`Deal.game_data`), then what
    the game says of it beyond its fields (`Game.deal_words`: 升级's levels before the deal)."""
    deal = deal or {}
    words = [
        (spec.label, value_word(spec, deal[spec.key]))
        for spec in game_fields(game, rules)
        if spec.kind not in WIDGETS  # drawn on its grid, not in words
        and spec.key in deal
        and (deal[spec.key] not in (None, [], {}) or spec.kind == SEAT_OR_NONE)
    ]
    words += [(gettext(label), message_text(value)) for label, value in game.deal_words(deal)]
    return words


def deal_text(game: Game, deal: dict[str, Any], rules: Any = None) -> str:
    """A stored deal in one line of the fields' words ("地主：东(E) · 叫分：2 …"), the colon the
    page language's ("Landlord: East(E)" in English)."""
    colon = pgettext("label and value", "：")
    return " · ".join(f"{label}{colon}{value}" for label, value in deal_words(game, deal, rules))


def drop_defaults_without_winner(fields: list[GameField], deal: dict[str, Any]) -> dict[str, Any]:
    """A deal whose seat-or-nobody field says nobody (跑胡子's 黄庄) keeps no field that only a
    winner has while it holds just its default (王钓 "none", 0 省: the page's untouched values);
    anything else the referee gave stays, for the law to refuse in its words (V4)."""
    if not any(spec.kind == SEAT_OR_NONE and spec.key in deal and deal[spec.key] is None for spec in fields):
        return deal
    for spec in fields:
        if spec.needed == NEEDED_WITH_WINNER and spec.key in deal and deal[spec.key] == spec.default:
            del deal[spec.key]
    return deal
