"""The client address through 0, 1 or 2 trusted proxies (settings.TRUSTED_PROXIES, read by
django-ipware in scoring/web/client_address.py): the n-th X-Forwarded-For entry from the right;
what a client writes further left is ignored; without proxies the header is not read."""

import pytest
from django.test import RequestFactory, override_settings

from scoring.web.client_address import client_ip


def address(proxies, remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    with override_settings(TRUSTED_PROXIES=proxies):
        return client_ip(RequestFactory().get("/", **extra))


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "client"),
    [
        (0, "192.0.2.1", None, "192.0.2.1"),
        (0, "192.0.2.1", "203.0.113.5", "192.0.2.1"),  # no trusted proxy: the header is the client's own
        (1, "10.0.0.1", "203.0.113.5", "203.0.113.5"),
        (1, "10.0.0.1", "1.1.1.1, 2.2.2.2, 198.51.100.7", "198.51.100.7"),  # written by the client: ignored
        (1, "10.0.0.1", "2001:db8::7", "2001:db8::7"),
        (2, "10.0.0.1", "203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, "10.0.0.1", "1.1.1.1, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
    ],
)
def test_the_client_address_through_trusted_proxies(proxies, remote, forwarded, client):
    assert address(proxies, remote, forwarded) == client


@pytest.mark.parametrize("forwarded", [None, "", "not-an-address"])
def test_a_missing_or_unreadable_header_behind_a_proxy_falls_back_to_the_peer(forwarded):
    assert address(1, "10.0.0.1", forwarded) == "10.0.0.1"


def test_a_header_shorter_than_the_proxies_falls_back_to_the_peer():
    assert address(2, "10.0.0.1", "203.0.113.5") == "10.0.0.1"
