"""Response headers and methods the whole site refuses or adds.

A Content-Security-Policy is one fixed header here (Django 5.2 has none built
in, and a library for one constant header would be more configuration than
code); TRACE is refused before any view runs.
"""

from django.conf import settings
from django.http import HttpResponseNotAllowed

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# Django's own debug pages (DEBUG only: `make run`) style themselves inline; with the strict
# policy the browser refuses that and reports a CSP error on every missing address.
DEBUG_ERROR_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
REFUSED_METHODS = {"TRACE", "TRACK", "CONNECT"}


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in REFUSED_METHODS:
            return HttpResponseNotAllowed(["GET", "HEAD", "POST", "PUT", "OPTIONS"])
        response = self.get_response(request)
        debug_page = settings.DEBUG and response.status_code in (404, 500)
        response.setdefault("Content-Security-Policy", DEBUG_ERROR_POLICY if debug_page else CONTENT_SECURITY_POLICY)
        return response
