"""Writing results: entering, changing, confirming and adjusting deals, and rulings.

Every write runs in one transaction, checks the version the writer saw (a
conditional UPDATE, so two writers holding the same version cannot both
win) and appends to `DealHistory`. Scores come from `scoring.deals`.
"""

import re

from django.db import IntegrityError, transaction

from scoring.deals import apply_result, event_rules, score_stored
from scoring.hot_sql import create_with_history, deal_at, insert, round_status_for_write
from scoring.models import BlindEntry, Deal, DealHistory, Irregularity, Round, Table
from scoring.permissions import is_organiser, may_confirm, may_enter
from scoring.results import warm_public_standings
from scoring.rules import EXPOSABLE, POINT_CARDS, SEATS, DealError, read_deal, score_valid_deal, split_games
from scoring.vocabulary import MatchMode


class EntryError(Exception):
    """A refused entry, in domain terms: a stable code (referee-api.md and deal-json.md),
    a message naming what is wrong, and the parameters it names. No HTTP here: the API
    (`scoring.views.api.HTTP_STATUS`) and the pages map codes to responses, each in one place."""

    def __init__(self, code, message, **params):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def as_json(self):
        return {"error": {"code": self.code, "message": self.message}}


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
UNREAD = object()  # a deal not looked up yet (None means looked up and absent)


def not_found(message="没有这一副 / no such board"):
    return EntryError("not_found", message)


def stale(deal):
    return EntryError(
        "stale_version",
        f"这一副已被 {deal.entered_by or '他人'} 修改（现为第 {deal.version} 版），请重新载入后再改"
        f" / the deal changed meanwhile (now version {deal.version}); reload it",
        version=deal.version,
    )


def locate_board(event, round_number, table_number, board):
    """The table and board addressed by a page, or `EntryError("not_found")` (see `check_board`)."""
    table = (
        Table.objects.select_related("round")
        .filter(round__event=event, round__number=round_number, number=table_number)
        .order_by()
        .first()
    )
    if table is not None:
        table.round.event = event  # already loaded by the caller
    return check_board(event, table, board)


def check_board(event, table, board):
    """`(table, board)` if the board belongs to the table's match, else `EntryError("not_found")`.

    A board must belong to the match: 1…N in boards mode; in games mode a
    board already played or the next one, while the match is not over.
    """
    if table is None or board < 1:
        raise not_found("没有这一桌 / no such table" if table is None else "没有这一副 / no such board")
    if event.match_mode == MatchMode.BOARDS:
        if board > event.match_length:
            raise not_found(f"每场只有 {event.match_length} 副 / a match has boards 1–{event.match_length}")
        return table, board
    played = list(table.deals.order_by("sequence").values_list("board", "ns_score", "ew_score"))
    if any(b == board for b, _, _ in played):
        return table, board
    next_board = max((b for b, _, _ in played), default=0) + 1
    games = split_games([(ns, ew) for _, ns, ew in played], event.game_threshold)
    over = len(games) >= event.match_length and games[-1].finished
    if board != next_board or over:
        raise not_found("这场比赛没有这一副（局制：只能录入下一副）/ not a board of this match")
    return table, board


def snapshot(deal):
    """A deal as the API and the history show it."""
    if deal is None:
        return None
    data = {
        "captured": deal.captured,
        "holders": deal.holders,
        "exposed": deal.exposed,
        "penalties": deal.penalties,
        "status": deal.status,
        "version": deal.version,
        "scores": deal.scores,
        "raw": deal.raw,
        "sides": {"NS": deal.ns_score, "EW": deal.ew_score},
    }
    if deal.adjusted is not None:
        data["adjusted"] = deal.adjusted
        data["adjusted_reason"] = deal.adjusted_reason
    return data


def api_view(deal):
    return {
        "board": deal.board,
        **snapshot(deal),
        "entered_by": deal.entered_by.username if deal.entered_by else None,
        "confirmed_by": deal.confirmed_by.username if deal.confirmed_by else None,
    }


def _check_may_write(user, table, reason):
    event, rnd = table.round.event, table.round
    if not may_enter(user, event, rnd):
        if rnd.status == Round.Status.OFFICIAL:
            raise EntryError("round_official", "本轮成绩已正式公布，只有组织者可以更改 / the round is official")
        raise EntryError("forbidden", "你不是本赛事的裁判或组织者 / not a referee of this event")
    if rnd.is_published and not reason.strip():
        raise EntryError(
            "reason_required",
            "已公布成绩的更改必须写明理由（会列入公开的更改记录）"
            " / a change to a published result needs a reason (it is listed publicly)",
        )


def _check_round_unchanged(table):
    """Inside the write transaction: the round is still in the state the write was checked
    against. Publication and "make official" lock the round, so either they wait for this
    write or this write sees their new state and is refused."""
    seen = table.round.status
    now = round_status_for_write(table.round_id)
    if now != seen:
        label = Round.Status(now).label if now in Round.Status.values else now
        raise EntryError(
            "round_changed",
            f"本轮状态刚刚变为“{label}”，没有保存；请重新载入后再改 / the round became {now} meanwhile; "
            "nothing was saved, reload and try again",
        )


REASON_LIMIT = 500


def _checked_text(value, what):
    """A reason as typed: text of at most REASON_LIMIT characters, without control characters
    other than line breaks (PostgreSQL refuses NUL; nothing else belongs in a ruling)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > REASON_LIMIT or _CONTROL.search(value):
        raise EntryError(
            "bad_reason",
            f"{what}必须是不超过 {REASON_LIMIT} 个字的文字 / {what} must be text of at most {REASON_LIMIT} characters",
        )
    return value.strip()


def _history(deal, *, table, action, user, before, reason="", ip=None):
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
    )


def _warm_after_commit(table):
    if table.round.is_published:
        event = table.round.event
        transaction.on_commit(lambda: warm_public_standings(event))


def _record(deal, *, table, **history):
    """Append to the history and bump the results version (inside the writing transaction)."""
    table.round.event.results_changed(public=table.round.is_published, shard=table.pk)
    _warm_after_commit(table)
    insert(_history(deal, table=table, **history))


def _score(table, deal_json, adjusted=None):
    try:
        return score_stored(event_rules(table.round.event), deal_json, adjusted)
    except DealError as error:
        raise EntryError(error.code, error.message) from None


def deal_save(*, table, board, deal_json, user, expected_version=None, reason="", ip=None, existing=UNREAD):
    """Create or replace a deal. Returns `(deal, created)`.

    Replacing needs `expected_version` (else 428); a stale one is 412 and
    nothing changes. A change to a confirmed deal returns it to draft.
    `existing` is the stored deal (or None) if the caller has read it already.
    Reading it outside the transaction is safe: a create clashes on the unique
    board (428), and a change is conditional on the version (412).
    """
    reason = _checked_text(reason, "理由 / reason: ")
    adjusted_reason = _checked_text(deal_json.get("adjusted_reason"), "调整理由 / adjusted_reason: ")
    _check_may_write(user, table, reason)
    adjusted = deal_json.get("adjusted")
    if adjusted is not None and not is_organiser(user, table.round.event):
        raise EntryError("forbidden", "只有裁判长（组织者）可以给调整分 / only organisers give adjusted scores")
    scored = _score(table, deal_json, adjusted)
    # Everything but the writes happens before the transaction: on SQLite it
    # holds the one write lock, which every other referee is waiting for.
    if existing is UNREAD:
        existing = deal_at(table, board)
    if existing is None:
        if expected_version is not None:
            raise EntryError("stale_version", "这一副还没有录入 / the deal does not exist yet")
        deal = Deal(table=table, board=board, sequence=board, entered_by=user, status=Deal.Status.DRAFT)
        deal.adjusted = adjusted
        deal.adjusted_reason = adjusted_reason
        apply_result(deal, scored)
        history = _history(
            deal, table=table, action=DealHistory.Action.CREATE, user=user, before=None, reason=reason, ip=ip
        )
        _start_round(table.round)  # the first deal entered puts the round in play
        try:
            with transaction.atomic():
                _check_round_unchanged(table)
                create_with_history(deal, history, public=table.round.is_published, shard=table.pk)
        except IntegrityError:
            # Someone created it first: from here on it is an existing deal, which
            # needs If-Match, exactly as if this writer had arrived a moment later.
            raise EntryError(
                "version_required",
                "这一副刚被别人录入，请重新载入后再改 / someone entered this deal meanwhile",
            ) from None
        _warm_after_commit(table)
        return deal, True
    if expected_version is None:
        raise EntryError("version_required", "修改已有的牌需要 If-Match 版本号 / If-Match is required")
    if existing.version != expected_version:
        raise stale(existing)
    before = snapshot(existing)
    existing.adjusted = adjusted
    existing.adjusted_reason = adjusted_reason
    apply_result(existing, scored)
    existing.entered_by = user
    if table.round.is_published and is_organiser(user, table.round.event):
        # An organiser's correction of a published result is itself the ruling:
        # it stands at once (with its reason in the public list of changes).
        existing.status = Deal.Status.CONFIRMED
        existing.confirmed_by = user
    else:
        existing.status = Deal.Status.DRAFT
        existing.confirmed_by = None
    action = DealHistory.Action.ADJUST if adjusted is not None else DealHistory.Action.CHANGE
    with transaction.atomic():
        _check_round_unchanged(table)
        # Conditional on the version read above, so a change made meanwhile wins and this one is 412.
        _conditional_update(existing, expected_version)
        _record(existing, table=table, action=action, user=user, before=before, reason=reason, ip=ip)
    return existing, False


def _conditional_update(deal, expected_version):
    """Write `deal` only if nobody has moved it past `expected_version`."""
    fields = {
        name: getattr(deal, name)
        for name in (
            "captured",
            "holders",
            "exposed",
            "penalties",
            "adjusted",
            "adjusted_reason",
            "status",
            "entered_by",
            "confirmed_by",
            "score_n",
            "score_e",
            "score_s",
            "score_w",
            "ns_score",
            "ew_score",
            "ns_penalty",
            "ew_penalty",
            "raw_n",
            "raw_e",
            "raw_s",
            "raw_w",
        )
    }
    updated = Deal.objects.filter(pk=deal.pk, version=expected_version).update(version=expected_version + 1, **fields)
    if updated != 1:
        raise stale(Deal.objects.get(pk=deal.pk))
    deal.version = expected_version + 1


def deal_confirm(*, deal, user, expected_version, ip=None):
    """A second referee confirms the deal; the last person who entered or changed it may not."""
    table = deal.table
    _check_may_write(user, table, reason="confirm")
    if expected_version is None:
        raise EntryError("version_required", "确认需要 If-Match 版本号 / If-Match is required")
    if not may_confirm(user, deal):  # may_enter was checked above: the last editor is asking
        raise EntryError(
            "self_confirmation",
            "录入或最后修改这一副的人不能确认它，请另一位裁判确认 / the last editor cannot confirm",
        )
    with transaction.atomic():
        _check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        before = snapshot(deal)
        deal.status = Deal.Status.CONFIRMED
        deal.confirmed_by = user
        _conditional_update(deal, expected_version)
        _record(deal, table=table, action=DealHistory.Action.CONFIRM, user=user, before=before, ip=ip)
    return deal


def irregularity_record(*, deal, user, seat, kind, ruling, penalty, expected_version, ip=None):
    """Record an irregularity and its ruling; a penalty adds to the offender's penalties (a new version)."""
    table = deal.table
    _check_may_write(user, table, reason=ruling)
    if penalty > 0:
        raise EntryError("bad_penalty", "罚分必须是负数或 0 / a penalty is negative")
    if seat and seat not in SEATS:
        raise EntryError("unknown_seat", f"座位 {seat} 无效 / unknown seat {seat}")
    if penalty and not seat:
        raise EntryError("unknown_seat", "罚分需要指定座位 / a penalty needs a seat")
    with transaction.atomic():
        _check_round_unchanged(table)
        if deal.version != expected_version:
            raise stale(deal)
        Irregularity.objects.create(deal=deal, seat=seat, kind=kind, ruling=ruling, penalty=penalty, referee=user)
        before = snapshot(deal)
        if penalty:
            penalties = dict(deal.penalties)
            penalties[seat] = penalties.get(seat, 0) + penalty
            deal_json = {**deal.as_deal_json(), "penalties": penalties}
            apply_result(deal, _score(table, deal_json, deal.adjusted))
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
            reason=f"{kind}: {ruling}",
            ip=ip,
        )
    return deal


def _start_round(rnd):
    if rnd.status == Round.Status.SCHEDULED:
        Round.objects.filter(pk=rnd.pk, status=Round.Status.SCHEDULED).update(status=Round.Status.IN_PLAY)
        rnd.status = Round.Status.IN_PLAY


def history_rows(table, board):
    return [
        {
            "version": row.version,
            "user": row.user.username if row.user else None,
            "at": row.at.isoformat(),
            "action": row.action,
            "before": row.before,
            "after": row.after,
            "reason": row.reason,
        }
        for row in DealHistory.objects.filter(table=table, board=board).select_related("user").order_by("at", "id")
    ]


# --- blind double entry ----------------------------------------------------------------


def blind_entry_submit(*, table, board, deal_json, user, ip=None):
    """Store one referee's independent entry. Two identical entries by different
    referees make a confirmed deal; differing ones leave a conflict for the head referee.
    Returns `("waiting" | "confirmed" | "conflict", deal or None)`.
    """
    _check_may_write(user, table, reason="")
    scored = _score(table, deal_json)
    canonical = {key: scored[key] for key in ("captured", "holders", "exposed", "penalties")}
    with transaction.atomic():
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
        apply_result(deal, scored)
        deal.save()
        _record(
            deal,
            table=table,
            action=DealHistory.Action.BLIND,
            user=second.user,
            before=None,
            reason="两名裁判独立录入一致 / two identical blind entries",
            ip=ip,
        )
        _start_round(table.round)
        return "confirmed", deal


def blind_differences(table, board):
    """The cells where the blind entries of a board differ: [(what, {username: value})]."""
    entries = list(BlindEntry.objects.filter(table=table, board=board).select_related("user"))
    if len(entries) < 2:
        return []
    differences = []

    def seats_of(payload, card):
        # Every copy's taker: with two decks a card has two.
        return ",".join(sorted(seat for seat, cards in payload["captured"].items() for c in cards if c == card)) or None

    cells = [(f"captured {card}", lambda p, c=card: seats_of(p, c)) for card in POINT_CARDS]
    cells += [(f"holder {card}", lambda p, c=card: p["holders"].get(c)) for card in EXPOSABLE]
    cells += [(f"exposed {card}", lambda p, c=card: p["exposed"].get(c)) for card in EXPOSABLE]
    cells += [(f"penalty {seat}", lambda p, s=seat: p["penalties"].get(s)) for seat in SEATS]
    for label, read in cells:
        values = {entry.user.username: read(entry.payload) for entry in entries}
        if len(set(map(str, values.values()))) > 1:
            differences.append((label, values))
    return differences


def table_board_states(rnd):
    """{table id: {board: "missing" | "draft" | "confirmed" | "conflict"}} for a round's dashboard."""
    states = {}
    for table_id, board, status in Deal.objects.filter(table__round=rnd).values_list("table_id", "board", "status"):
        states.setdefault(table_id, {})[board] = status
    payloads = {}
    for table_id, board, payload in BlindEntry.objects.filter(table__round=rnd).values_list(
        "table_id", "board", "payload"
    ):
        payloads.setdefault((table_id, board), []).append(payload)
    for (table_id, board), entries in payloads.items():
        table_states = states.setdefault(table_id, {})
        if board not in table_states and len(entries) > 1 and any(e != entries[0] for e in entries):
            table_states[board] = "conflict"
    return states


def deal_preview(table, board, deal_json):
    """What the entry page shows as the referee types: problems, or scores, and the 局 running totals.

    The page's JavaScript only collects the form and draws this; every number
    comes from the engine here.
    """
    event = table.round.event
    rules = event_rules(event)
    adjusted = deal_json.get("adjusted")
    if adjusted is not None:
        try:
            result = score_stored(rules, deal_json, adjusted)
            problems = []
        except DealError as failure:
            result, problems = None, [failure]
    else:
        deal, problems = read_deal(deal_json, rules=rules)
        result = score_valid_deal(deal) if deal else None
    sides = list(table.deals.exclude(board=board).order_by("sequence").values_list("sequence", "ns_score", "ew_score"))
    if result:
        sides.append((board, result["sides"]["NS"], result["sides"]["EW"]))
        sides.sort()
    games = split_games([(ns, ew) for _, ns, ew in sides], event.game_threshold)
    return {
        "problems": [{"code": p.code, "message": p.message} for p in problems],
        "scores": result["scores"] if result else None,
        "raw": result["raw"] if result else None,
        "sides": result["sides"] if result else None,
        "breakdown": {seat: [e["text"] for e in entries] for seat, entries in result["breakdown"].items()}
        if result
        else None,
        "games": [{"number": g.number, "ns": g.ns, "ew": g.ew, "finished": g.finished} for g in games],
    }


def round_progress(rnd):
    """The round dashboard: per table its board states and running 局, and how many boards are not confirmed."""
    event = rnd.event
    states = table_board_states(rnd)
    sides = {}
    for table_id, ns, ew in (
        Deal.objects.filter(table__round=rnd).order_by("sequence").values_list("table_id", "ns_score", "ew_score")
    ):
        sides.setdefault(table_id, []).append((ns, ew))
    boards = range(1, event.match_length + 1) if event.match_mode == MatchMode.BOARDS else None
    rows, todo = [], 0
    for table in rnd.tables.select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west"):
        table_states = states.get(table.id, {})
        numbers = boards or range(1, max(table_states, default=0) + 2)  # games mode: played boards and the next
        cells = [{"board": b, "state": table_states.get(b, "missing")} for b in numbers]
        todo += sum(cell["state"] != "confirmed" for cell in cells)
        rows.append(
            {"table": table, "cells": cells, "games": split_games(sides.get(table.id, []), event.game_threshold)}
        )
    return rows, todo
