"""The address of the person behind a request, through `settings.TRUSTED_PROXIES` trusted proxies.

The one place that maps our setting onto django-ipware; the login throttle (django-axes,
`AXES_CLIENT_IP_CALLABLE`) and the deal history both call `client_ip`.

Behind a reverse proxy every request's REMOTE_ADDR is the proxy's, so login throttling
would lock every referee out at once and the deal history would record the proxy. With
`TRUSTED_PROXIES = n`, each trusted proxy appends the address it saw to X-Forwarded-For:
the client is the n-th entry from the right, and whatever a client wrote further left is
ignored, so it cannot choose its own address. With 0, X-Forwarded-For is not read at all.
"""

from django.conf import settings
from ipware import get_client_ip


def client_ip(request):
    proxies = settings.TRUSTED_PROXIES
    if proxies > 0:
        # ipware counts only the proxies *listed* in the header (the last one is REMOTE_ADDR,
        # not listed), so n trusted proxies are n - 1 entries right of the client. Left-most
        # and not strict: of a longer header the entries a client wrote itself are dropped
        # (strict would refuse the whole header, and with it the real address).
        address, _ = get_client_ip(
            request,
            proxy_order="left-most",
            proxy_count=proxies - 1,
            request_header_order=("HTTP_X_FORWARDED_FOR",),
            strict=False,
        )
        if address:
            return address
    # No trusted proxy, or a header shorter than the proxies that should have written it.
    address, _ = get_client_ip(request, request_header_order=("REMOTE_ADDR",))
    return address
