"""Users, roles, API tokens, and the login throttle's few rules of our own.

Logins are throttled by django-axes (settings: AXES_*), which hooks Django's authentication
itself, so the site's login and the admin's share one counter. What is ours here: the one
spelling a username is counted under, the distributed-guess ceiling, the lockout answer in
our language, and one attempt at a time per (username, address).
"""

import fcntl
import hashlib
import re
import secrets
import tempfile
import unicodedata
from contextlib import contextmanager
from pathlib import Path

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.db import connection, transaction
from django.db.models import Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from scoring.models import ApiToken, EventRole
from scoring.web.client_address import client_ip

LOGIN_FAILURES_EVERYWHERE = 50  # per username, from any number of addresses (AXES_FAILURE_LIMIT: per address)
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# The doors whose POSTs check a password (URL names): one attempt at a time per (username, address).
LOGIN_VIEWS = frozenset({"login", "admin:login"})


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


def throttled_username(request, credentials):
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

    def is_locked(self, request, credentials=None):
        if super().is_locked(request, credentials):
            return True
        username = get_client_username(request, credentials)
        everywhere = AccessAttempt.objects.filter(
            username=username, attempt_time__gte=get_cool_off_threshold(request)
        ).aggregate(total=Sum("failures_since_start"))["total"]
        return (everywhere or 0) >= LOGIN_FAILURES_EVERYWHERE


def locked_out(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: HTTP 429, in the visitor's language (Chinese first). JSON for
    clients that ask for it; otherwise the login page again, with the reason, for both doors."""
    message = gettext("登录失败次数过多，请 15 分钟后再试。")
    status = settings.AXES_HTTP_RESPONSE_CODE
    wants_json = "application/json" in request.headers.get("Accept", "")
    if wants_json or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return JsonResponse({"error": {"code": "locked_out", "message": message}}, status=status)
    context = {"form": AuthenticationForm(request), "throttled": True, "next": request.POST.get("next", "")}
    return render(request, "registration/login.html", context, status=status)


class OneLoginAttemptAtATime:
    """Middleware: a POST to a login door first takes a lock on its (normalised username,
    client address), so axes' check, the password hash and the recorded failure happen one
    attempt after the other. Without it, 16 simultaneous guesses all pass the check before the
    first failure is written, and all 16 passwords are tried."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in LOGIN_VIEWS:
            return None
        key = f"{normalised_username(request.POST.get(settings.AXES_USERNAME_FORM_FIELD))}\x00{client_ip(request)}"
        with one_attempt_at_a_time(key):
            response = view(request, *args, **kwargs)
            # Rendered inside, so a lazy template response reads nothing after the lock is gone.
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            return response


@contextmanager
def one_attempt_at_a_time(key):
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
