"""An event's staff, managed by its organisers: referee and co-organiser accounts,
passwords, roles, and who did what. Superusers name the organisers who may create events."""

from collections import Counter

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy

from scoring.events.setup import grant_event_creation
from scoring.games.refusals import Refusal, _
from scoring.models import DealHistory, EventRole, PairingLog

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


def action_label(action):
    key = action.split(":")[0]
    return ACTION_LABELS.get(key, key)


class StaffError(Refusal):
    def __init__(self, template, code="staff_refused", **params):
        super().__init__(code, template, **params)


def checked_password(password, user=None):
    try:
        validate_password(password, user)
    except ValidationError as failure:
        raise StaffError(
            _("密码不合要求：{reasons}"), code="weak_password", reasons=" ".join(failure.messages)
        ) from None


@transaction.atomic
def staff_add(event, *, username, role, password=""):
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
    elif password:
        raise StaffError(_("账号 {username} 已存在；添加角色时不要填写密码"), code="user_exists", username=username)
    EventRole.objects.get_or_create(event=event, user=user, role=role)
    return user, created


@transaction.atomic
def organiser_add(*, username, password):
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


def may_manage_account(organiser, user, event):
    """An organiser may reset the password of an account only if every role it holds is
    on events this organiser organises (so no one takes over another event's staff)."""
    if organiser.is_superuser:
        return True
    if user.is_superuser or user.is_staff or user.has_perm("scoring.add_event"):
        return False  # administrators and named organisers answer to the superuser only
    held = set(EventRole.objects.filter(user=user).values_list("event_id", flat=True))
    organised = set(
        EventRole.objects.filter(user=organiser, role=EventRole.Role.ORGANISER).values_list("event_id", flat=True)
    )
    return event.id in held and held <= organised


@transaction.atomic
def staff_set_password(event, *, organiser, user, password):
    if not may_manage_account(organiser, user, event):
        raise StaffError(_("这个账号也属于其他赛事，只有管理员可以改它的密码"), code="forbidden")
    checked_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])


@transaction.atomic
def staff_revoke(event, *, role_id):
    role = EventRole.objects.select_for_update().filter(event=event, pk=role_id).first()
    if role is None:
        raise StaffError(_("没有这个角色"), code="not_found")
    if (
        role.role == EventRole.Role.ORGANISER
        and EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER).count() == 1
    ):
        raise StaffError(_("赛事至少要有一位组织者"), code="last_organiser")
    role.delete()


def staff_rows(event):
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


def recent_activity(event, limit=50):
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
