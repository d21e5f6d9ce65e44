"""Creating and changing events from the organiser's pages.

The creator of an event becomes its organiser. Once a deal is entered, only what
cannot change a result or a ranking may still change (name, dates, venue, the
correction period, double entry, 节 per round); the entry mode changes between rounds,
not while one is in play."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import ProtectedError

from scoring.cache import announce_results_changed
from scoring.engine.names import pinyin_sort_key
from scoring.games.refusals import Refusal, _
from scoring.models import Deal, Event, EventRole, Round

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Fields that decide scores, 场分 or ranks: frozen once the first deal is entered.
RESULT_FIELDS = (
    "game",
    "ruleset",
    "options",
    "game_threshold",
    "kind",
    "match_mode",
    "match_length",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
)
SLUG_LIMIT = 50


class EventError(Refusal):
    def __init__(self, template: str, code: str = "event_refused", **params: int | str) -> None:
        super().__init__(code, template, **params)


def may_create_events(user: User) -> bool:
    """Superusers, and the organisers they named (`scoring.add_event`)."""
    return bool(user and user.is_authenticated and user.has_perm("scoring.add_event"))


def has_results(event: Event) -> bool:
    return Deal.objects.filter(table__round__event=event).exists()


def slug_proposal(name: str, taken: set[str] | None = None) -> str:
    """An event's web address from its name: `2026 太原华牌公开赛` → `2026-tai-yuan-hua-pai-gong-kai-sai`
    (pinyin, lower-case ASCII, at most 50 characters), made unique with -2, -3…"""
    text = unicodedata.normalize("NFKC", name or "")
    words = []
    for chunk in re.findall(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]+", text):
        if re.fullmatch(r"[A-Za-z0-9]+", chunk):
            words.append(chunk.lower())
        else:
            words.extend(pinyin_sort_key(chunk).split())
    base = "-".join(w for w in (re.sub(r"[^a-z0-9]", "", w) for w in words) if w)[:SLUG_LIMIT].strip("-")
    base = base or "event"
    taken = set(Event.objects.values_list("slug", flat=True)) if taken is None else taken
    slug, n = base, 1
    while slug in taken:
        n += 1
        suffix = f"-{n}"
        slug = base[: SLUG_LIMIT - len(suffix)].rstrip("-") + suffix
    return slug


@transaction.atomic
def event_create(event: Event, *, user: User) -> Event:
    """Save a new (validated) event and make its creator its organiser."""
    if not may_create_events(user):
        raise EventError(_("只有组织者账号可以创建赛事"), code="forbidden")
    event.save()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


@transaction.atomic
def event_update(event: Event, *, changed: set[str]) -> Event:
    """Save an edited (validated) event; refuses a change to a result field once deals exist."""
    stored = Event.objects.select_for_update().get(pk=event.pk)
    frozen = [f for f in changed if f in RESULT_FIELDS]
    if frozen and has_results(stored):
        raise EventError(_("已有成绩，不能再改 {fields}"), code="has_results", fields=", ".join(frozen))
    if "entry" in changed and event.entry != stored.entry:
        # Between rounds only: mid-round, players' drafts would wait for a verification nobody may
        # give, or referees' for one the players were never meant to give. Nothing needs it:
        # referees keep every power in both modes.
        playing = stored.rounds.filter(status=Round.Status.IN_PLAY).order_by("number").first()
        if playing is not None:
            raise EventError(
                _("第 {round} 轮正在进行：录入方式只能在两轮之间改（两种方式下裁判都能录入）"),
                code="round_in_play",
                round=playing.number,
            )
    event.save()
    announce_results_changed(event)
    return event


@transaction.atomic
def event_delete(event: Event) -> None:
    """Delete an event made by mistake. An event with a deal is kept: its deals' history is
    append-only, and its results are someone's. Checked again under the event's lock."""
    stored = Event.objects.select_for_update().filter(pk=event.pk).first()
    if stored is None:
        return
    if has_results(stored):
        raise EventError(_("赛事已有成绩，不能删除"), code="has_results")
    # Its matches and tables hold its entrants and players (protected), so its rounds go first.
    try:
        stored.rounds.all().delete()
        stored.delete()
    except ProtectedError:
        raise EventError(_("赛事的记录仍被引用，不能删除"), code="protected") from None


def _add_event_permission() -> Permission:
    return Permission.objects.get(codename="add_event", content_type__app_label="scoring")


def grant_event_creation(user: User) -> None:
    """A superuser names an organiser: the account may create events (and organises those)."""
    user.user_permissions.add(_add_event_permission())


def revoke_event_creation(user: User) -> None:
    """The account creates no more events; the events it organises stay its own."""
    user.user_permissions.remove(_add_event_permission())
