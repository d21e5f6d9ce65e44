"""Blind double entry: two referees enter the same board independently; two identical entries
make a confirmed deal, differing ones a conflict for the head referee."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoring.entry.versioned import (
    REASON,
    apply_scored,
    check_may_write,
    checked_text,
    record,
    score_at_table,
    start_round,
)
from scoring.games import game_of
from scoring.games.refusals import _
from scoring.games.stored import (
    canonical_deal,
)
from scoring.models import BlindEntry, Deal, DealHistory, Table

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

# Stored as the history's reason in Chinese; pages show it through gettext (history_reason).
BLIND_AGREEMENT = _("两名裁判独立录入一致")


def blind_entry_submit(
    *, table: Table, board: int, deal_json: dict[str, Any], user: User, reason: str = "", ip: str | None = None
) -> tuple[str, Deal | None]:
    """Store one referee's independent entry. Two identical entries by different
    referees make a confirmed deal; differing ones leave a conflict for the head referee.
    Returns `("waiting" | "confirmed" | "conflict", deal or None)`.
    """
    reason = checked_text(reason, REASON)
    check_may_write(user, table, reason)
    scored = score_at_table(table, deal_json, board=board)
    canonical = canonical_deal(game_of(table.round.event), scored)
    with transaction.atomic():
        # The table's row is locked first: two referees entering the same board at the same
        # moment otherwise each saw only their own entry (the other not yet committed), and
        # both were told to wait for the other — no deal (PostgreSQL; SQLite's one writer
        # already serialises them).
        list(Table.objects.select_for_update().filter(pk=table.pk).values_list("pk", flat=True))
        BlindEntry.objects.update_or_create(table=table, board=board, user=user, defaults={"payload": canonical})
        entries = list(BlindEntry.objects.filter(table=table, board=board).order_by("at", "id"))
        if Deal.objects.filter(table=table, board=board).exists():
            return "conflict" if len(entries) > 1 else "waiting", Deal.objects.get(table=table, board=board)
        if len(entries) < 2:
            return "waiting", None
        first, second = entries[0], entries[1]
        if first.payload != second.payload:
            return "conflict", None
        deal = Deal(
            table=table,
            board=board,
            sequence=board,
            entered_by=first.user,
            confirmed_by=second.user,
            status=Deal.Status.CONFIRMED,
        )
        apply_scored(deal, table, scored)
        deal.save()
        record(
            deal,
            table=table,
            action=DealHistory.Action.BLIND,
            user=second.user,
            before=None,
            reason=BLIND_AGREEMENT,
            ip=ip,
        )
        start_round(table.round)
        return "confirmed", deal
