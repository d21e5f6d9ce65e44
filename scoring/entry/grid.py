"""The entry page's form fields ⇄ deal JSON. Plain data; no scoring here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from scoring.engine.vocabulary import SEATS
from scoring.games.huapai import EXPOSABLE, POINT_CARDS, card_label

if TYPE_CHECKING:
    from typing import Any

    from django.http.request import QueryDict

    from scoring.models import Deal


def _int(value: str) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def copy_suffix(copy: int) -> str:
    """Form field suffix of a copy: `card-SQ` for the first (one deck as before), `card-SQ-2` for the second."""
    return "" if copy == 1 else f"-{copy}"


def deal_from_form(data: dict[str, str], decks: int = 1) -> dict[str, dict[str, Any]]:
    """A deal JSON from the entry form (a QueryDict or a dict of strings).

    Unassigned cards are simply left out, so the engine reports them as
    missing by name; a penalty that is not a whole number is passed on as
    text so the engine names it. With two decks every point card has two rows
    and each exposable card two holder/exposure pairs, one per copy.
    """
    captured = {seat: [] for seat in SEATS}
    for card in POINT_CARDS:
        for copy in range(1, decks + 1):
            seat = data.get(f"card-{card}{copy_suffix(copy)}", "")
            if seat in captured:
                captured[seat].append(card)
    holders, exposed = {}, {}
    for card in EXPOSABLE:
        shown, shown_holders, held_only, unheld = [], [], [], []
        for copy in range(1, decks + 1):
            suffix = copy_suffix(copy)
            holder = data.get(f"holder-{card}{suffix}")
            kind = data.get(f"exposed-{card}{suffix}")
            holder = holder if holder in SEATS else None
            kind = kind if kind in ("shown", "first") else None
            if kind and holder:
                shown.append(kind)
                shown_holders.append(holder)
            elif kind:
                unheld.append(kind)  # the engine names it: exposed without a holder
            elif holder:
                held_only.append(holder)
        # Exposed copies first, each with its holder (deal-json.md), then holders of unexposed copies.
        seats = shown_holders + held_only
        kinds = shown + unheld
        if decks == 1:
            if seats:
                holders[card] = seats[0]
            if kinds:
                exposed[card] = kinds[0]
        else:
            if seats:
                holders[card] = seats
            if kinds:
                exposed[card] = kinds
    penalties = {}
    for seat in SEATS:
        raw = (data.get(f"penalty-{seat}") or "").strip()
        if raw:
            number = _int(raw)
            penalties[seat] = -abs(number) if number is not None else raw
    # An adjusted score is the entry form's, for every game (`GameDealForm.deal_json`).
    return {"captured": captured, "holders": holders, "exposed": exposed, "penalties": penalties}


def _as_list(value: Any) -> Any:
    return value if isinstance(value, list) else [value]


def form_from_deal(deal: Deal) -> dict[str, str]:
    """Initial form values for a stored deal (or {} for a new one); copies fill rows in order."""
    if deal is None:
        return {}
    values = {}
    kept = deal.game_data
    for seat, cards in kept.get("captured", {}).items():
        for card in cards:
            copy = 1
            while f"card-{card}{copy_suffix(copy)}" in values:
                copy += 1
            values[f"card-{card}{copy_suffix(copy)}"] = seat
    for card, seats in kept.get("holders", {}).items():
        for copy, seat in enumerate(_as_list(seats), start=1):
            values[f"holder-{card}{copy_suffix(copy)}"] = seat
    for card, kinds in kept.get("exposed", {}).items():
        for copy, kind in enumerate(_as_list(kinds), start=1):
            values[f"exposed-{card}{copy_suffix(copy)}"] = kind
    for seat, points in deal.penalties.items():
        values[f"penalty-{seat}"] = str(-points)
    if deal.adjusted:
        for seat, points in deal.adjusted.items():
            values[f"adjusted-{seat}"] = str(points)
        values["adjusted_reason"] = deal.adjusted_reason
    return values


COPY_MARKS = {1: "①", 2: "②"}


def card_rows(values: dict[str, str] | QueryDict, decks: int = 1) -> list[dict[str, str]]:
    """The card rows of the entry grid, in the order a referee counts them (16, or 32 for two decks)."""
    return [
        {
            "field": f"card-{card}{copy_suffix(copy)}",
            "code": card,
            "label": card_label(card) + (COPY_MARKS[copy] if decks > 1 else ""),
            "seat": values.get(f"card-{card}{copy_suffix(copy)}", ""),
        }
        for card in POINT_CARDS
        for copy in range(1, decks + 1)
    ]


def exposable_rows(values: dict[str, str] | QueryDict, decks: int = 1) -> list[dict[str, str]]:
    names = {"SQ": _("猪"), "DJ": _("羊"), "C10": _("变压器"), "HA": _("红桃A")}
    return [
        {
            "code": card,
            "suffix": copy_suffix(copy),
            "label": card_label(card) + (COPY_MARKS[copy] if decks > 1 else ""),
            "name": names[card],
            "holder": values.get(f"holder-{card}{copy_suffix(copy)}", ""),
            "exposed": values.get(f"exposed-{card}{copy_suffix(copy)}", ""),
        }
        for card in EXPOSABLE
        for copy in range(1, decks + 1)
    ]
