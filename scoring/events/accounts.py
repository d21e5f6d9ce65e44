"""Users, roles, API tokens and login throttling."""

import re
import secrets
import unicodedata
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring.models import ApiToken, EventRole, LoginFailure

LOGIN_FAILURES_ALLOWED = 5  # per (username, address)
LOGIN_FAILURES_EVERYWHERE = 50  # per username, from any number of addresses
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
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


def normalised_username(username):
    """The one spelling a username is throttled under: NFKC (full-width letters become
    ASCII), no surrounding or control characters, case-folded, at most 150 characters."""
    text = unicodedata.normalize("NFKC", str(username or ""))
    text = CONTROL.sub("", text).strip().casefold()
    return text[:150]


def login_blocked(username, ip):
    """True when this username failed too often from this address in the last 15 minutes,
    or from anywhere more often than any one person would (a distributed guess)."""
    since = timezone.now() - LOGIN_WINDOW
    name = normalised_username(username)
    recent = LoginFailure.objects.filter(at__gte=since, username=name)
    from_here = recent.filter(ip=ip).count() if ip else recent.filter(ip__isnull=True).count()
    return from_here >= LOGIN_FAILURES_ALLOWED or recent.count() >= LOGIN_FAILURES_EVERYWHERE


def login_failed(username, ip):
    LoginFailure.objects.create(username=normalised_username(username), ip=ip)


def login_succeeded(username, ip):
    """A correct password clears its own address's failures only: a success elsewhere
    must not wipe out what an attacker has been counted for."""
    LoginFailure.objects.filter(username=normalised_username(username), ip=ip).delete()
