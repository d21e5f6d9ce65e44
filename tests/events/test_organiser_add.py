"""A superuser names an organiser through one service (scoring.events.staff.organiser_add)."""

import pytest
from django.contrib.auth import get_user_model

from scoring.events.setup import may_create_events
from scoring.events.staff import StaffError, organiser_add

pytestmark = pytest.mark.django_db
GOOD = "a-long-enough-passphrase"


def test_a_new_organiser_account_is_created_with_its_password_and_may_create_events():
    user, created = organiser_add(username="wang", password=GOOD)
    assert created and user.check_password(GOOD)
    assert may_create_events(get_user_model().objects.get(username="wang"))


def test_a_weak_password_is_refused_and_no_account_is_left_behind():
    with pytest.raises(StaffError) as caught:
        organiser_add(username="wang", password="123")
    assert caught.value.code == "weak_password"
    assert not get_user_model().objects.filter(username="wang").exists()


def test_an_existing_account_keeps_its_password_and_gains_the_right():
    existing = get_user_model().objects.create_user("li", password=GOOD)
    user, created = organiser_add(username="li", password="another-long-passphrase")
    assert not created and user.pk == existing.pk
    user.refresh_from_db()
    assert user.check_password(GOOD) and may_create_events(get_user_model().objects.get(pk=user.pk))


def test_the_superuser_page_names_an_organiser_through_the_service(client):
    client.force_login(get_user_model().objects.create_superuser("root", password=GOOD))
    response = client.post("/organiser/organisers/", {"username": "zhao", "password": GOOD})
    assert response.status_code == 302
    assert may_create_events(get_user_model().objects.get(username="zhao"))
    weak = client.post("/organiser/organisers/", {"username": "qian", "password": "1"})
    assert weak.status_code == 200 and not get_user_model().objects.filter(username="qian").exists()
