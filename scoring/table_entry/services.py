"""What the players at a table may do through its link (table-api.md), and doing it.

Each function checks the players' rules — the event lets players enter, the round is not
published, the table has not been signed off, the code is one of this table's — and calls
the deal services (`scoring.entry.services`), which write with a version check and a
history row naming the acting entrant and the channel. Referees keep every power they have:
nothing here is in their way.
"""

from __future__ import annotations

import hmac
from dataclasses import replace
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from scoring.engine.vocabulary import MatchMode
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import deal_at
from scoring.entry.selectors import check_board
from scoring.entry.services import deal_save
from scoring.entry.verification import deal_dispute, deal_verify
from scoring.entry.versioned import checked_board, checked_text, not_played_mark
from scoring.games import game_of
from scoring.games.refusals import Text, _
from scoring.games.seats import in_partnerships
from scoring.games.stored import boards_played_out, carries_state, event_rules
from scoring.models import Appeal, Deal, DealHistory, Event, RefereeCall, Table, table_token_digest
from scoring.rulings.appeals import APPEALS_PER_SIDE_AND_ROUND, appeal_lodge, check_appeal_window
from scoring.rulings.calls import check_call_kind
from scoring.table_entry.codes import side_entrants, side_for_code

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Entrant
    from scoring.table_entry.codes import Phone, TableSide


def table_for_token(token: str) -> Table | None:
    """The table a link reaches, with what every call needs of it; None for an unknown or
    replaced token. Found by the token's digest (the index compares digests of what the caller
    sent, never the stored token), then the token itself compared in constant time."""
    table = (
        # Not the four seated players: on PostgreSQL planning the nine-table join took ~8 ms of
        # a poll's state (bench/table_load.py); `table_state` reads their names by id.
        Table.objects.select_related("round__event", "ns_entrant", "ew_entrant")
        .filter(token_digest=table_token_digest(token))
        .first()
    )
    return table if table is not None and same_token(table.token, token) else None


def same_token(stored: str, sent: str) -> bool:
    """Whether a link's token is the table's, in time independent of where they differ."""
    return hmac.compare_digest(stored.encode(), sent.encode())


def players_may_write(table: Table) -> EntryError | None:
    """None when the players may write at this table now, else the refusal saying why."""
    event, rnd = table.round.event, table.round
    if event.entry != Event.Entry.PLAYERS:
        return EntryError("players_entry_off", _("本赛事由裁判录入成绩：本桌链接只能查看"))
    if rnd.is_published:
        return EntryError("round_published", _("本轮成绩已公布：更正由裁判处理"))
    if table.signed_off and not two_sides(table):
        return EntryError("signed_off", _("本桌每位选手都已签字确认成绩：更改请叫裁判"))
    if table.signed_off:
        return EntryError("signed_off", _("双方已签字确认本桌成绩：更改请叫裁判"))
    return None


def _acting_side(table: Table, body: dict[str, Any], device: str = "", phone: Phone | None = None) -> TableSide | None:
    refusal = players_may_write(table)
    if refusal is not None:
        raise refusal
    return replace(side_for_code(table, body.get("code"), phone), device=device)


def _deal(table: Table, board: int) -> Deal:
    check_board(table.round.event, table, board)
    deal = deal_at(table, board)
    if deal is not None:
        deal.table = table
    return deal


def deal_of_body(table: Table, body: dict[str, Any]) -> dict[str, Any]:
    """The deal a player's body carries, as the referee API reads one for the event's game: the
    game's own keys (`Game.deal_keys`) and its "game" (a deal of another game is refused by its
    engine). The code and anything else stay out."""
    keys = ("game", *game_of(table.round.event).deal_keys)
    return {key: body[key] for key in keys if key in body}


def table_deal_put(
    table: Table,
    board: int,
    body: dict[str, Any],
    *,
    expected_version: int | None,
    ip: str | None = None,
    device: str = "",
    phone: Phone | None = None,
) -> tuple[Deal, bool] | None:
    """A side enters or replaces a board's deal (a draft, for the other side to verify)."""
    side = _acting_side(table, body, device, phone)
    existing = _deal(table, board)
    if existing is not None and existing.status == Deal.Status.DISPUTED:
        raise EntryError("disputed", _("这一副有争议，正在等裁判：不能再改"))
    if existing is not None and existing.status == Deal.Status.CONFIRMED and not two_sides(table):
        raise EntryError("confirmed", _("这一副已核对确认：要更改请叫裁判"))
    if existing is not None and existing.status == Deal.Status.CONFIRMED:
        raise EntryError("confirmed", _("这一副双方已确认：要更改请叫裁判"))
    if existing is not None and not_played_mark(existing) is not None:
        raise EntryError("not_played", _("裁判已把这一副记为未打：要更改请叫裁判"))
    deal_json = deal_of_body(table, body)
    if "adjusted" in body:
        raise EntryError("forbidden", _("只有裁判长（组织者）可以给调整分"))
    return deal_save(
        table=table,
        board=board,
        deal_json=deal_json,
        user=None,
        expected_version=expected_version,
        ip=ip,
        existing=existing,
        player=side,
    )


def table_verify(
    table: Table,
    board: int,
    body: dict[str, dict[str, Any] | str],
    *,
    expected_version: int | None,
    ip: str | None = None,
    device: str = "",
    phone: Phone | None = None,
) -> Deal | None:
    side = _acting_side(table, body, device, phone)
    deal = _deal(table, board)
    if deal is None:
        raise EntryError("not_found", _("这一副还没有录入"))
    if deal.entered_side == side.side and deal.status == Deal.Status.DRAFT and not two_sides(table):
        # Where every player plays alone, any other player at the table verifies (docs/organising.md).
        raise EntryError("same_side", _("录入这一副的选手不能确认它：请本桌另一位选手用自己的录入码确认"))
    if refuses_same_phone(table.round.event) and _entered_from(deal, side.device, phone):
        raise EntryError("same_phone", _("本赛事要求用另一部手机确认：请对方用自己的手机和录入码确认"))
    return deal_verify(deal=deal, player=side, expected_version=expected_version, ip=ip)


def refuses_same_phone(event: Event) -> bool:
    """Whether the event refuses a board verified from the phone that entered it (default: no,
    the referees see a flag; docs/security.md)."""
    extra = event.extra if isinstance(event.extra, dict) else {}
    return extra.get("refuse_same_phone") is True


def _entered_from(deal: Deal, device: str, phone: Phone) -> bool:
    """Whether this phone entered or last changed the deal: the phone known for the writer's side
    (its cookie, which the phone cannot choose), or the same phone id as the last write."""
    if phone is not None and phone.known is not None and phone.known == deal.entered_side:
        return True
    last = (
        DealHistory.objects.filter(deal=deal, action__in=(DealHistory.Action.CREATE, DealHistory.Action.CHANGE))
        .order_by("-version", "-id")
        .values_list("device", flat=True)
        .first()
    )
    return bool(device) and device == last


def table_dispute(
    table: Table,
    board: int,
    body: dict[str, dict[str, Any] | str],
    *,
    expected_version: int | None = None,
    ip: str | None = None,
    device: str = "",
    phone: Phone | None = None,
) -> Deal:
    """A side disagrees with a board (draft, or confirmed before both sides signed off). A
    signature one side gave before is withdrawn: the table signs again after the ruling."""
    side = _acting_side(table, body, device, phone)
    with transaction.atomic():
        # Serialised with sign-offs on the table's row: a signature given while this dispute
        # runs waits for it and then sees the disputed board, so no signature survives it.
        _lock_table(table)
        deal = _deal(table, board)
        if deal is None:
            raise EntryError("not_found", _("这一副还没有录入：请先录入，或呼叫裁判"))
        if RefereeCall.objects.filter(
            table=table, board=board, kind=RefereeCall.Kind.DISPUTE, answered_at__isnull=False
        ).exists():
            # A referee has ruled on this board: disputing it again is an appeal (申诉).
            raise EntryError("settled", _("裁判已就这一副作出裁决：如不服，请提出申诉"))
        deal = deal_dispute(deal=deal, player=side, reason=body.get("reason"), expected_version=expected_version, ip=ip)
        Table.objects.filter(pk=table.pk).update(ns_signed_off_at=None, ew_signed_off_at=None, side_signoffs={})
    return deal


def _lock_table(table: Table) -> None:
    """The table's row lock (PostgreSQL `FOR UPDATE`; SQLite's write lock is the transaction's)."""
    Table.objects.select_for_update().filter(pk=table.pk).values_list("pk", flat=True).first()


def boards_needed(table: Table) -> int:
    """How many boards the table's match needs in boards mode: the event's, or fewer for a
    match that ends by itself (升级's target: the boards up to the one that ended it) or that
    the chief arbiter ruled on (the boards it had)."""
    event = table.round.event
    game = game_of(event)
    if not carries_state(game):
        return event.match_length
    stored = [dict(data) for data in table.deals.order_by("sequence").values_list("game_data", flat=True) if data]
    return boards_played_out(game, event_rules(event), stored, event.match_length, table.match_ruling)


def unconfirmed_boards(table: Table) -> list[int]:
    """The boards of the table's match not confirmed yet (the next one to play, in games mode,
    while the match is not over)."""
    event = table.round.event
    deals = list(table.deals.order_by("sequence").values_list("board", "status", "ns_score", "ew_score"))
    waiting = [board for board, status, *_scores in deals if status != Deal.Status.CONFIRMED]
    if event.match_mode == MatchMode.BOARDS:
        have = {board for board, *_rest in deals}
        return sorted(waiting + [b for b in range(1, boards_needed(table) + 1) if b not in have])
    games = game_of(event).match_units([(ns, ew) for _b, _s, ns, ew in deals], event.game_threshold)
    over = len(games) >= event.match_length and games[-1].finished
    return waiting if over else [*waiting, max((b for b, *_rest in deals), default=0) + 1]


def table_sides(table: Table, seated: list[tuple[str, Any]] | None = None) -> list[str]:
    """The sides that sign a table off, in seat order: the game's sides with someone seated
    (华牌, 升级: NS and EW; 蚌埠斗地主: N E S W; 跑胡子: E S W). `seated`: `side_entrants(table)`
    when the caller has it."""
    seated = side_entrants(table) if seated is None else seated
    found = dict.fromkeys(side for side, _entrant in seated)
    return list(found) or list(game_of(table.round.event).sides)


def two_sides(table: Table) -> bool:
    """Whether the table's sides are the two partnerships NS and EW (each has its own column)."""
    return in_partnerships(game_of(table.round.event))


def signed_sides(table: Table, sides: list[str] | None = None) -> dict[str, bool]:
    """{side: whether it has signed the table off} for every side of the table (`sides`: the
    table's, when the caller has them)."""
    if two_sides(table):
        return {"NS": table.ns_signed_off_at is not None, "EW": table.ew_signed_off_at is not None}
    signed = table.side_signoffs if isinstance(table.side_signoffs, dict) else {}
    return {side: side in signed for side in (table_sides(table) if sides is None else sides)}


def table_signoff(table: Table, body: dict[str, dict[str, Any] | str], phone: Phone | None = None) -> TableSide:
    """A side signs off its table's round once every board is confirmed; signing again before the
    others have is no change, and after all have it is `409 signed_off` like every player write.
    `side` (optional: the page sends it) is the side whose view the signer was shown
    (`state.side_view`): a code of another side is refused, so nobody signs another side's
    figures by mistake. In a game of partnerships the table is closed when NS and EW have signed;
    where every player plays alone, when every seated player has (docs/organising.md)."""
    side = _acting_side(table, body, phone=phone)
    shown = body.get("side")
    sides = table_sides(table)
    if shown is not None and shown not in sides:
        raise EntryError("bad_side", _("side 必须是 {sides} 之一"), sides="、".join(sides))
    if shown is not None and shown != side.side and not two_sides(table):
        raise EntryError("other_side", _("这是另一位选手的录入码：请先选自己，看清自己的成绩再签字"))
    if shown is not None and shown != side.side:
        raise EntryError("other_side", _("这是另一方的录入码：请先选本方，看清本方的成绩再签字"))
    with transaction.atomic():
        # The boards are read under the table's row lock, which a dispute takes too: a dispute
        # running now is either seen here (refused) or waits and withdraws this signature.
        _lock_table(table)
        missing = unconfirmed_boards(table)
        if missing:
            raise EntryError(
                "unconfirmed_boards",
                _("还有未确认的副：{boards}"),
                boards="、".join(str(b) for b in missing[:20]),
            )
        if two_sides(table):
            column = "ns_signed_off_at" if side.side == "NS" else "ew_signed_off_at"
            # Conditional: signing twice keeps the first time.
            Table.objects.filter(pk=table.pk, **{f"{column}__isnull": True}).update(**{column: timezone.now()})
        else:
            _sign_alone(table, side.side, sides)
    table.refresh_from_db(fields=["ns_signed_off_at", "ew_signed_off_at", "side_signoffs"])
    return side


def _sign_alone(table: Table, side: str, sides: list[str]) -> None:
    """One player of a game without partnerships signs; the last one closes the table (both
    columns take that moment). The row is locked while read and written: two players signing at
    once both count."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        signed = dict(locked.side_signoffs) if isinstance(locked.side_signoffs, dict) else {}
        if side in signed:
            return  # signing twice keeps the first time
        now = timezone.now()
        signed[side] = now.isoformat()
        changes = {"side_signoffs": signed}
        if all(s in signed for s in sides):
            changes.update(ns_signed_off_at=now, ew_signed_off_at=now)
        Table.objects.filter(pk=table.pk).update(**changes)


def table_call(table: Table, body: dict[str, dict[str, Any] | str]) -> RefereeCall | None:
    """The table asks for a referee (optionally saying why, in a kind of call its game has: 跑胡子's
    players are never offered 华牌's claims): on the referees' queue with the time. A code is
    optional (anyone at the table may call) and never a reason to refuse: a right one names the
    caller on the queue, a wrong one is ignored and not counted against the table, and the
    answer is the same either way, so a call is no way to test codes (table-api.md)."""
    side = None
    if body.get("code"):
        try:
            side = side_for_code(table, body.get("code"), counted=False)
        except EntryError:
            side = None  # a malformed or wrong code: the call goes through without a name
    kind = body.get("kind") or RefereeCall.Kind.OTHER
    if not isinstance(kind, str):
        kind = ""
    check_call_kind(game_of(table.round.event), kind)
    note = checked_text(body.get("note"), Text(_("说明")))
    board = checked_board(body.get("board"))
    already = RefereeCall.objects.filter(table=table, answered_at=None).exclude(kind=RefereeCall.Kind.DISPUTE).first()
    if already is not None:
        return already  # one open call per table: pressing again does not queue the table twice
    return RefereeCall.objects.create(
        table=table, board=board, kind=kind, note=note, entrant=side.entrant if side else None
    )


def table_appeal(table: Table, body: dict[str, Any], phone: Phone | None = None) -> Appeal | None:
    """A side appeals (申诉) a ruling or a result of its table, with its code, within the round's
    correction period (the only write a table link makes after publication)."""
    if table.round.event.entry != Event.Entry.PLAYERS:
        raise EntryError("players_entry_off", _("本赛事由裁判录入成绩：本桌链接只能查看"))
    side = side_for_code(table, body.get("code"), phone)
    with transaction.atomic():
        # Counted under the table's row lock: two appeals sent at once are counted one by one.
        _lock_table(table)
        check_appeal_window(table.round, timezone.now())  # a closed window first: it says more
        _check_appeal_bounds(table, side.entrant, checked_board(body.get("board")))
        return appeal_lodge(table=table, statement=body.get("statement"), board=body.get("board"), entrant=side.entrant)


def _check_appeal_bounds(table: Table, entrant: Entrant, board: int | None) -> None:
    """One open appeal per board and side; `APPEALS_PER_SIDE_AND_ROUND` per side and round."""
    theirs = Appeal.objects.filter(round_id=table.round_id, entrant=entrant, channel="table link")
    if theirs.filter(board=board, status=Appeal.Status.OPEN).exists():
        raise EntryError("appeal_open", _("这一副本方已有一项申诉在等裁决"))
    if theirs.count() >= APPEALS_PER_SIDE_AND_ROUND:
        raise EntryError(
            "too_many_appeals",
            _("本轮每方最多通过本桌链接申诉 {limit} 次：更多请找裁判"),
            limit=APPEALS_PER_SIDE_AND_ROUND,
        )


def call_answer(call: RefereeCall, user: User) -> None:
    """A referee has come to the table."""
    RefereeCall.objects.filter(pk=call.pk, answered_at=None).update(answered_at=timezone.now(), answered_by=user)
