"""An event's staff, managed by its organisers: referee and co-organiser accounts,
passwords, roles, and who did what. Superusers name the organisers who may create events."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy

from scoring.events.setup import grant_event_creation
from scoring.games.refusals import Refusal, _
from scoring.models import ApiToken, DealHistory, Event, EventRole, PairingLog, StaffAccount

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

# What the activity lists call each step (result changes: DealHistory's own labels).
ACTION_LABELS = {
    **dict(DealHistory.Action.choices),
    "pair": gettext_lazy("编排"),
    "repair": gettext_lazy("重新编排"),
    "swap": gettext_lazy("调换"),
    "release_draw": gettext_lazy("公布对阵表"),
    "publish": gettext_lazy("临时公布"),
    "official": gettext_lazy("转为正式成绩"),
}


def action_label(action: str) -> Any:
    key = action.split(":")[0]
    return ACTION_LABELS.get(key, key)


class StaffError(Refusal):
    def __init__(self, template: str, code: str = "staff_refused", **params: str) -> None:
        super().__init__(code, template, **params)


def checked_password(password: str, user: User | None = None) -> None:
    try:
        validate_password(password, user)
    except ValidationError as failure:
        raise StaffError(
            _("密码不合要求：{reasons}"), code="weak_password", reasons=" ".join(failure.messages)
        ) from None


@transaction.atomic
def staff_add(event: Event, *, username: str, role: str, password: str = "") -> tuple[User, bool]:
    """Give `username` a role on the event, creating the account (with `password`) if it is new.
    An existing account keeps its password: only its owner or a superuser changes it."""
    if role not in EventRole.Role.values:
        raise StaffError(_("未知角色 {role!r:.20}"), code="unknown_role", role=role)
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    created = user is None
    if created:
        if not password:
            raise StaffError(_("新账号需要密码"), code="password_required")
        user = users(username=username)
        checked_password(password, user)
        user.set_password(password)
        user.save()
        StaffAccount.objects.create(user=user, event=event)
    elif password:
        raise StaffError(_("账号 {username} 已存在；添加角色时不要填写密码"), code="user_exists", username=username)
    EventRole.objects.get_or_create(event=event, user=user, role=role)
    return user, created


@transaction.atomic
def organiser_add(*, username: str, password: str) -> tuple[User, bool]:
    """A superuser names an organiser: the account may create events (and organises those).
    A new account is created with `password` (checked by the password validators); an
    existing one keeps its own password, which only its owner or a superuser changes.
    Returns `(user, created)`."""
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    created = user is None
    if created:
        user = users(username=username)
        checked_password(password, user)
        user.set_password(password)
        user.save()
    grant_event_creation(user)
    return user, created


def may_manage_account(organiser: User, user: User, event: Event) -> bool:
    """An organiser may reset the password of an account only if it was created on the staff
    page of an event this organiser organises, every role it holds is on such events, and it
    organises nothing itself: an existing account added as a referee, another event's
    referee, or a co-organiser answers to its owner or a superuser (docs/security.md)."""
    if organiser.is_superuser:
        return True
    if user.is_superuser or user.is_staff or user.has_perm("scoring.add_event"):
        return False  # administrators and named organisers answer to the superuser only
    roles = list(EventRole.objects.filter(user=user).values_list("event_id", "role"))
    if any(role == EventRole.Role.ORGANISER for _event_id, role in roles):
        return False
    organised = set(
        EventRole.objects.filter(user=organiser, role=EventRole.Role.ORGANISER).values_list("event_id", flat=True)
    )
    origin = StaffAccount.objects.filter(user=user).values_list("event_id", flat=True).first()
    held = {event_id for event_id, _role in roles}
    return origin in organised and event.id in held and held <= organised


@transaction.atomic
def staff_set_password(event: Event, *, organiser: User, user: User, password: str) -> None:
    """A new password ends every way in with the old one: sessions (Django checks the password
    hash) and the account's API token, which a device set up before may still hold."""
    if not may_manage_account(organiser, user, event):
        raise StaffError(_("这个账号不是在本赛事创建的，或也属于其他赛事，只有管理员可以改它的密码"), code="forbidden")
    checked_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    ApiToken.objects.filter(user=user).delete()


@transaction.atomic
def staff_revoke(event: Event, *, role_id: int) -> None:
    """Remove a role; never the event's last organiser. The event's row is locked first, so two
    organisers removing each other at once are counted one after the other (each locking only
    the role it removed, both counted two organisers and both succeeded). An account left with
    no role anywhere loses its API token: a device that kept it must not come back with a
    later role."""
    list(Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True))
    role = EventRole.objects.filter(event=event, pk=role_id).first()
    if role is None:
        raise StaffError(_("没有这个角色"), code="not_found")
    if role.role == EventRole.Role.ORGANISER and _organiser_count(event) == 1:
        raise StaffError(_("赛事至少要有一位组织者"), code="last_organiser")
    role.delete()
    if not EventRole.objects.filter(user_id=role.user_id).exists():
        ApiToken.objects.filter(user_id=role.user_id).delete()


def _organiser_count(event: Event) -> int:
    return EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER).count()


def staff_rows(event: Event) -> list[dict[str, Any]]:
    """Each account with a role on the event, its roles and what it did: [{user, roles, actions, last}]."""
    roles = EventRole.objects.filter(event=event).select_related("user").order_by("user__username", "role")
    by_user = {}
    for role in roles:
        row = by_user.setdefault(role.user_id, {"user": role.user, "roles": [], "actions": Counter(), "last": None})
        row["roles"].append(role)
    for user_id, action, at in DealHistory.objects.filter(event=event).values_list("user_id", "action", "at"):
        row = by_user.get(user_id)
        if row is not None:
            row["actions"][action_label(action)] += 1
            row["last"] = max(row["last"], at) if row["last"] else at
    for user_id, action, at in PairingLog.objects.filter(round__event=event).values_list("user_id", "action", "at"):
        row = by_user.get(user_id)
        if row is not None:
            row["actions"][action_label(action)] += 1
            row["last"] = max(row["last"], at) if row["last"] else at
    for row in by_user.values():
        row["actions"] = [
            (str(label), n) for label, n in row["actions"].items()
        ]  # a template reads a Counter's missing keys as 0
    return list(by_user.values())


def recent_activity(event: Event, limit: int = 50) -> list[dict[str, Any]]:
    """The latest pairing and publication steps and result changes, newest first."""
    pairing = [
        {
            "at": log.at,
            "user": log.user,
            "what": action_label(log.action),
            "round": log.round.number,
            "board": None,
            "table": None,
        }
        for log in PairingLog.objects.filter(round__event=event).select_related("user", "round").order_by("-at")[:limit]
    ]
    results = [
        {
            "at": h.at,
            "user": h.user,
            "what": h.get_action_display(),
            "round": h.table.round.number,
            "table": h.table.number,
            "board": h.board,
        }
        for h in DealHistory.objects.filter(event=event).select_related("user", "table__round").order_by("-at")[:limit]
    ]
    return sorted(pairing + results, key=lambda row: row["at"], reverse=True)[:limit]
