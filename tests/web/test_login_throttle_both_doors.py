"""The site's login and the admin's are one door for the throttle: one counter per
(normalised username, client address), 5 failures, then HTTP 429 in the visitor's language."""

import pytest
from axes.models import AccessAttempt
from django.test import Client

from tests.referee_setup import PASSWORD

pytestmark = pytest.mark.django_db


def admin_login(client, username, password, **extra):
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password}, **extra)


def site_login(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_the_admin_login_is_throttled_after_five_failures(people):
    client = Client()
    answers = [admin_login(client, "organiser", "wrong").status_code for _ in range(8)]
    assert answers == [200, 200, 200, 200, 429, 429, 429, 429]
    assert AccessAttempt.objects.get(username="organiser").failures_since_start == 5
    assert admin_login(client, "organiser", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_site_and_the_admin_login_share_one_counter(people):
    for _ in range(3):
        assert site_login(Client(), "Organiser", "wrong").status_code == 200
    assert admin_login(Client(), "ｏｒｇａｎｉｓｅｒ", "wrong").status_code == 200
    assert admin_login(Client(), "organiser", "wrong").status_code == 429
    assert site_login(Client(), "organiser", PASSWORD).status_code == 429


def test_a_lockout_answers_in_chinese_first_and_in_english_on_request(people):
    for _ in range(5):
        site_login(Client(), "referee1", "wrong")
    page = site_login(Client(), "referee1", PASSWORD)
    assert page.status_code == 429 and "登录失败次数过多" in page.content.decode()
    english = site_login(Client(), "referee1", PASSWORD, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many failed logins" in english.content.decode()
    answer = site_login(Client(), "referee1", PASSWORD, HTTP_ACCEPT="application/json")
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "locked_out"
    assert "登录失败次数过多" in answer.json()["error"]["message"]


def test_a_good_admin_login_clears_only_its_own_addresses_failures(people):
    for address in ("192.0.2.1", "192.0.2.2"):
        admin_login(Client(), "organiser", "wrong", REMOTE_ADDR=address)
    assert admin_login(Client(), "organiser", PASSWORD, REMOTE_ADDR="192.0.2.1").status_code == 302
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["192.0.2.2"]


def test_an_api_token_still_works_while_its_owner_is_locked_out(people):
    from tests.referee_setup import board_url, token_header

    for _ in range(5):
        site_login(Client(), "referee1", "wrong")
    assert Client().get(board_url(), **token_header(people["referee1"])).status_code in (200, 404)
