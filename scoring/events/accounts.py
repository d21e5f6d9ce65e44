"""Users, roles, API tokens, and the login throttle's few rules of our own.

Logins are throttled by django-axes (settings: AXES_*), which hooks Django's authentication
itself, so the site's login and the admin's share one counter. What is ours here: the one
spelling a username is counted under, the distributed-guess ceiling, and the lock that lets
one attempt at a time through per (username, address). The web's side of the throttle (the
lockout answer, the middleware taking that lock) is `scoring.web.login_throttle`.
"""

from __future__ import annotations

import fcntl
import hashlib
import re
import secrets
import tempfile
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Sum

from scoring.models import ApiToken, EventRole

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User
    from django.http import HttpRequest

    from scoring.models import Event

LOGIN_FAILURES_EVERYWHERE = 50  # per username, from any number of addresses (AXES_FAILURE_LIMIT: per address)
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@transaction.atomic
def role_grant(*, username: str, role: str, event: Event) -> tuple[User, bool]:
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save()
    EventRole.objects.get_or_create(event=event, user=user, role=role)
    if role == EventRole.Role.ORGANISER and not user.is_staff:
        user.is_staff = True  # organisers read their events in the admin (scoped to their events)
        user.save(update_fields=["is_staff"])
    return user, created


def token_for(user: User) -> str:
    token, _ = ApiToken.objects.get_or_create(user=user, defaults={"key": secrets.token_hex(20)})
    return token.key


def normalised_username(username: str) -> str:
    """The one spelling a username is throttled under: NFKC (full-width letters become
    ASCII), no surrounding or control characters, case-folded, at most 150 characters."""
    text = unicodedata.normalize("NFKC", str(username or ""))
    text = CONTROL.sub("", text).strip().casefold()
    return text[:150]


def throttled_username(request: HttpRequest, credentials: dict[str, str]) -> str:
    """AXES_USERNAME_CALLABLE: the submitted username, normalised, for counting and look-up."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        return normalised_username(credentials.get(field))
    return normalised_username(request.POST.get(field) if request is not None else "")


class LoginThrottle(AxesDatabaseHandler):
    """Axes' database handler (failures per username and address, AXES_FAILURE_LIMIT), plus a
    ceiling per username from anywhere: many addresses guessing one account is a distributed
    guess, which no single address's counter would stop. Axes has one limit per parameter set,
    all equal, so this second, higher limit is ours."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, str] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        username = get_client_username(request, credentials)
        everywhere = AccessAttempt.objects.filter(
            username=username, attempt_time__gte=get_cool_off_threshold(request)
        ).aggregate(total=Sum("failures_since_start"))["total"]
        return (everywhere or 0) >= LOGIN_FAILURES_EVERYWHERE


@contextmanager
def one_attempt_at_a_time(key: str) -> Iterator[None]:
    """PostgreSQL: an advisory lock for a transaction (other logins and writes go on; every
    application host shares it). SQLite — one host by design — an exclusive `flock` on one of
    64 lock files, not a database transaction: SQLite has one write lock, and holding it
    through a password hash (a third of a second) would hold every referee's save back."""
    number = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])
            yield
        return
    LOGIN_LOCKS.mkdir(exist_ok=True)
    with open(LOGIN_LOCKS / f"{number % 64}.lock", "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)  # released when the file closes
        yield


LOGIN_LOCKS = Path(tempfile.gettempdir()) / "huapai-login-locks"
