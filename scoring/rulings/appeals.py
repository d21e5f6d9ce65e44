"""Appeals (申诉): a side — a pair, a team, or a player at a table of individuals — appeals a
ruling or a result of a published round within its correction period, through its table link or
a referee; the appeals committee decides — the ruling upheld, the appeal dismissed, or the ruling
changed (the change itself made through the normal correction path, a deal changed with a reason
after the appeal was lodged) — and the deposit, if the event asks one, is returned or forfeited.
Open appeals keep the round from becoming official (`rounds.publication.round_make_official`);
decisions are public.

The time to appeal is the event's correction period (`Event.correction_minutes` after the
round's publication): the period in which results may still change is the one in which they
may be appealed (docs/refereeing.md).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Count, Min, Q
from django.utils import timezone

from scoring.cache import announce_results_changed
from scoring.entry.errors import EntryError
from scoring.entry.versioned import checked_board, checked_text
from scoring.events.permissions import is_official, is_organiser
from scoring.games import game_of
from scoring.games.refusals import Text, _
from scoring.games.stored import plays_alone
from scoring.models import Appeal, DealHistory, Entrant, Round, Table, with_members
from scoring.table_entry.codes import side_entrants

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Event, RefereeCall
    from scoring.models.Appeal import Deposit, Status


def appeal_window_ends(rnd: Round) -> datetime | None:
    """When appeals against this round close (None: the round is not open to appeals)."""
    if rnd.status != Round.Status.PROVISIONAL or rnd.published_at is None:
        return None
    return rnd.published_at + timedelta(minutes=rnd.event.correction_minutes)


def _check_window(rnd: Round, now: datetime) -> None:
    ends = appeal_window_ends(rnd)
    if ends is None:
        if rnd.status == Round.Status.OFFICIAL:
            raise EntryError("appeal_closed", _("本轮已是正式成绩，不能再申诉"))
        raise EntryError("appeal_closed", _("本轮成绩公布后才能申诉"))
    if now > ends:
        minutes = rnd.event.correction_minutes
        raise EntryError("appeal_closed", _("申诉期已过（公布后 {minutes} 分钟内）"), minutes=minutes)


def check_appeal_window(rnd: Round, now: datetime) -> None:
    """`appeal_closed` unless `rnd` is within its correction period at `now`."""
    _check_window(rnd, now)


def appellants(table: Table) -> list:
    """Who may appeal at `table`: every entrant seated there by the game's sides — the two
    pairs or teams, or each player where the event is of individuals (跑胡子's three, 蚌埠斗地主's
    four, a 华牌 individual event's four), as the table link finds them (`side_entrants`)."""
    return [entrant for _side, entrant in side_entrants(table)]


def round_appellants(rnd: Round, table_number: int | None = None) -> list[tuple[int, list[tuple[str, str]]]]:
    """For the referees' form: each table of the round (or the one numbered) with who may appeal
    there, `(entrant code, "seat or side, code and name")` in the game's seat order — "NS 12 张三、李四"
    at a pairs table, "E p01 张三" at a 跑胡子 table (no North). One query for the entrants."""
    game = game_of(rnd.event)
    tables = Table.objects.filter(round=rnd).order_by("number")
    if table_number is not None:
        tables = tables.filter(number=table_number)
    entrants = {e.pk: e for e in Entrant.objects.filter(event=rnd.event).prefetch_related(with_members())}
    by_player = {m.player_id: e for e in entrants.values() for m in e.memberships.all()}
    found = []
    for table in tables:
        if table.ns_entrant_id or table.ew_entrant_id:
            pairs = (("NS", table.ns_entrant_id), ("EW", table.ew_entrant_id))
            seated = [(side, entrants.get(pk)) for side, pk in pairs]
        else:
            chairs = {"N": table.north_id, "E": table.east_id, "S": table.south_id, "W": table.west_id}
            seated = [(seat, by_player.get(chairs[seat])) for seat in game.seats]
        found.append(
            (table.number, [(e.code, f"{where} {e.code} {e.display_name}") for where, e in seated if e is not None])
        )
    return found


def by_players(table: Table) -> bool:
    """Whether the table's appellants are players, not sides: a game where everyone plays alone,
    or an event of individuals (a 华牌 individual event's partners are partners for a deal only).
    Pages and refusals then say 选手, never 方."""
    return plays_alone(game_of(table.round.event)) or not (table.ns_entrant_id or table.ew_entrant_id)


def appeal_lodge(
    *,
    table: Table,
    statement: str | None,
    board: bool | int | None = None,
    entrant: Entrant | None = None,
    user: User | None = None,
    call: RefereeCall | None = None,
    now: Any = None,
) -> Appeal | None:
    """Lodge an appeal for an entrant seated at `table` (`appellants`): `entrant` through the
    table link (its code checked by the caller), or a referee (`user`) on behalf of `entrant`."""
    rnd, event = table.round, table.round.event
    if user is not None and not is_official(user, event):
        raise EntryError("forbidden", _("你不是本赛事的裁判或组织者"))
    _check_window(rnd, now or timezone.now())
    statement = checked_text(statement, Text(_("申诉内容")))
    if not statement:
        raise EntryError("reason_required", _("请写明申诉的理由"))
    if entrant is None or entrant.pk not in {e.pk for e in appellants(table)}:
        if by_players(table):
            raise EntryError("bad_side", _("请指定本桌提出申诉的选手"))
        raise EntryError("bad_side", _("请指定本桌提出申诉的一方"))
    board = checked_board(board)
    if call is not None and call.table_id != table.pk:
        raise EntryError("bad_call", _("这项裁决不是本桌的"))
    deal = table.deals.filter(board=board).first() if board else None
    return Appeal.objects.create(
        event=event,
        round=rnd,
        table=table,
        board=board,
        deal=deal,
        call=call,
        entrant=entrant,
        channel="referee" if user is not None else "table link",
        lodged_by=user,
        filed_by=entrant.code,
        statement=statement,
        deposit=event.appeal_deposit,
        deadline=appeal_window_ends(rnd),
    )


def appeal_decide(
    *, appeal: Appeal, user: User, status: Status | str, decision: str, deposit_outcome: Deposit | str = ""
) -> Appeal:
    """The committee's decision, recorded by an organiser, once."""
    event = appeal.event
    if not is_organiser(user, event):
        raise EntryError("forbidden", _("只有组织者（裁判长）可以记录申诉委员会的决定"))
    if appeal.decided_at is not None or Appeal.objects.filter(pk=appeal.pk).exclude(decided_at=None).exists():
        raise EntryError("already_decided", _("这件申诉已经有决定"))
    if status not in (Appeal.Status.UPHELD, Appeal.Status.DISMISSED, Appeal.Status.CHANGED):
        raise EntryError("bad_outcome", _("请选择决定：维持原裁决、驳回申诉或改变裁决"))
    decision = checked_text(decision, Text(_("决定")))
    if not decision:
        raise EntryError("reason_required", _("决定要写明理由"))
    if appeal.deposit and deposit_outcome not in Appeal.Deposit.values:
        raise EntryError("bad_deposit", _("请写明保证金退还还是没收"))
    if not appeal.deposit:
        deposit_outcome = ""
    if status == Appeal.Status.CHANGED and not _changed_since(appeal):
        raise EntryError(
            "change_first",
            _("改变裁决：请先在这一副的录入页更正成绩（理由写明申诉），再记录决定"),
        )
    with transaction.atomic():
        updated = Appeal.objects.filter(pk=appeal.pk, decided_at=None).update(
            status=status,
            decision=decision,
            deposit_outcome=deposit_outcome,
            committee=event.appeals_committee,
            decided_by=user,
            decided_at=timezone.now(),
        )
        if not updated:
            raise EntryError("already_decided", _("这件申诉已经有决定"))
        announce_results_changed(event, public=appeal.round is not None and appeal.round.is_published)
    appeal.refresh_from_db()
    return appeal


def _changed_since(appeal: Appeal) -> bool:
    """The board's result was changed after the appeal was lodged (the correction path)."""
    if appeal.table_id is None or appeal.board is None:
        return False
    return (
        DealHistory.objects.filter(table_id=appeal.table_id, board=appeal.board, at__gt=appeal.filed_at)
        .exclude(action=DealHistory.Action.CONFIRM)
        .exists()
    )


# Appeals a side lodges through the table link in one round (a referee lodging one for a side is
# not counted): enough for every real grievance of a round, few enough that a flood is a line.
APPEALS_PER_SIDE_AND_ROUND = 3
FLOOD_DECISION = "同一方本轮通过本桌链接的申诉达到上限，一并驳回"


def appeal_floods(rnd: Round) -> list[dict]:
    """Sides that reached the table link's limit of appeals in `rnd` with some still open: one
    line each on the appeals page, [{"entrant", "table", "open", "since"}], oldest first."""
    rows = (
        Appeal.objects.filter(round=rnd, channel="table link", entrant__isnull=False)
        .values("entrant_id")
        .annotate(lodged=Count("id"), open=Count("id", filter=Q(decided_at=None)), since=Min("filed_at"))
        .filter(lodged__gte=APPEALS_PER_SIDE_AND_ROUND, open__gt=0)
        .order_by("since")
    )
    entrants = {e.pk: e for e in Entrant.objects.filter(pk__in=[row["entrant_id"] for row in rows])}
    tables = dict(Appeal.objects.filter(round=rnd, entrant_id__in=entrants).values_list("entrant_id", "table__number"))
    return [
        {"entrant": entrants[row["entrant_id"]], "table": tables.get(row["entrant_id"]), "open": row["open"],
         "since": row["since"]}
        for row in rows
    ]  # fmt: skip


def appeals_dismiss_flood(*, rnd: Round, entrant: Entrant, user: User) -> int:
    """An organiser dismisses, in one action, every open appeal a side lodged through the table
    link in `rnd` (a deposit, if any, is returned: a flood is not a judgement on its money).
    Returns how many were dismissed."""
    if not is_organiser(user, rnd.event):
        raise EntryError("forbidden", _("只有组织者（裁判长）可以记录申诉委员会的决定"))
    dismissed = 0
    with transaction.atomic():
        for appeal in Appeal.objects.select_related("event", "round").filter(
            round=rnd, entrant=entrant, channel="table link", decided_at=None
        ):
            appeal_decide(
                appeal=appeal,
                user=user,
                status=Appeal.Status.DISMISSED,
                decision=FLOOD_DECISION,
                deposit_outcome=Appeal.Deposit.RETURNED,
            )
            dismissed += 1
    return dismissed


def open_appeals(rnd: Round) -> Any:
    return Appeal.objects.filter(round=rnd, decided_at=None)


def round_appeals(rnd: Round) -> list[Appeal]:
    return list(
        Appeal.objects.filter(round=rnd).select_related("table", "entrant", "call", "decided_by").order_by("-filed_at")
    )


def public_appeals(event: Event) -> list[Appeal]:
    """Decided appeals of the published rounds, with the ruling they were about."""
    return list(
        Appeal.objects.public()
        .filter(event=event)
        .select_related("round", "table", "entrant", "call")
        .prefetch_related("changes")
        .order_by("round__number", "table__number", "board", "id")
    )
