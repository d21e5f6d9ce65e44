"""The public list of penalties (罚分) and rulings of the published rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.not_played import MARK_KEY, mark_words
from scoring.entry.versioned import not_played_mark
from scoring.models import Deal, Irregularity, RefereeCall
from scoring.rulings.calls import claim_text

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Event, Round, Table


def _where(path: str, rnd: Round | None, board: int | None) -> dict[str, int | Round]:
    """The filter of one round's board (or of the whole event) along `path` to the table."""
    found = {}
    if rnd is not None:
        found[f"{path}table__round"] = rnd
    if board is not None:
        found[f"{path}board"] = board
    return found


def penalty_list(event: Event, rnd: Round | None = None, board: int | None = None) -> list[dict[str, int | str]]:
    """Every penalty (罚分) and ruling of the published rounds (of `board` of `rnd` only, when
    given), for the public list: round, table, board, seat and who sat there, the irregularity
    and the ruling in the referee's words, and the call it was ruled on (`call`: its id, the
    row's anchor); a board not played with the rule it was scored by (`not_played`, with the
    call that ended it in no play, if any)."""
    rows = []
    ruled = set()
    not_played = {
        (deal.table_id, deal.board): deal
        for deal in Deal.objects.public()
        .filter(table__round__event=event, extra__has_key=MARK_KEY, **_where("", rnd, board))
        .select_related("table__round", "table__ns_entrant", "table__ew_entrant")
        .select_related("table__north", "table__east", "table__south", "table__west")
    }
    for item in (
        Irregularity.objects.public()
        .filter(deal__table__round__event=event, **_where("deal__", rnd, board))
        .select_related("deal__table__round", "deal__table__ns_entrant", "deal__table__ew_entrant")
        .select_related("deal__table__north", "deal__table__east", "deal__table__south", "deal__table__west")
        .order_by("deal__table__round__number", "deal__table__number", "deal__board", "id")
    ):
        table = item.deal.table
        ruled.add((item.deal_id, item.seat))
        row = _penalty_row(table, item.deal.board, item.seat, item.penalty, item.get_kind_display(), item.ruling)
        rows.append({**row, **_call_part(item.call)} if item.call_id else row)
    # Rulings at the tables that took no points (a redeal, a claim, nothing): listed with their call.
    for call in (
        RefereeCall.objects.public()
        .filter(table__round__event=event, **_where("", rnd, board))
        .exclude(outcome=RefereeCall.Outcome.PENALTY)
        .select_related("table__round", "table__ns_entrant", "table__ew_entrant")
        .select_related("table__north", "table__east", "table__south", "table__west")
    ):
        seat = call.seats[:1]
        row = _penalty_row(call.table, call.board or 0, seat, 0, call.get_kind_display(), call.ruling)
        row = {**row, **_call_part(call)}
        if call.outcome == RefereeCall.Outcome.NOT_PLAYED and (call.table_id, call.board) in not_played:
            row["not_played"] = mark_words(not_played_mark(not_played.pop((call.table_id, call.board))))
        rows.append(row)
    # Boards not played without a call (recorded from the board's page, or when time was called).
    for deal in not_played.values():
        mark = not_played_mark(deal)
        row = _penalty_row(deal.table, deal.board, "", 0, "", mark.get("reason", ""))
        rows.append({**row, "not_played": mark_words(mark)})
    for deal in (
        Deal.objects.public()
        .filter(table__round__event=event, **_where("", rnd, board))
        .exclude(penalties={})
        .select_related("table__round", "table__ns_entrant", "table__ew_entrant")
        .select_related("table__north", "table__east", "table__south", "table__west")
        .order_by("table__round__number", "table__number", "board")
    ):
        for seat, points in sorted(deal.penalties.items()):
            if (deal.id, seat) not in ruled:  # entered on the deal without a recorded ruling
                rows.append(_penalty_row(deal.table, deal.board, seat, points, "", ""))
    rows.sort(key=lambda row: (row["round"], row["table"], row["board"], row["seat"]))
    for row in rows:
        row.setdefault("outcome", "")
    return rows


def _penalty_row(table: Table, board: int, seat: str, points: int, kind: str, ruling: str) -> dict[str, int | str]:
    player = table.seat_players().get(seat) if seat else None
    entrant = (table.ns_entrant if seat in "NS" else table.ew_entrant) if seat else None
    return {
        "round": table.round.number,
        "table": table.number,
        "board": board,
        "seat": seat,
        "player": player.name if player else "",
        "entrant": entrant.code if entrant else "",
        "points": points,
        "kind": kind,
        "ruling": ruling,
    }


def _call_part(call: RefereeCall) -> dict[str, Any]:
    """What the public sees of the call a ruling came from: when, the seats, the facts, the outcome."""
    return {
        "call": call.pk,
        "called_at": call.at,
        "seats": call.seats,
        "facts": call.note,
        "outcome": call.get_outcome_display(),
        "claim": claim_text(call),
        "claim_status": call.get_claim_status_display() if call.claim_status else "",
    }
