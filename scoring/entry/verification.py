"""The players at the table (table-api.md): the other side verifies a deal entered through the
table link, or disputes it. What a player may do is checked by `scoring.table_entry.services`;
these write the deal, with the same version check and history as every write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoring.entry.errors import EntryError
from scoring.entry.selectors import snapshot
from scoring.entry.versioned import (
    REASON,
    REASON_LIMIT,
    check_not_awaiting,
    check_round_unchanged,
    checked_text,
    conditional_update,
    record,
    stale,
)
from scoring.games.refusals import _
from scoring.models import Deal, DealHistory, RefereeCall

if TYPE_CHECKING:
    from typing import Any

    from scoring.table_entry.codes import TableSide


def deal_verify(*, deal: Deal, player: TableSide, expected_version: int | None, ip: str | None = None) -> Deal:
    """The other side at the table checks a draft and confirms it: counts exactly as a
    confirmation by a second referee."""
    if expected_version is None:
        raise EntryError("version_required", _("确认需要 If-Match 版本号"))
    if deal.version != expected_version:
        raise stale(deal)
    if deal.status != Deal.Status.DRAFT:
        raise EntryError("not_draft", _("这一副现在是“{status}”，不能再确认"), status=deal.get_status_display())
    if deal.entered_side == player.side:
        raise EntryError("same_side", _("录入这一副的一方不能确认它：请对方用自己的录入码确认"))
    check_not_awaiting(deal)
    table = deal.table
    with transaction.atomic():
        check_round_unchanged(table)
        before = snapshot(deal)
        deal.status = Deal.Status.CONFIRMED
        deal.confirmed_by = None
        conditional_update(deal, expected_version)
        record(deal, table=table, action=DealHistory.Action.CONFIRM, user=None, before=before, ip=ip, player=player)
    return deal


def deal_dispute(
    *, deal: Deal, player: TableSide, reason: str, expected_version: Any = None, ip: str | None = None
) -> Deal:
    """A side disagrees with the deal as entered: it goes to the referees' queue, and the
    players can no longer change it (a referee settles it, `deal_save`/`deal_confirm`)."""
    reason = checked_text(reason, REASON)
    if not reason:
        raise EntryError("bad_reason", _("请写明争议的理由（1–{limit} 个字）"), limit=REASON_LIMIT)
    if expected_version is not None and deal.version != expected_version:
        raise stale(deal)
    if deal.status == Deal.Status.DISPUTED:
        raise EntryError("disputed", _("这一副已提出争议，正在等裁判"))
    table = deal.table
    with transaction.atomic():
        check_round_unchanged(table)
        before = snapshot(deal)
        version = deal.version
        deal.status = Deal.Status.DISPUTED
        deal.confirmed_by = None
        conditional_update(deal, version)
        record(
            deal, table=table, action=DealHistory.Action.DISPUTE, user=None, before=before, reason=reason, ip=ip,
            player=player,
        )  # fmt: skip
        RefereeCall.objects.create(
            table=table, board=deal.board, kind=RefereeCall.Kind.DISPUTE, note=reason, entrant=player.entrant
        )
    return deal
