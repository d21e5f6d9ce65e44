"""Users, roles, API tokens and login throttling."""

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring.models import ApiToken, EventRole, LoginFailure

LOGIN_FAILURES_ALLOWED = 5
LOGIN_WINDOW = timedelta(minutes=15)


@transaction.atomic
def role_grant(*, username, role, event):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save()
    EventRole.objects.get_or_create(event=event, user=user, role=role)
    if role == EventRole.Role.ORGANISER and not user.is_staff:
        user.is_staff = True  # organisers edit their events in the admin (scoped to their events)
        user.save(update_fields=["is_staff"])
    return user, created


def token_for(user):
    token, _ = ApiToken.objects.get_or_create(user=user, defaults={"key": secrets.token_hex(20)})
    return token.key


def login_blocked(username, ip):
    """True when this username, or this address, failed too often in the last 15 minutes."""
    since = timezone.now() - LOGIN_WINDOW
    recent = LoginFailure.objects.filter(at__gte=since)
    by_user = recent.filter(username=username.lower()).count() if username else 0
    by_ip = recent.filter(ip=ip).count() if ip else 0
    return by_user >= LOGIN_FAILURES_ALLOWED or by_ip >= 4 * LOGIN_FAILURES_ALLOWED


def login_failed(username, ip):
    LoginFailure.objects.create(username=(username or "").lower()[:150], ip=ip)


def login_succeeded(username):
    LoginFailure.objects.filter(username=username.lower()).delete()
