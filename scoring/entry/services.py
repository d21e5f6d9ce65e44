"""Writing results: entering, changing, confirming and adjusting deals, and rulings on them.

Every write runs in one transaction, checks the version the writer saw and appends to
`DealHistory` (the steps in `scoring.entry.versioned`). Scores come from the event's game
(`scoring.games.stored`). Blind double entry is `scoring.entry.blind`, the players' own
verification and dispute `scoring.entry.verification`, a board not played
`scoring.entry.not_played_deal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import translation

from scoring.engine.not_played import ADJUSTED, MARK_KEY, is_awaiting
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import create_with_history, deal_at
from scoring.entry.selectors import snapshot
from scoring.entry.versioned import (
    REASON,
    REASON_LIMIT,
    UNREAD,
    adjusting_call,
    answer_dispute,
    apply_scored,
    attach_rulings,
    check_may_write,
    check_not_awaiting,
    check_round_unchanged,
    check_settles_dispute,
    checked_text,
    conditional_update,
    history_row,
    not_played_mark,
    pending_penalties,
    record,
    score_at_table,
    stale,
    start_round,
)
from scoring.events.permissions import is_organiser, may_confirm
from scoring.games import game_of
from scoring.games.refusals import DealError, Text, _
from scoring.games.stored import (
    canonical_deal,
    carries_state,
    event_rules,
    place_deal,
    score_stored,
)
from scoring.models import Deal, DealHistory, Irregularity, Table

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import RefereeCall
    from scoring.table_entry.codes import TableSide

# A later deal of a game that carries state, rewritten because an earlier one changed.
RETHREADED = _("前面一副更改：本副的台上与级数随之更新")


def _placed_again(
    table: Table, board: int, deal_json: dict[str, Any], adjusted: dict[str, int] | None, scored: dict[str, Any]
) -> dict[str, Any] | None:
    """For a game that carries state (升级), the deal scored again under the table's row lock:
    the state before it comes from the earlier deals as they stand now, not as they stood when it
    was first placed outside the transaction (a referee may have corrected one meanwhile; their
    change re-threads the later deals under the same lock). None when nothing moved."""
    if board is None or not carries_state(game_of(table.round.event)):
        return None
    Table.objects.select_for_update().filter(pk=table.pk).first()
    fresh = score_at_table(table, deal_json, adjusted, board)
    return None if fresh == scored else fresh


def _rethread_later(table: Table, board: int, user: User | None, ip: str | None = None) -> None:
    """After board `board` of a game that carries state changed, every later deal at the table
    takes the state the match now reaches (its own entry — the points — as it was): each one
    whose result moves is rewritten with a history row. A later deal the match can no longer
    take (it now ends before it) refuses the whole change. Inside the writer's transaction."""
    game = game_of(table.round.event)
    if not carries_state(game):
        return
    rules = event_rules(table.round.event)
    Table.objects.select_for_update().filter(pk=table.pk).first()  # a later deal placed meanwhile waits
    later = list(Deal.objects.select_for_update().filter(table=table, board__gt=board).order_by("board"))
    if not later:
        return
    earlier = [deal.as_deal_json() for deal in Deal.objects.filter(table=table, board__lte=board).order_by("board")]
    for deal in later:
        try:
            own = {key: value for key, value in deal.as_deal_json().items() if key != "state"}  # its entry
            placed = place_deal(game, rules, own, earlier)
            scored = score_stored(game, rules, placed, deal.adjusted)
        except DealError as error:
            raise EntryError(
                "later_deal_refused",
                _("这一改动使本桌第 {board} 副不再成立：{reason}"),
                board=deal.board,
                reason=Text(error.template, **error.params),
            ) from None
        if canonical_deal(game, scored) == deal.as_deal_json() and _same_scores(deal, scored):
            earlier.append(deal.as_deal_json())
            continue
        before = snapshot(deal)
        expected = deal.version
        deal.record_scored(scored, game)
        conditional_update(deal, expected)
        record(deal, table=table, action=DealHistory.Action.CHANGE, user=user, before=before, reason=RETHREADED, ip=ip)
        earlier.append(deal.as_deal_json())


def _same_scores(deal: Any, scored: Any) -> bool:
    return all(deal.scores[seat] == scored["scores"].get(seat, 0) for seat in deal.scores)


def deal_save(
    *,
    table: Table,
    board: int,
    deal_json: dict[str, Any],
    user: User | None,
    expected_version: int | None = None,
    reason: str = "",
    ip: str | None = None,
    existing: Any = UNREAD,
    player: TableSide | None = None,
) -> tuple[Deal, bool]:
    """Create or replace a deal. Returns `(deal, created)`.

    Replacing needs `expected_version` (else 428); a stale one is 412 and
    nothing changes. A change to a confirmed deal returns it to draft; a
    referee's change to a disputed deal settles it (confirmed, with a reason).
    `existing` is the stored deal (or None) if the caller has read it already.
    Reading it outside the transaction is safe: a create clashes on the unique
    board (428), and a change is conditional on the version (412).
    `player` is the side writing through the table link (`scoring.table_entry`,
    which has checked what a player may do); `user` is then None.
    """
    reason = checked_text(reason, REASON)
    adjusted_reason = checked_text(deal_json.get("adjusted_reason"), Text(_("调整理由")))
    if player is None:
        check_may_write(user, table, reason)
    adjusted = deal_json.get("adjusted")
    if adjusted is not None and (player is not None or not is_organiser(user, table.round.event)):
        raise EntryError("forbidden", _("只有裁判长（组织者）可以给调整分"))
    scored = score_at_table(table, deal_json, adjusted, board)
    # Everything but the writes happens before the transaction: on SQLite it
    # holds the one write lock, which every other referee is waiting for.
    if existing is UNREAD:
        existing = deal_at(table, board)
    if existing is None:
        if expected_version is not None:
            raise EntryError("stale_version", _("这一副还没有录入"))
        # A penalty a referee ruled at the table before the result existed joins the deal now.
        pending, pending_calls = pending_penalties(table, board)
        if pending:
            penalties = dict(scored.get("penalties") or {})
            for seat, points in pending.items():
                penalties[seat] = penalties.get(seat, 0) + points
            deal_json = {**deal_json, "penalties": penalties}
            scored = score_at_table(table, deal_json, adjusted, board)
        deal = Deal(table=table, board=board, sequence=board, entered_by=user, status=Deal.Status.DRAFT)
        deal.entered_side = player.side if player else ""
        deal.adjusted = adjusted
        deal.adjusted_reason = adjusted_reason
        apply_scored(deal, table, scored)
        call = adjusting_call(table, board) if adjusted is not None else None
        history_of = {"table": table, "action": DealHistory.Action.CREATE, "user": user, "before": None}
        history_of.update(reason=reason, ip=ip, player=player, call=call)
        history = history_row(deal, **history_of)
        start_round(table.round)  # the first deal entered puts the round in play
        try:
            with transaction.atomic():
                check_round_unchanged(table)
                placed = _placed_again(table, board, deal_json, adjusted, scored)
                if placed is not None:
                    apply_scored(deal, table, placed)
                    history = history_row(deal, **history_of)
                create_with_history(deal, history, public=table.round.is_published, shard=table.pk)
                attach_rulings(deal, pending_calls)
        except IntegrityError:
            # Someone created it first: from here on it is an existing deal, which
            # needs If-Match, exactly as if this writer had arrived a moment later.
            raise EntryError(
                "version_required",
                _("这一副刚被别人录入，请重新载入后再改"),
            ) from None
        return deal, True
    if expected_version is None:
        raise EntryError("version_required", _("修改已有的牌需要 If-Match 版本号"))
    if existing.version != expected_version:
        raise stale(existing)
    if player is not None:
        _check_keeps_ruled_penalties(existing, scored.get("penalties") or {})
    settles_dispute = player is None and existing.status == Deal.Status.DISPUTED
    if settles_dispute:
        check_settles_dispute(existing, reason)
    before = snapshot(existing)
    marked = not_played_mark(existing) is not None
    if marked:
        existing.extra = _extra_after_save(existing, deal_json, adjusted)
    existing.adjusted = adjusted
    existing.adjusted_reason = adjusted_reason
    apply_scored(existing, table, scored)
    existing.entered_by = user
    existing.entered_side = player.side if player else ""
    if settles_dispute:
        # The referee's ruling on a dispute is the result: it stands at once, with its reason.
        existing.status = Deal.Status.CONFIRMED
        existing.confirmed_by = user
    elif table.round.is_published and is_organiser(user, table.round.event):
        # An organiser's correction of a published result is itself the ruling:
        # it stands at once (with its reason in the public list of changes).
        existing.status = Deal.Status.CONFIRMED
        existing.confirmed_by = user
    else:
        existing.status = Deal.Status.DRAFT
        existing.confirmed_by = None
    action = DealHistory.Action.ADJUST if adjusted is not None else DealHistory.Action.CHANGE
    action = DealHistory.Action.RULING if settles_dispute else action
    # The chief arbiter's adjusted score carries out a call's ruling, if the board has one.
    call = adjusting_call(table, board) if action == DealHistory.Action.ADJUST else None
    with transaction.atomic():
        check_round_unchanged(table)
        placed = _placed_again(table, board, deal_json, adjusted, scored)
        if placed is not None:
            apply_scored(existing, table, placed)
        # Conditional on the version read above, so a change made meanwhile wins and this one is 412.
        conditional_update(existing, expected_version, with_extra=marked)
        record(
            existing,
            table=table,
            action=action,
            user=user,
            before=before,
            reason=reason,
            ip=ip,
            player=player,
            call=call,
        )
        if settles_dispute:
            answer_dispute(existing, user)
        _rethread_later(table, board, user, ip)
    return existing, False


def _has_captures(deal_json: dict[str, dict[str, int] | str]) -> bool:
    captured = deal_json.get("captured")
    return isinstance(captured, dict) and any(captured.values())


def _extra_after_save(
    existing: Deal, deal_json: dict[str, dict[str, Any] | str], adjusted: dict[str, int] | None
) -> dict[str, dict[str, str]]:
    """A board recorded not played, changed through the normal path: a result with cards (or
    without an adjusted score) means it was played after all, and the record is replaced; an
    adjusted score that is not the one recorded is the chief arbiter's (rule `adjusted`)."""
    extra = dict(existing.extra)
    mark = extra[MARK_KEY]
    if adjusted is None or _has_captures(deal_json):
        del extra[MARK_KEY]
    elif is_awaiting(mark) or adjusted != existing.adjusted:
        kept = {key: value for key, value in mark.items() if key not in ("awaiting", "tables")}
        extra[MARK_KEY] = {**kept, "rule": ADJUSTED}
    return extra


def _check_keeps_ruled_penalties(deal: Deal, penalties: dict[str, int]) -> None:
    """Penalties are the referees': a player's change of the deal may not lower or drop one."""
    ruled = {}
    for seat, points in Irregularity.objects.filter(deal=deal).exclude(penalty=0).values_list("seat", "penalty"):
        ruled[seat] = ruled.get(seat, 0) + points
    for seat, points in ruled.items():
        if penalties.get(seat, 0) > points:
            raise EntryError(
                "ruled_penalty",
                _("裁判给 {seat} 的罚分是 {points}，录入时不能减少或删除"),
                seat=seat,
                points=points,
            )


def deal_confirm(*, deal: Deal, user: User, expected_version: int, ip: str | None = None, reason: str = "") -> Deal:
    """A second referee confirms the deal; the last person who entered or changed it may not.
    Confirming a disputed deal settles the dispute: it needs a reason."""
    table = deal.table
    reason = checked_text(reason, REASON)
    check_may_write(user, table, reason="confirm")
    settles_dispute = deal.status == Deal.Status.DISPUTED
    if settles_dispute:
        check_settles_dispute(deal, reason)
    if expected_version is None:
        raise EntryError("version_required", _("确认需要 If-Match 版本号"))
    check_not_awaiting(deal)
    if not may_confirm(user, deal):  # may_enter was checked above: the last editor is asking
        raise EntryError(
            "self_confirmation",
            _("录入或最后修改这一副的人不能确认它，请另一位裁判确认"),
        )
    with transaction.atomic():
        check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        before = snapshot(deal)
        deal.status = Deal.Status.CONFIRMED
        deal.confirmed_by = user
        conditional_update(deal, expected_version)
        action = DealHistory.Action.RULING if settles_dispute else DealHistory.Action.CONFIRM
        record(deal, table=table, action=action, user=user, before=before, ip=ip, reason=reason)
        if settles_dispute:
            answer_dispute(deal, user)
    return deal


def irregularity_record(
    *,
    deal: Deal,
    user: User,
    seat: str,
    kind: str,
    ruling: str,
    penalty: int,
    expected_version: int,
    ip: str | None = None,
    call: RefereeCall | None = None,
) -> Deal:
    """Record an irregularity and its ruling; a penalty adds to the offender's penalties (a new version).
    `call` is the call at the table it rules on (`scoring.rulings.calls`), if any."""
    table = deal.table
    check_may_write(user, table, reason=ruling)
    if penalty > 0:
        raise EntryError("bad_penalty", _("罚分必须是负数或 0"))
    game = game_of(table.round.event)
    if kind not in game.call_kinds:  # the game's kinds of call (`Game.call_kinds`): 跑胡子 has no 藏牌
        words = Text(kind_words(kind))
        raise EntryError("bad_kind", _("{game} 没有“{kind}”这种违例"), game=Text(game.name), kind=words)
    if penalty and not game.takes_penalties:
        raise EntryError("no_penalties", _("{game} 的规则没有罚分：请由裁判长给调整分"), game=game.name)
    if seat and seat not in game.seats:
        raise EntryError("unknown_seat", _("座位 {seat!r:.40} 无效"), seat=seat)
    if penalty and not seat:
        raise EntryError("unknown_seat", _("罚分需要指定座位"))
    with transaction.atomic():
        check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        Irregularity.objects.create(
            deal=deal, seat=seat, kind=kind, ruling=ruling, penalty=penalty, referee=user, call=call
        )
        before = snapshot(deal)
        if penalty:
            penalties = dict(deal.penalties)
            penalties[seat] = penalties.get(seat, 0) + penalty
            deal_json = {**deal.as_deal_json(), "penalties": penalties}
            apply_scored(deal, table, score_at_table(table, deal_json, deal.adjusted))
        deal.status = Deal.Status.DRAFT if penalty else deal.status
        deal.entered_by = user if penalty else deal.entered_by
        if penalty:
            deal.confirmed_by = None
        conditional_update(deal, expected_version)
        record(
            deal,
            table=table,
            action=DealHistory.Action.RULING,
            user=user,
            before=before,
            reason=f"{kind_words(kind)}：{ruling}"[:REASON_LIMIT],
            ip=ip,
            call=call,
        )
    return deal


def kind_words(kind: str) -> str:
    """An irregularity's kind as the history stores it: its Chinese name (pages translate it)."""
    with translation.override(None):  # no language: the Chinese msgid itself
        return str(Irregularity.Kind(kind).label) if kind in Irregularity.Kind.values else kind


def deal_back_to_draft(
    *, deal: Deal, user: User, reason: str, expected_version: int, ip: Any = None, call: RefereeCall | None = None
) -> Deal:
    """A ruling voids the deal's result (the board was redealt): the deal goes back to draft,
    unconfirmed, with the ruling (and `call`, the call it was ruled on) in its history, and the
    redeal's result replaces it."""
    table = deal.table
    check_may_write(user, table, reason=reason)
    with transaction.atomic():
        check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        before = snapshot(deal)
        deal.status = Deal.Status.DRAFT
        deal.confirmed_by = None
        conditional_update(deal, expected_version)
        ruling = DealHistory.Action.RULING
        record(deal, table=table, action=ruling, user=user, before=before, reason=reason, ip=ip, call=call)
    return deal
