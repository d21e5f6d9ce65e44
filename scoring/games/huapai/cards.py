"""Card codes: parsing every accepted spelling, the point cards and their base values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games.seats import PARTNERSHIPS, TABLE_SEATS
from scoring.games.seats import SEAT_NAMES as SEAT_NAMES  # 华牌's words for its seats are the table's

if TYPE_CHECKING:
    from typing import Any

# 华牌 sits a full table in two fixed partnerships (the table's seats: `scoring.games.seats`).
SEATS = TABLE_SEATS
SIDES = PARTNERSHIPS
SIDE_OF_SEAT = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

PIG = "SQ"
GOAT = "DJ"
TRANSFORMER = "C10"
HEART_ACE = "HA"
EXPOSABLE = (PIG, GOAT, TRANSFORMER, HEART_ACE)

HEARTS = tuple("H" + rank for rank in RANKS)
HEART_VALUES = dict(zip(HEARTS, (-50, -40, -30, -20, -10, -10, -10, -10, -10, -10, 0, 0, 0), strict=True))
POINT_CARDS = (*HEARTS, PIG, GOAT, TRANSFORMER)
POINT_CARD_SET = frozenset(POINT_CARDS)


def _spellings() -> dict[str, str]:
    """Every accepted spelling, upper-cased, mapped to the canonical code.

    A lookup table rather than a parser: parsing a card is then one dict access,
    which matters when 100,000 deals stream through `score_deal`.
    """
    table = {}
    for suit, symbol in SUIT_SYMBOLS.items():
        for rank in RANKS:
            canonical = suit + rank
            rank_spellings = ("10", "T") if rank == "10" else (rank,)
            for suit_spelling in (suit, symbol):
                for rank_spelling in rank_spellings:
                    table[suit_spelling + rank_spelling] = canonical
    # Some keyboards give the white suit symbols; accept them too.
    for white, suit in (("♤", "S"), ("♡", "H"), ("♢", "D"), ("♧", "C")):
        for rank in RANKS:
            for rank_spelling in ("10", "T") if rank == "10" else (rank,):
                table[white + rank_spelling] = suit + rank
    # Lower-case spellings too, so the common cases need no string work at all.
    table.update({spelling.lower(): card for spelling, card in table.items()})
    return table


CARD_BY_SPELLING = _spellings()


def parse_card(code: Any) -> str | None:
    """Return the canonical code (`SQ`, `H10`…) or None when `code` is not a card."""
    if type(code) is not str:
        return None
    return CARD_BY_SPELLING.get(code) or CARD_BY_SPELLING.get(code.strip().upper())


def card_label(card: str) -> str:
    """The card as a referee reads it: `♠Q`, `♥10`."""
    return SUIT_SYMBOLS[card[0]] + card[1:]
