"""Closing an event: its standings become final (`Event.finished_at`), and reopening it.

An event can be closed once every round is official and, when the organiser planned a number
of rounds, that many have been played; a closed event pairs no further round. Reopening (a
mistaken close, a late appeal) is the organiser's, with a reason that stays in the event's
record (`Event.extra["closing_history"]`): the papers then say 正式成绩 again, not 最终成绩.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from scoring.backups.services import after_milestone
from scoring.cache import announce_results_changed
from scoring.games.refusals import Refusal, Text, _
from scoring.models import Event, Round

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

REASON_LIMIT = 500


class ClosingError(Refusal):
    def __init__(self, template: str, code: str = "closing_refused", **params: int) -> None:
        super().__init__(code, template, **params)


def closing_state(event: Event) -> dict[str, Any]:
    """Plain data for the console: rounds played, planned, whether the event may be closed and why not."""
    statuses = list(Round.objects.filter(event=event).order_by("number").values_list("status", flat=True))
    blocking = None
    if not statuses:
        blocking = Text(_("还没有任何轮次"))
    elif any(status != Round.Status.OFFICIAL for status in statuses):
        blocking = Text(_("所有轮次都转为正式成绩后才能结束赛事"))
    elif event.planned_rounds and len(statuses) < event.planned_rounds:
        blocking = Text(_("计划 {planned} 轮，已赛 {played} 轮"), planned=event.planned_rounds, played=len(statuses))
    return {
        "played": len(statuses),
        "planned": event.planned_rounds,
        "last_round_paired": bool(event.planned_rounds) and len(statuses) >= event.planned_rounds,
        "finished": event.is_finished,
        "blocking": blocking,
    }


@transaction.atomic
def event_finish(event: Event, *, user: User) -> Event:
    stored = Event.objects.select_for_update().get(pk=event.pk)
    if stored.is_finished:
        raise ClosingError(_("赛事已经结束"), code="already_finished")
    state = closing_state(stored)
    if state["blocking"]:
        raise ClosingError(state["blocking"].template, code="not_ready", **state["blocking"].params)
    stored.finished_at = timezone.now()
    _note(stored, "finished", user, "")
    stored.save(update_fields=["finished_at", "extra"])
    announce_results_changed(stored)
    transaction.on_commit(lambda: after_milestone("close"))
    return stored


@transaction.atomic
def event_reopen(event: Event, *, user: User, reason: str) -> Event:
    reason = (reason or "").strip()
    if not reason or len(reason) > REASON_LIMIT:
        raise ClosingError(_("重新开放赛事须写明理由（1–500 字）"), code="reason_required")
    stored = Event.objects.select_for_update().get(pk=event.pk)
    if not stored.is_finished:
        raise ClosingError(_("赛事尚未结束"), code="not_finished")
    stored.finished_at = None
    _note(stored, "reopened", user, reason)
    stored.save(update_fields=["finished_at", "extra"])
    announce_results_changed(stored)
    return stored


def _note(event: Event, action: str, user: User, reason: str) -> None:
    history = list(event.extra.get("closing_history", []))
    history.append(
        {"action": action, "by": getattr(user, "username", ""), "at": timezone.now().isoformat(), "reason": reason}
    )
    event.extra = {**event.extra, "closing_history": history}
