"""A board recorded as not played: `scoring.rulings.not_played` decides its score and its mark;
this writes the deal (no cards, the adjusted score, the mark) with the ruling in its history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from scoring.engine.not_played import MARK_KEY, is_awaiting
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import deal_at
from scoring.entry.selectors import snapshot
from scoring.entry.versioned import (
    REASON,
    UNREAD,
    answer_dispute,
    apply_scored,
    attach_rulings,
    check_may_write,
    check_round_unchanged,
    checked_text,
    conditional_update,
    pending_penalties,
    record,
    score_at_table,
    stale,
    start_round,
)
from scoring.games.refusals import _
from scoring.models import Deal, DealHistory

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import RefereeCall, Table


def deal_not_played(
    *,
    table: Table,
    board: int,
    user: User,
    adjusted: dict[str, int],
    mark: dict[str, Any],
    reason: str,
    expected_version: int | None = None,
    ip: str | None = None,
    existing: Deal | None = UNREAD,
    call: RefereeCall | None = None,
) -> tuple[Deal, bool]:
    """Record a board as not played; `scoring.rulings.not_played` has decided its score
    (`adjusted`) and its mark (`scoring.engine.not_played.new_mark`). Returns `(deal, created)`.

    The deal has no cards and `adjusted` as its score (penalties ruled on the board added, as on
    any deal), the mark in its `extra`, and a ruling with `reason` in its history. The ruling is
    the check: it stands confirmed at once — except a board awaiting the chief arbiter's adjusted
    score, a draft that cannot be confirmed until he gives it (`deal_save`). A deal already there
    is replaced, at `expected_version`. `call` is the call whose ruling ended the board in no play."""
    reason = checked_text(reason, REASON)
    if not reason:
        raise EntryError("reason_required", _("记录未打要写明理由"))
    check_may_write(user, table, reason)
    awaiting = is_awaiting(mark)
    status = Deal.Status.DRAFT if awaiting else Deal.Status.CONFIRMED
    if existing is UNREAD:
        existing = deal_at(table, board)
    if existing is None:
        if expected_version is not None:
            raise EntryError("stale_version", _("这一副还没有录入"))
        pending, pending_calls = pending_penalties(table, board)
        scored = score_at_table(table, {"captured": {}, "penalties": pending}, adjusted)
        deal = Deal(table=table, board=board, sequence=board, entered_by=user, status=status)
        deal.confirmed_by = None if awaiting else user
        deal.adjusted, deal.adjusted_reason = adjusted, reason
        deal.extra = {MARK_KEY: mark}
        apply_scored(deal, table, scored)
        start_round(table.round)
        try:
            with transaction.atomic():
                check_round_unchanged(table)
                deal.save()
                ruling = DealHistory.Action.RULING
                record(deal, table=table, action=ruling, user=user, before=None, reason=reason, ip=ip, call=call)
                attach_rulings(deal, pending_calls)
        except IntegrityError:
            raise EntryError("version_required", _("这一副刚被别人录入，请重新载入后再改")) from None
        return deal, True
    if expected_version is None:
        raise EntryError("version_required", _("修改已有的牌需要 If-Match 版本号"))
    if existing.version != expected_version:
        raise stale(existing)
    scored = score_at_table(table, {"captured": {}, "penalties": existing.penalties}, adjusted)
    before = snapshot(existing)
    disputed = existing.status == Deal.Status.DISPUTED
    existing.adjusted, existing.adjusted_reason = adjusted, reason
    apply_scored(existing, table, scored)
    existing.extra = {**(existing.extra or {}), MARK_KEY: mark}
    existing.status = status
    existing.entered_by, existing.entered_side = user, ""
    existing.confirmed_by = None if awaiting else user
    with transaction.atomic():
        check_round_unchanged(table)
        conditional_update(existing, expected_version, with_extra=True)
        ruling = DealHistory.Action.RULING
        record(existing, table=table, action=ruling, user=user, before=before, reason=reason, ip=ip, call=call)
        if disputed:
            answer_dispute(existing, user)
    return existing, False
