"""A stored deal's cards, holders and exposures as short text for pages, sheets and workbooks.

One deck stores one holder / exposure per card, two decks a list with one
entry per copy (deal-json.md); both read the same way here.
"""

from __future__ import annotations

from scoring.games.huapai import EXPOSABLE, card_label

EXPOSURE_WORDS = {"first": "首明", "shown": "明"}


def per_copy(value: list[str] | str) -> list[str]:
    return value if isinstance(value, list) else [value]


def cards_text(cards: list[str]) -> str:
    return " ".join(card_label(card) for card in cards)


def holders_text(holders: dict[str, list[str] | str]) -> str:
    return " ".join(f"{card_label(c)}:{','.join(per_copy(holders[c]))}" for c in EXPOSABLE if c in holders)


def exposure_word(kinds: list[str] | str) -> str:
    """明, 首明, 双明 (two copies shown), 首明+明."""
    words = [EXPOSURE_WORDS[kind] for kind in per_copy(kinds)]
    if len(words) == 2 and words[0] == words[1]:
        return "双" + words[0]
    return "+".join(words)


def exposed_text(exposed: dict[str, list[str] | str]) -> str:
    return " ".join(card_label(c) + exposure_word(exposed[c]) for c in EXPOSABLE if c in exposed)
