"""Plausibility flags for the referees: not refusals — a deal can be both right and
odd — but boards worth a look when the players score themselves.

- `holders_differ`: boards played at several tables from the same pre-dealt cards (a team
  match's two tables) disagree on who held ♠Q, ♦J, ♣10 or ♥A;
- `grand_slam` / `all_hearts`: the engine scored a 满贯 or a 全红;
- `quick_verify`: verified within seconds of being entered or changed through the link;
- `same_phone`: verified from the phone that entered it.

Flags are computed from the stored deals and their history, so they follow every change; a
referee clears one with a word (`FlagCleared`), which stays in the record.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.entry.errors import EntryError
from scoring.games.huapai.player_stats import STORED_FIELDS
from scoring.games.refusals import _ as _mark
from scoring.models import Deal, DealHistory, Event, FlagCleared
from scoring.rounds.publication import holder_disagreements_by_board

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from django.contrib.auth.models import User
    from django.db.models import QuerySet

    from scoring.models import Round, Table

QUICK = timedelta(seconds=10)
KINDS = {
    "holders_differ": _("持牌人与同副其他桌不一致"),
    "grand_slam": _("满贯"),
    "all_hearts": _("全红"),
    "quick_verify": _("录入后数秒内即被确认"),
    "same_phone": _("同一手机录入并确认"),
}
ALL_HEARTS, GRAND_SLAM = STORED_FIELDS.index("all_hearts"), STORED_FIELDS.index("grand_slams")


def round_flags(
    rnd: Round,
    table_ids: list[int] | None = None,
    *,
    stats: list[tuple[int, int, Any]] | None = None,
    link_history: list[tuple[Any, ...]] | None = None,
) -> dict[tuple[int, int], list[str]]:
    """{(table id, board): [kind, …]} of the round's boards (`table_ids`: of these tables only),
    flags already cleared left out. Plain rows, no model instances: the referees' grid asks this
    for every table whose state moved, passing what it read already — `stats`, the deals'
    `(table id, board, seat_stats)`, and `link_history`, the table link's history rows
    `(table id, board, action, at, device)` in order."""
    found = {}
    table_ids = None if table_ids is None else set(table_ids)

    def flag(table_id: int, board: int, kind: str) -> None:
        found.setdefault((table_id, board), []).append(kind)

    scope = Q(table__round=rnd) if table_ids is None else Q(table_id__in=table_ids)
    if stats is None:
        stats = Deal.objects.filter(scope).values_list("table_id", "board", "seat_stats")
    if link_history is None:
        link_history = (
            DealHistory.objects.filter(scope, channel=DealHistory.TABLE_LINK)
            .order_by("at", "id")
            .values_list("table_id", "board", "action", "at", "device")
        )
    for table_id, board, seat_stats in stats:
        figures = (seat_stats or {}).values()
        if any(f[GRAND_SLAM] for f in figures):
            flag(table_id, board, "grand_slam")
        elif any(f[ALL_HEARTS] for f in figures):
            flag(table_id, board, "all_hearts")
    if rnd.event.kind == Event.Kind.TEAMS:
        for table_id, board in holder_disagreements_by_board(rnd, table_ids):
            if table_ids is None or table_id in table_ids:
                flag(table_id, board, "holders_differ")
    _history_flags(link_history, flag)
    cleared = set(FlagCleared.objects.filter(scope).values_list("table_id", "board", "kind"))
    return {
        place: kinds
        for place, kinds in ((p, [k for k in ks if (*p, k) not in cleared]) for p, ks in found.items())
        if kinds
    }


def _history_flags(rows: QuerySet[DealHistory] | list[tuple[Any, ...]], flag: Callable[..., Any]) -> None:
    """A confirmation through the link seconds after the entry it confirms, or from its phone."""
    last_write = {}
    for table_id, board, action, at, device in rows:
        place = (table_id, board)
        if action in (DealHistory.Action.CREATE, DealHistory.Action.CHANGE):
            last_write[place] = (at, device)
        elif action == DealHistory.Action.CONFIRM and place in last_write:
            written_at, written_by = last_write[place]
            if at - written_at < QUICK:
                flag(table_id, board, "quick_verify")
            if device and device == written_by:
                flag(table_id, board, "same_phone")


def flag_clear(*, table: Table, board: int, kind: str, word: str, user: User) -> None:
    """A referee has looked: the flag goes, the word stays."""
    word = (word or "").strip()
    if kind not in KINDS:
        raise EntryError("bad_kind", _mark("没有这种提示"))
    if not word or len(word) > 200:
        raise EntryError("bad_reason", _mark("请用一句话（不超过 200 字）说明看过的结果"))
    with transaction.atomic():
        FlagCleared.objects.get_or_create(table=table, board=board, kind=kind, defaults={"word": word, "user": user})
