"""The director's live grid of a round: each table in one word — not started, n of m boards,
awaiting verification, disputed, referee called, signed off — with the time of its last
action and whether it is behind the room. Plain data, a fixed number of queries whatever
the number of tables (1,000 tables: one pass over the round's deals and history)."""

from collections import Counter
from datetime import timedelta

from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Deal, DealHistory, RefereeCall, Table, WrongCode

# A table is late when it has confirmed this many boards fewer than the median table of the room.
LATE_BEHIND_MEDIAN = 2

STATES = {
    "referee_called": _("呼叫裁判"),
    "disputed": _("有争议"),
    "awaiting_verification": _("等核对"),
    "in_progress": _("进行中"),
    "not_started": _("未开始"),
    "signed_off": _("已签字"),
    "complete": _("已全部确认"),
}


def grid_stamp(rnd):
    """Changes whenever anything the grid shows changes (the page's ETag): the newest history
    row, call and sign-off of the round."""
    history = DealHistory.objects.filter(table__round=rnd).aggregate(last=Max("id"))["last"]
    calls = RefereeCall.objects.filter(table__round=rnd).aggregate(
        last=Max("id"), answered=Count("id", filter=Q(answered_at__isnull=False))
    )
    signed = Table.objects.filter(round=rnd).aggregate(
        ns=Count("id", filter=Q(ns_signed_off_at__isnull=False)),
        ew=Count("id", filter=Q(ew_signed_off_at__isnull=False)),
    )
    locks = WrongCode.objects.filter(table__round=rnd).aggregate(last=Max("id"), count=Count("id"))
    parts = (rnd.status, history, calls["last"], calls["answered"], signed["ns"], signed["ew"], *locks.values())
    return "-".join(str(part) for part in parts)


def round_grid(rnd, boards_per_table):
    """{table id: cell} and the counts per state. `boards_per_table` is the match's length in
    boards (games mode: None, the boards played are counted)."""
    per_table = {}
    for table_id, status, count in (
        Deal.objects.filter(table__round=rnd).values_list("table_id", "status").annotate(n=Count("id")).order_by()
    ):
        per_table.setdefault(table_id, Counter())[status] += count
    last_action = dict(
        DealHistory.objects.filter(table__round=rnd).values_list("table_id").annotate(at=Max("at")).order_by()
    )
    open_calls = {}
    for call in RefereeCall.objects.filter(table__round=rnd, answered_at=None).order_by("at"):
        open_calls.setdefault(call.table_id, call)
        last_action[call.table_id] = max(last_action.get(call.table_id, call.at), call.at)
    locked = set(Table.objects.filter(round=rnd, locked_until__gt=timezone.now()).values_list("id", flat=True))
    tables = list(Table.objects.filter(round=rnd).values_list("id", "ns_signed_off_at", "ew_signed_off_at"))
    confirmed = sorted(per_table.get(t, Counter())[Deal.Status.CONFIRMED] for t, *_ in tables)
    median = confirmed[len(confirmed) // 2] if confirmed else 0
    now = timezone.now()
    cells, counts = {}, Counter()
    for table_id, ns_signed, ew_signed in tables:
        states = per_table.get(table_id, Counter())
        entered = sum(states.values())
        done = states[Deal.Status.CONFIRMED]
        if table_id in open_calls and open_calls[table_id].kind != RefereeCall.Kind.DISPUTE:
            state = "referee_called"
        elif states[Deal.Status.DISPUTED]:
            state = "disputed"
        elif ns_signed and ew_signed:
            state = "signed_off"
        elif states[Deal.Status.DRAFT]:
            state = "awaiting_verification"
        elif entered == 0:
            state = "not_started"
        elif boards_per_table and done >= boards_per_table:
            state = "complete"
        else:
            state = "in_progress"
        at = last_action.get(table_id)
        finished = state in ("signed_off", "complete")
        cells[table_id] = {
            "state": state,
            "label": STATES[state],
            "confirmed": done,
            "boards": boards_per_table,
            "last_at": at,
            "minutes_since": int((now - at) / timedelta(minutes=1)) if at else None,
            "late": not finished and median - done >= LATE_BEHIND_MEDIAN,
            "call": open_calls.get(table_id),
            "locked": table_id in locked,
            "signed": {"NS": ns_signed is not None, "EW": ew_signed is not None},
        }
        counts[state] += 1
        counts["late"] += cells[table_id]["late"]
    return cells, counts


def open_calls(rnd):
    """The referees' queue: unanswered calls and disputes of the round, oldest first."""
    return list(
        RefereeCall.objects.filter(table__round=rnd, answered_at=None)
        .select_related("table", "entrant")
        .order_by("at", "id")
    )
