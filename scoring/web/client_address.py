"""The address of the person behind a request, through a configured number of trusted proxies.

Behind a reverse proxy every request's REMOTE_ADDR is the proxy's, so login
throttling would lock every referee out at once and the deal history would
record the proxy. With `settings.TRUSTED_PROXIES = n`, the client is the n-th
address from the right of X-Forwarded-For (each trusted proxy appends the
address it saw); anything a client wrote further left is ignored, so it cannot
choose its own address.
"""

import ipaddress

from django.conf import settings


def _address(text):
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request):
    remote = _address(request.META.get("REMOTE_ADDR") or "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < proxies:
        return remote
    return _address(forwarded[-proxies]) or remote
