"""A board's traveller: that board at every table of a round, side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.not_played import MARK_KEY, mark_words
from scoring.entry.game_fields import deal_words, on_its_grid
from scoring.games import game_of
from scoring.games.huapai import card_label
from scoring.games.huapai.deal_text import cards_text, exposure_word, per_copy
from scoring.games.stored import event_rules
from scoring.messages import term_text
from scoring.models import Deal

if TYPE_CHECKING:
    from typing import Any

    from django.db.models import QuerySet

    from scoring.models import Event, Round


def board_traveller(event: Event, rnd: Round, board: int) -> list[dict[str, Any]]:
    """That board at every table of the round, side by side (like a bridge traveller)."""
    return _rows(event, _counted_deals(rnd).filter(board=board), breakdown=True)


def round_travellers(event: Event, rnd: Round) -> list[tuple[int, list[dict]]]:
    """Every board's traveller of the round, `[(board, rows)]` in board order, for the printed
    travellers: one query for the round's deals (a query a board built each table and its four
    players again for every board: 16 boards × 300 tables is 38,400 model instances) and without
    the engine's words for each seat's score, which the paper does not print."""
    tables = {table.pk: table for table in rnd.tables.select_related(*_TABLE_PEOPLE)}
    deals = Deal.objects.counted().filter(table__round=rnd).order_by("board", "table__number")
    boards: dict[int, list[dict]] = {}
    for deal in deals:
        deal.table = tables[deal.table_id]  # each table and its players built once, not once a board
        boards.setdefault(deal.board, []).append(deal)
    return [(board, _rows(event, found, breakdown=False)) for board, found in sorted(boards.items())]


_TABLE_PEOPLE = ("ns_entrant", "ew_entrant", "north", "east", "south", "west")


def _counted_deals(rnd: Round) -> QuerySet[Deal]:
    return (
        Deal.objects.counted()
        .filter(table__round=rnd)
        .select_related("table", *(f"table__{name}" for name in _TABLE_PEOPLE))
        .order_by("table__number")
    )


def _rows(event: Event, deals: QuerySet[Deal] | list[Deal], *, breakdown: bool) -> list[dict[str, Any]]:
    game = game_of(event)
    rules = event_rules(event)
    in_words = not on_its_grid(game, rules)
    rows = []
    for deal in deals:
        cards = deal.game_data
        holders = cards.get("holders", {})
        # The engine's own words for each seat's score ("猪 −100 ×2 明 ×2 自得"), so players can
        # check their deal; computed again from the stored deal (20 µs a deal).
        scored = game.score_stored(rules, deal.as_deal_json(), deal.adjusted) if breakdown else {}
        mark = (deal.extra or {}).get(MARK_KEY) if isinstance(deal.extra, dict) else None
        rows.append(
            {
                # A board not played shows the rule it was scored by, not cards or an adjustment.
                "not_played": mark_words(mark) if mark else None,
                "breakdown": {
                    seat: "；".join(
                        term_text(item.get("text", item.get("note")), game)
                        for item in scored.get("breakdown", {}).get(seat, [])
                    )
                    for seat in game.seats
                },
                # Another game's deal in its fields' words (华牌's are its cards, below).
                "words": deal_words(game, deal.game_data, rules) if in_words else [],
                "table": deal.table,
                "captured": {seat: cards_text(held) for seat, held in cards.get("captured", {}).items()},
                "holders": {card_label(card): ",".join(per_copy(seat)) for card, seat in holders.items()},
                "exposed": {card_label(card): exposure_word(kind) for card, kind in cards.get("exposed", {}).items()},
                "penalties": deal.penalties,
                "adjusted": deal.adjusted is not None and not mark,
                "adjusted_reason": deal.adjusted_reason,
                "scores": deal.scores,
                "raw": deal.raw,
                "ns": deal.ns_score,
                "ew": deal.ew_score,
            }
        )
    return rows
