"""The login throttle's side in the web layer: the lockout answer in the visitor's language
(AXES_LOCKOUT_CALLABLE) and the middleware that lets one attempt at a time through per
(username, address) at both doors (the site's login and the admin's). The counting is
django-axes'; our rules for it are in `scoring.events.accounts`."""

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from scoring.events.accounts import normalised_username, one_attempt_at_a_time
from scoring.web.client_address import client_ip

# The doors whose POSTs check a password (URL names): one attempt at a time per (username, address).
LOGIN_VIEWS = frozenset({"login", "admin:login"})


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
