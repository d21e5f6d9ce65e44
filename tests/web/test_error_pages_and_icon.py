"""Small things a director saw on the first day (issue 21, item 13): the icon, error pages
under the site's strict CSP, and an official round read-only for a referee with the reason."""

import pytest
from django.test import override_settings

from scoring.models import Round
from scoring.web.middleware import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.django_db


def test_the_icon_is_served_and_every_page_links_it(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()


def test_a_missing_page_is_the_sites_own_page_under_the_strict_policy(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    page = response.content.decode()
    assert "找不到这个页面" in page and "<style" not in page and "style=" not in page


@override_settings(DEBUG=True)
def test_djangos_debug_page_may_style_itself(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "style-src 'self' 'unsafe-inline'" in response["Content-Security-Policy"]


def test_an_official_round_tells_a_referee_why_it_is_read_only(client, event, people):
    Round.objects.filter(event=event, number=3).update(status=Round.Status.OFFICIAL)
    client.force_login(people["referee1"])
    page = client.get("/referee/t-pairs/rounds/3/tables/1/boards/1/").content.decode()
    assert 'id="read-only-reason"' in page and "正式成绩" in page
    client.force_login(people["organiser"])
    assert 'id="read-only-reason"' not in client.get("/referee/t-pairs/rounds/3/tables/1/boards/1/").content.decode()
