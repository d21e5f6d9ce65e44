"""What every write of a deal does, whoever writes it (`services`, `blind`, `verification`,
`not_played_deal`): check who may write and that the round has not moved since, check the text
that comes with it, score it with the event's game, update the row only at the version the writer
saw (a conditional UPDATE, so two writers holding the same version cannot both win), and append
the change to `DealHistory`, announcing it to the caches. Penalties ruled on calls before the
deal existed join it here too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.utils import timezone

from scoring.cache import announce_results_changed
from scoring.engine.not_played import MARK_KEY, is_awaiting
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import insert, round_status_for_write
from scoring.entry.selectors import placed_deal, snapshot
from scoring.events.permissions import may_enter
from scoring.games import game_of
from scoring.games.refusals import DealError, Text, _
from scoring.games.stored import (
    carries_state,
    event_rules,
    score_stored,
)
from scoring.models import Appeal, Deal, DealHistory, Irregularity, RefereeCall, Round

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Table
    from scoring.models.DealHistory import Action

# Control characters, and lone surrogates (JSON's "\\ud800"), which no database encodes.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
UNREAD = object()  # a deal not looked up yet (None means looked up and absent)


def last_change(deal: Deal) -> tuple[User | None, str]:
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


def stale(deal: Deal) -> EntryError:
    """Someone else's newer version stands: say who made it and what they did."""
    who, what = last_change(deal)
    return EntryError(
        "stale_version",
        _("你打开页面后，{who}{what}了这一副（现为第 {version} 版）；你的录入没有保存，请核对后再改"),
        who=str(who) if who else Text(_("他人")),
        what=DealHistory.Action(what).label if what in DealHistory.Action.values else what,
        version=deal.version,
    )


def check_may_write(user: User, table: Table, reason: str) -> None:
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


def check_settles_dispute(deal: Deal, reason: str) -> None:
    """A referee settling a disputed deal (changing or confirming it) says why."""
    if deal.status == Deal.Status.DISPUTED and not reason.strip():
        raise EntryError("reason_required", _("这一副有争议：裁决必须写明理由"))


def check_round_unchanged(table: Table) -> None:
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


def check_not_awaiting(deal: Deal) -> None:
    if is_awaiting(not_played_mark(deal)):
        raise EntryError("awaiting_adjusted", _("这一副未打，等裁判长给调整分：给出之前不能确认"))


REASON_LIMIT = 500
REASON = Text(_("理由"))
BOARD_LIMIT = 10_000


def checked_board(board: bool | int | None) -> int:
    """An optional board number as sent (a call, an appeal): None, or an integer 1 … BOARD_LIMIT."""
    if board is not None and (not isinstance(board, int) or isinstance(board, bool) or not 1 <= board <= BOARD_LIMIT):
        raise EntryError("bad_board", _("副号无效"))
    return board


def irregularity_kind(call: RefereeCall) -> str:
    """The irregularity a call's penalty is recorded as (the kinds a call has beyond them: other)."""
    return call.kind if call.kind in Irregularity.Kind.values else Irregularity.Kind.OTHER


def checked_text(value: str | None, label: Text) -> str | None:
    """A reason as typed: text of at most REASON_LIMIT characters, without control characters
    other than line breaks (PostgreSQL refuses NUL; nothing else belongs in a ruling)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > REASON_LIMIT or CONTROL_CHARACTERS.search(value):
        raise EntryError(
            "bad_reason",
            _("{what}必须是不超过 {limit} 个字的文字"),
            what=label,
            limit=REASON_LIMIT,
        )
    return value.strip()


def history_row(
    deal: Deal,
    *,
    table: Table,
    action: Action,
    user: User | None,
    before: dict[str, Any] | None,
    reason: str = "",
    ip: str | None = None,
    player: Any = None,
    call: RefereeCall | None = None,
    appeal: Appeal | None = None,
) -> DealHistory:
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


def record(deal: Deal, *, table: Table, **history: Any) -> None:
    """Append to the history and announce the change (inside the writing transaction). A
    change to a published board that has an undecided appeal is that appeal's correction (the
    normal path of `scoring.rulings.appeals`): the row names it."""
    announce_results_changed(table.round.event, public=table.round.is_published, shard=table.pk)
    if table.round.is_published and history.get("action") != DealHistory.Action.CONFIRM and "appeal" not in history:
        history["appeal"] = open_appeal(table, deal.board)
    insert(history_row(deal, table=table, **history))


def open_appeal(table: Table, board: int) -> Appeal | None:
    """The latest undecided appeal about `board` at `table`, or None."""
    return Appeal.objects.filter(table=table, board=board, decided_at=None).order_by("-filed_at", "-id").first()


def adjusting_call(table: Table, board: int) -> RefereeCall | None:
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


def score_at_table(
    table: Table, deal_json: dict[str, Any], adjusted: dict[str, int] | None = None, board: int | None = None
) -> dict[str, Any] | None:
    """The deal scored by the event's game as it will be stored, with what players' statistics
    need of it (where the game keeps anything). A game that carries a state from deal to deal
    (升级's levels) scores board `board` at its place in the table's match (`placed_deal`)."""
    event = table.round.event
    game, rules = game_of(event), event_rules(event)
    if not game.takes_penalties and isinstance(deal_json, dict) and deal_json.get("penalties"):
        # The law ignores keys it does not define, so the engine would score the deal and drop the
        # penalty: a referee who typed one is told, and nothing is written.
        raise EntryError("no_penalties", _("{game} 的规则没有罚分：请由裁判长给调整分"), game=game.name)
    try:
        if board is not None and carries_state(game):
            deal_json = placed_deal(table, board, game, rules, deal_json)
        return score_stored(game, rules, deal_json, adjusted)
    except DealError as error:
        raise EntryError(error.code, error.template, **error.params) from None


def apply_scored(deal: Deal, table: Table, scored: dict[str, Any]) -> None:
    deal.record_scored(scored, game_of(table.round.event))


def conditional_update(deal: Deal, expected_version: int, with_extra: bool = False) -> None:
    """Write `deal` only if nobody has moved it past `expected_version` (its `extra` too, when
    a write changes it: a board's not-played mark)."""
    columns = (*Deal.RESULT_COLUMNS, "status", "entered_by", "entered_side", "confirmed_by")
    columns += ("extra",) if with_extra else ()
    fields = {name: getattr(deal, name) for name in columns}
    updated = Deal.objects.filter(pk=deal.pk, version=expected_version).update(version=expected_version + 1, **fields)
    if updated != 1:
        raise stale(Deal.objects.get(pk=deal.pk))
    deal.version = expected_version + 1


def start_round(rnd: Round) -> None:
    if rnd.status == Round.Status.SCHEDULED:
        Round.objects.filter(pk=rnd.pk, status=Round.Status.SCHEDULED).update(status=Round.Status.IN_PLAY)
        rnd.status = Round.Status.IN_PLAY


def answer_dispute(deal: Deal, user: User) -> None:
    """The referee's ruling answers the table's dispute call of this board."""
    RefereeCall.objects.filter(
        table_id=deal.table_id, board=deal.board, kind=RefereeCall.Kind.DISPUTE, answered_at=None
    ).update(answered_at=timezone.now(), answered_by=user)


def not_played_mark(deal: Deal) -> dict[str, Any] | None:
    """The deal's not-played mark (`scoring.engine.not_played`), or None for a board played."""
    extra = deal.extra if isinstance(deal.extra, dict) else {}
    mark = extra.get(MARK_KEY)
    return mark if isinstance(mark, dict) else None


def pending_penalties(table: Table, board: int) -> tuple[dict[str, int], list[Any]]:
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


def attach_rulings(deal: Deal, calls: list[RefereeCall]) -> None:
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
