"""Writing results: entering, changing, confirming and adjusting deals, and rulings.

Every write runs in one transaction, checks the version the writer saw (a
conditional UPDATE, so two writers holding the same version cannot both
win) and appends to `DealHistory`. Scores come from the event's game (`scoring.games.stored`).
"""

import re

from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from scoring.cache import announce_results_changed
from scoring.engine.not_played import ADJUSTED, MARK_KEY, is_awaiting
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import create_with_history, deal_at, insert, round_status_for_write
from scoring.entry.selectors import placed_deal, snapshot
from scoring.events.permissions import is_organiser, may_confirm, may_enter
from scoring.games import game_of
from scoring.games.refusals import DealError, Text, _
from scoring.games.stored import (
    apply_result,
    canonical_deal,
    carries_state,
    event_rules,
    place_deal,
    score_stored,
)
from scoring.games.stored import deal_json as stored_json
from scoring.models import Appeal, BlindEntry, Deal, DealHistory, Irregularity, RefereeCall, Round, Table

# Control characters, and lone surrogates (JSON's "\\ud800"), which no database encodes.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
# Stored as the history's reason in Chinese; pages show it through gettext (history_reason).
BLIND_AGREEMENT = _("两名裁判独立录入一致")
# A later deal of a game that carries state, rewritten because an earlier one changed.
RETHREADED = _("前面一副更改：本副的台上与级数随之更新")
UNREAD = object()  # a deal not looked up yet (None means looked up and absent)


def last_change(deal):
    """`(who, what)` of the deal's newest version: the person (or None) and the history action."""
    row = (
        DealHistory.objects.filter(table_id=deal.table_id, board=deal.board)
        .select_related("user")
        .order_by("-at", "-id")
        .first()
    )
    if row is None:
        return deal.entered_by, DealHistory.Action.CREATE
    return row.user, row.action


def stale(deal):
    """Someone else's newer version stands: say who made it and what they did."""
    who, what = last_change(deal)
    return EntryError(
        "stale_version",
        _("你打开页面后，{who}{what}了这一副（现为第 {version} 版）；你的录入没有保存，请核对后再改"),
        who=str(who) if who else Text(_("他人")),
        what=DealHistory.Action(what).label if what in DealHistory.Action.values else what,
        version=deal.version,
    )


def _check_may_write(user, table, reason):
    event, rnd = table.round.event, table.round
    if not may_enter(user, event, rnd):
        if rnd.status == Round.Status.OFFICIAL:
            raise EntryError("round_official", _("本轮成绩已正式公布，只有组织者可以更改"))
        raise EntryError("forbidden", _("你不是本赛事的裁判或组织者"))
    if rnd.is_published and not reason.strip():
        raise EntryError(
            "reason_required",
            _("已公布成绩的更改必须写明理由（会列入公开的更改记录）"),
        )
    if table.signed_off and not reason.strip():
        raise EntryError("reason_required", _("本桌成绩已签字确认：更改必须写明理由"))


def _check_settles_dispute(deal, reason):
    """A referee settling a disputed deal (changing or confirming it) says why."""
    if deal.status == Deal.Status.DISPUTED and not reason.strip():
        raise EntryError("reason_required", _("这一副有争议：裁决必须写明理由"))


def _check_round_unchanged(table):
    """Inside the write transaction: the round is still in the state the write was checked
    against. Publication and "make official" lock the round, so either they wait for this
    write or this write sees their new state and is refused."""
    seen = table.round.status
    now = round_status_for_write(table.round_id)
    if now != seen:
        raise EntryError(
            "round_changed",
            _("本轮状态刚刚变为“{status}”，没有保存；请重新载入后再改"),
            status=Round.Status(now).label if now in Round.Status.values else now,
        )


REASON_LIMIT = 500
REASON = Text(_("理由"))
BOARD_LIMIT = 10_000


def checked_board(board):
    """An optional board number as sent (a call, an appeal): None, or an integer 1 … BOARD_LIMIT."""
    if board is not None and (not isinstance(board, int) or isinstance(board, bool) or not 1 <= board <= BOARD_LIMIT):
        raise EntryError("bad_board", _("副号无效"))
    return board


def irregularity_kind(call):
    """The irregularity a call's penalty is recorded as (the kinds a call has beyond them: other)."""
    return call.kind if call.kind in Irregularity.Kind.values else Irregularity.Kind.OTHER


def checked_text(value, label):
    """A reason as typed: text of at most REASON_LIMIT characters, without control characters
    other than line breaks (PostgreSQL refuses NUL; nothing else belongs in a ruling)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > REASON_LIMIT or _CONTROL.search(value):
        raise EntryError(
            "bad_reason",
            _("{what}必须是不超过 {limit} 个字的文字"),
            what=label,
            limit=REASON_LIMIT,
        )
    return value.strip()


def _history(deal, *, table, action, user, before, reason="", ip=None, player=None, call=None, appeal=None):
    """A history row; `player` (a `scoring.table_entry.codes.TableSide`) when a player acted
    through the table link; `call` the call at the table whose ruling made the change, `appeal`
    the appeal it corrects the board for."""
    return DealHistory(
        event=table.round.event,
        table=table,
        board=deal.board,
        deal=deal,
        version=deal.version,
        user=user,
        action=action,
        before=before,
        after=snapshot(deal),
        reason=reason,
        ip=ip,
        entrant=player.entrant if player else None,
        channel=DealHistory.TABLE_LINK if player else "",
        device=player.device if player else "",
        call=call,
        appeal=appeal,
    )


def _record(deal, *, table, **history):
    """Append to the history and announce the change (inside the writing transaction). A
    change to a published board that has an undecided appeal is that appeal's correction (the
    normal path of `scoring.rulings.appeals`): the row names it."""
    announce_results_changed(table.round.event, public=table.round.is_published, shard=table.pk)
    if table.round.is_published and history.get("action") != DealHistory.Action.CONFIRM and "appeal" not in history:
        history["appeal"] = open_appeal(table, deal.board)
    insert(_history(deal, table=table, **history))


def open_appeal(table, board):
    """The latest undecided appeal about `board` at `table`, or None."""
    return Appeal.objects.filter(table=table, board=board, decided_at=None).order_by("-filed_at", "-id").first()


def adjusting_call(table, board):
    """The latest ruled call of the board whose outcome the chief arbiter's adjusted score carries
    out (an adjusted score, or a board not played awaiting his score), or None."""
    return (
        RefereeCall.objects.filter(
            table=table,
            board=board,
            outcome__in=(RefereeCall.Outcome.ADJUSTED, RefereeCall.Outcome.NOT_PLAYED),
        )
        .exclude(ruled_at=None)
        .order_by("-ruled_at", "-id")
        .first()
    )


def _score(table, deal_json, adjusted=None, board=None):
    """The deal scored by the event's game as it will be stored, with what players' statistics
    need of it (where the game keeps anything). A game that carries a state from deal to deal
    (升级's levels) scores board `board` at its place in the table's match (`placed_deal`)."""
    event = table.round.event
    game, rules = game_of(event), event_rules(event)
    try:
        if board is not None and carries_state(game):
            deal_json = placed_deal(table, board, game, rules, deal_json)
        return score_stored(game, rules, deal_json, adjusted)
    except DealError as error:
        raise EntryError(error.code, error.template, **error.params) from None


def _placed_again(table, board, deal_json, adjusted, scored):
    """For a game that carries state (升级), the deal scored again under the table's row lock:
    the state before it comes from the earlier deals as they stand now, not as they stood when it
    was first placed outside the transaction (a referee may have corrected one meanwhile; their
    change re-threads the later deals under the same lock). None when nothing moved."""
    if board is None or not carries_state(game_of(table.round.event)):
        return None
    Table.objects.select_for_update().filter(pk=table.pk).first()
    fresh = _score(table, deal_json, adjusted, board)
    return None if fresh == scored else fresh


def _rethread_later(table, board, user, ip=None):
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
    earlier = [stored_json(deal) for deal in Deal.objects.filter(table=table, board__lte=board).order_by("board")]
    for deal in later:
        try:
            own = {key: value for key, value in stored_json(deal).items() if key != "state"}  # its entry
            placed = place_deal(game, rules, own, earlier)
            scored = score_stored(game, rules, placed, deal.adjusted)
        except DealError as error:
            raise EntryError(
                "later_deal_refused",
                _("这一改动使本桌第 {board} 副不再成立：{reason}"),
                board=deal.board,
                reason=Text(error.template, **error.params),
            ) from None
        if canonical_deal(game, scored) == stored_json(deal) and _same_scores(deal, scored):
            earlier.append(stored_json(deal))
            continue
        before = snapshot(deal)
        expected = deal.version
        apply_result(deal, scored, game)
        _conditional_update(deal, expected)
        _record(deal, table=table, action=DealHistory.Action.CHANGE, user=user, before=before, reason=RETHREADED, ip=ip)
        earlier.append(stored_json(deal))


def _same_scores(deal, scored):
    return all(deal.scores[seat] == scored["scores"].get(seat, 0) for seat in deal.scores)


def _apply(deal, table, scored):
    apply_result(deal, scored, game_of(table.round.event))


def deal_save(
    *, table, board, deal_json, user, expected_version=None, reason="", ip=None, existing=UNREAD, player=None
):
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
        _check_may_write(user, table, reason)
    adjusted = deal_json.get("adjusted")
    if adjusted is not None and (player is not None or not is_organiser(user, table.round.event)):
        raise EntryError("forbidden", _("只有裁判长（组织者）可以给调整分"))
    scored = _score(table, deal_json, adjusted, board)
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
            scored = _score(table, deal_json, adjusted, board)
        deal = Deal(table=table, board=board, sequence=board, entered_by=user, status=Deal.Status.DRAFT)
        deal.entered_side = player.side if player else ""
        deal.adjusted = adjusted
        deal.adjusted_reason = adjusted_reason
        _apply(deal, table, scored)
        call = adjusting_call(table, board) if adjusted is not None else None
        history_of = {"table": table, "action": DealHistory.Action.CREATE, "user": user, "before": None}
        history_of.update(reason=reason, ip=ip, player=player, call=call)
        history = _history(deal, **history_of)
        _start_round(table.round)  # the first deal entered puts the round in play
        try:
            with transaction.atomic():
                _check_round_unchanged(table)
                placed = _placed_again(table, board, deal_json, adjusted, scored)
                if placed is not None:
                    _apply(deal, table, placed)
                    history = _history(deal, **history_of)
                create_with_history(deal, history, public=table.round.is_published, shard=table.pk)
                _attach_rulings(deal, pending_calls)
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
        _check_settles_dispute(existing, reason)
    before = snapshot(existing)
    marked = not_played_mark(existing) is not None
    if marked:
        existing.extra = _extra_after_save(existing, deal_json, adjusted)
    existing.adjusted = adjusted
    existing.adjusted_reason = adjusted_reason
    _apply(existing, table, scored)
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
        _check_round_unchanged(table)
        placed = _placed_again(table, board, deal_json, adjusted, scored)
        if placed is not None:
            _apply(existing, table, placed)
        # Conditional on the version read above, so a change made meanwhile wins and this one is 412.
        _conditional_update(existing, expected_version, with_extra=marked)
        _record(
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
            _answer_dispute(existing, user)
        _rethread_later(table, board, user, ip)
    return existing, False


def _attach_rulings(deal, calls):
    """The irregularities of penalties ruled on calls before the deal existed, now on it."""
    for call in calls:
        Irregularity.objects.create(
            deal=deal,
            seat=call.penalty_seat,
            kind=irregularity_kind(call),
            ruling=call.ruling,
            penalty=call.penalty,
            referee=call.ruled_by,
            call=call,
        )


def not_played_mark(deal):
    """The deal's not-played mark (`scoring.engine.not_played`), or None for a board played."""
    extra = deal.extra if isinstance(deal.extra, dict) else {}
    mark = extra.get(MARK_KEY)
    return mark if isinstance(mark, dict) else None


def _has_captures(deal_json):
    captured = deal_json.get("captured")
    return isinstance(captured, dict) and any(captured.values())


def _extra_after_save(existing, deal_json, adjusted):
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


def _check_not_awaiting(deal):
    if is_awaiting(not_played_mark(deal)):
        raise EntryError("awaiting_adjusted", _("这一副未打，等裁判长给调整分：给出之前不能确认"))


def deal_not_played(
    *, table, board, user, adjusted, mark, reason, expected_version=None, ip=None, existing=UNREAD, call=None
):
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
    _check_may_write(user, table, reason)
    awaiting = is_awaiting(mark)
    status = Deal.Status.DRAFT if awaiting else Deal.Status.CONFIRMED
    if existing is UNREAD:
        existing = deal_at(table, board)
    if existing is None:
        if expected_version is not None:
            raise EntryError("stale_version", _("这一副还没有录入"))
        pending, pending_calls = pending_penalties(table, board)
        scored = _score(table, {"captured": {}, "penalties": pending}, adjusted)
        deal = Deal(table=table, board=board, sequence=board, entered_by=user, status=status)
        deal.confirmed_by = None if awaiting else user
        deal.adjusted, deal.adjusted_reason = adjusted, reason
        deal.extra = {MARK_KEY: mark}
        _apply(deal, table, scored)
        _start_round(table.round)
        try:
            with transaction.atomic():
                _check_round_unchanged(table)
                deal.save()
                ruling = DealHistory.Action.RULING
                _record(deal, table=table, action=ruling, user=user, before=None, reason=reason, ip=ip, call=call)
                _attach_rulings(deal, pending_calls)
        except IntegrityError:
            raise EntryError("version_required", _("这一副刚被别人录入，请重新载入后再改")) from None
        return deal, True
    if expected_version is None:
        raise EntryError("version_required", _("修改已有的牌需要 If-Match 版本号"))
    if existing.version != expected_version:
        raise stale(existing)
    scored = _score(table, {"captured": {}, "penalties": existing.penalties}, adjusted)
    before = snapshot(existing)
    disputed = existing.status == Deal.Status.DISPUTED
    existing.adjusted, existing.adjusted_reason = adjusted, reason
    _apply(existing, table, scored)
    existing.extra = {**(existing.extra or {}), MARK_KEY: mark}
    existing.status = status
    existing.entered_by, existing.entered_side = user, ""
    existing.confirmed_by = None if awaiting else user
    with transaction.atomic():
        _check_round_unchanged(table)
        _conditional_update(existing, expected_version, with_extra=True)
        ruling = DealHistory.Action.RULING
        _record(existing, table=table, action=ruling, user=user, before=before, reason=reason, ip=ip, call=call)
        if disputed:
            _answer_dispute(existing, user)
    return existing, False


def pending_penalties(table, board):
    """Penalties ruled on calls for this board (`scoring.rulings.calls`) that are not on its
    deal yet: `({seat: points}, [calls])`. `deal_save` adds them when it creates the deal."""
    calls = list(
        RefereeCall.objects.filter(
            table=table, board=board, outcome=RefereeCall.Outcome.PENALTY, irregularities__isnull=True
        ).select_related("ruled_by")
    )
    totals = {}
    for call in calls:
        totals[call.penalty_seat] = totals.get(call.penalty_seat, 0) + call.penalty
    return totals, calls


def _check_keeps_ruled_penalties(deal, penalties):
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


def _answer_dispute(deal, user):
    """The referee's ruling answers the table's dispute call of this board."""
    RefereeCall.objects.filter(
        table_id=deal.table_id, board=deal.board, kind=RefereeCall.Kind.DISPUTE, answered_at=None
    ).update(answered_at=timezone.now(), answered_by=user)


def _conditional_update(deal, expected_version, with_extra=False):
    """Write `deal` only if nobody has moved it past `expected_version` (its `extra` too, when
    a write changes it: a board's not-played mark)."""
    columns = (*Deal.RESULT_COLUMNS, "status", "entered_by", "entered_side", "confirmed_by")
    columns += ("extra",) if with_extra else ()
    fields = {name: getattr(deal, name) for name in columns}
    updated = Deal.objects.filter(pk=deal.pk, version=expected_version).update(version=expected_version + 1, **fields)
    if updated != 1:
        raise stale(Deal.objects.get(pk=deal.pk))
    deal.version = expected_version + 1


def deal_confirm(*, deal, user, expected_version, ip=None, reason=""):
    """A second referee confirms the deal; the last person who entered or changed it may not.
    Confirming a disputed deal settles the dispute: it needs a reason."""
    table = deal.table
    reason = checked_text(reason, REASON)
    _check_may_write(user, table, reason="confirm")
    settles_dispute = deal.status == Deal.Status.DISPUTED
    if settles_dispute:
        _check_settles_dispute(deal, reason)
    if expected_version is None:
        raise EntryError("version_required", _("确认需要 If-Match 版本号"))
    _check_not_awaiting(deal)
    if not may_confirm(user, deal):  # may_enter was checked above: the last editor is asking
        raise EntryError(
            "self_confirmation",
            _("录入或最后修改这一副的人不能确认它，请另一位裁判确认"),
        )
    with transaction.atomic():
        _check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        before = snapshot(deal)
        deal.status = Deal.Status.CONFIRMED
        deal.confirmed_by = user
        _conditional_update(deal, expected_version)
        action = DealHistory.Action.RULING if settles_dispute else DealHistory.Action.CONFIRM
        _record(deal, table=table, action=action, user=user, before=before, ip=ip, reason=reason)
        if settles_dispute:
            _answer_dispute(deal, user)
    return deal


def irregularity_record(*, deal, user, seat, kind, ruling, penalty, expected_version, ip=None, call=None):
    """Record an irregularity and its ruling; a penalty adds to the offender's penalties (a new version).
    `call` is the call at the table it rules on (`scoring.rulings.calls`), if any."""
    table = deal.table
    _check_may_write(user, table, reason=ruling)
    if penalty > 0:
        raise EntryError("bad_penalty", _("罚分必须是负数或 0"))
    game = game_of(table.round.event)
    if penalty and not game.takes_penalties:
        raise EntryError("no_penalties", _("{game} 的规则没有罚分：请由裁判长给调整分"), game=game.name)
    if seat and seat not in game.seats:
        raise EntryError("unknown_seat", _("座位 {seat!r:.40} 无效"), seat=seat)
    if penalty and not seat:
        raise EntryError("unknown_seat", _("罚分需要指定座位"))
    with transaction.atomic():
        _check_round_unchanged(table)
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
            _apply(deal, table, _score(table, deal_json, deal.adjusted))
        deal.status = Deal.Status.DRAFT if penalty else deal.status
        deal.entered_by = user if penalty else deal.entered_by
        if penalty:
            deal.confirmed_by = None
        _conditional_update(deal, expected_version)
        _record(
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


def kind_words(kind):
    """An irregularity's kind as the history stores it: its Chinese name (pages translate it)."""
    with translation.override(None):  # no language: the Chinese msgid itself
        return str(Irregularity.Kind(kind).label) if kind in Irregularity.Kind.values else kind


def deal_back_to_draft(*, deal, user, reason, expected_version, ip=None, call=None):
    """A ruling voids the deal's result (the board was redealt): the deal goes back to draft,
    unconfirmed, with the ruling (and `call`, the call it was ruled on) in its history, and the
    redeal's result replaces it."""
    table = deal.table
    _check_may_write(user, table, reason=reason)
    with transaction.atomic():
        _check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        before = snapshot(deal)
        deal.status = Deal.Status.DRAFT
        deal.confirmed_by = None
        _conditional_update(deal, expected_version)
        ruling = DealHistory.Action.RULING
        _record(deal, table=table, action=ruling, user=user, before=before, reason=reason, ip=ip, call=call)
    return deal


def _start_round(rnd):
    if rnd.status == Round.Status.SCHEDULED:
        Round.objects.filter(pk=rnd.pk, status=Round.Status.SCHEDULED).update(status=Round.Status.IN_PLAY)
        rnd.status = Round.Status.IN_PLAY


# --- blind double entry ----------------------------------------------------------------


def blind_entry_submit(*, table, board, deal_json, user, reason="", ip=None):
    """Store one referee's independent entry. Two identical entries by different
    referees make a confirmed deal; differing ones leave a conflict for the head referee.
    Returns `("waiting" | "confirmed" | "conflict", deal or None)`.
    """
    reason = checked_text(reason, REASON)
    _check_may_write(user, table, reason)
    scored = _score(table, deal_json, board=board)
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
        _apply(deal, table, scored)
        deal.save()
        _record(
            deal,
            table=table,
            action=DealHistory.Action.BLIND,
            user=second.user,
            before=None,
            reason=BLIND_AGREEMENT,
            ip=ip,
        )
        _start_round(table.round)
        return "confirmed", deal


# --- the players at the table (table-api.md) -------------------------------------------
# What a player may do is checked by `scoring.table_entry.services`; these write the deal.


def deal_verify(*, deal, player, expected_version, ip=None):
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
    _check_not_awaiting(deal)
    table = deal.table
    with transaction.atomic():
        _check_round_unchanged(table)
        before = snapshot(deal)
        deal.status = Deal.Status.CONFIRMED
        deal.confirmed_by = None
        _conditional_update(deal, expected_version)
        _record(deal, table=table, action=DealHistory.Action.CONFIRM, user=None, before=before, ip=ip, player=player)
    return deal


def deal_dispute(*, deal, player, reason, expected_version=None, ip=None):
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
        _check_round_unchanged(table)
        before = snapshot(deal)
        version = deal.version
        deal.status = Deal.Status.DISPUTED
        deal.confirmed_by = None
        _conditional_update(deal, version)
        _record(
            deal, table=table, action=DealHistory.Action.DISPUTE, user=None, before=before, reason=reason, ip=ip,
            player=player,
        )  # fmt: skip
        RefereeCall.objects.create(
            table=table, board=deal.board, kind=RefereeCall.Kind.DISPUTE, note=reason, entrant=player.entrant
        )
    return deal
