"""Response headers and methods the whole site refuses or adds.

A Content-Security-Policy is one fixed header here (Django 5.2 has none built
in, and a library for one constant header would be more configuration than
code); TRACE is refused before any view runs.
"""

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
REFUSED_METHODS = {"TRACE", "TRACK", "CONNECT"}


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in REFUSED_METHODS:
            return HttpResponseNotAllowed(["GET", "HEAD", "POST", "PUT", "OPTIONS"])
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response
