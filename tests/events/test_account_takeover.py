"""An organiser cannot take over an account that is not their event's own staff account:
adding an existing account and resetting its password, adopting another event's revoked
referee, or resetting a co-organiser's password. A reset ends the old API token too."""

import threading

import pytest
from django.db import connection

from scoring.events.accounts import token_for
from scoring.events.staff import StaffError, may_manage_account, staff_add, staff_revoke, staff_set_password
from scoring.models import ApiToken, Event, EventRole
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "Zhu-yang-bian-7"


def test_an_existing_account_added_as_referee_cannot_have_its_password_reset(event, people):
    outsider = people["outsider"]  # a player's account, say: it existed before this event
    staff_add(event, username="outsider", role="referee")
    with pytest.raises(StaffError) as refused:
        staff_set_password(event, organiser=people["organiser"], user=outsider, password="Taken-over-88")
    assert refused.value.code == "forbidden"
    outsider.refresh_from_db()
    assert not outsider.check_password("Taken-over-88")


def test_another_events_referee_adopted_after_its_revocation_cannot_be_reset(event, people):
    other = Event.objects.get(slug="other")
    other_organiser = make_user("other-boss", "organiser", other)
    referee, created = staff_add(other, username="ref-b", role="referee", password=PASSWORD)
    assert created
    staff_revoke(other, role_id=EventRole.objects.get(event=other, user=referee).pk)
    staff_add(event, username="ref-b", role="referee")  # organiser A adopts the account
    with pytest.raises(StaffError):
        staff_set_password(event, organiser=people["organiser"], user=referee, password="Taken-over-88")
    assert not may_manage_account(other_organiser, referee, event)


def test_a_co_organiser_cannot_reset_another_co_organisers_password(event, people):
    co_organiser, _created = staff_add(event, username="co-boss", role="organiser", password=PASSWORD)
    with pytest.raises(StaffError):
        staff_set_password(event, organiser=people["organiser"], user=co_organiser, password="Taken-over-88")


def test_a_password_reset_ends_the_accounts_api_token(event, people):
    referee, _created = staff_add(event, username="ref-new", role="referee", password=PASSWORD)
    old_token = token_for(referee)
    staff_set_password(event, organiser=people["organiser"], user=referee, password="Zi-de-fan-bei-9")
    assert not ApiToken.objects.filter(key=old_token).exists()
    assert token_for(referee) != old_token


def test_an_account_left_with_no_role_loses_its_api_token(event, people):
    referee = people["referee1"]
    old_token = token_for(referee)
    staff_revoke(event, role_id=EventRole.objects.get(event=event, user=referee).pk)
    staff_add(event, username="referee1", role="referee")  # re-added later
    assert not ApiToken.objects.filter(key=old_token).exists()


def test_a_referee_keeps_the_token_while_they_hold_a_role_elsewhere(event, people):
    referee = people["referee1"]
    EventRole.objects.create(event=Event.objects.get(slug="other"), user=referee, role="referee")
    token = token_for(referee)
    staff_revoke(event, role_id=EventRole.objects.get(event=event, user=referee).pk)
    assert ApiToken.objects.filter(key=token).exists()


@pytest.mark.django_db(transaction=True)
def test_two_organisers_removing_each_other_at_once_leave_one(event, people, monkeypatch):
    """Each locked only the role it removed and counted two organisers: both succeeded (15 of
    20 tries on PostgreSQL). The second now counts after the first has committed."""
    from scoring.events import staff

    second = make_user("co-boss", "organiser", event)
    first_counted, second_counted = threading.Event(), threading.Event()
    count = staff._organiser_count

    def counted_then_paused(event):
        number = count(event)
        if threading.current_thread() is threading.main_thread():
            first_counted.set()
            second_counted.wait(1)  # an unlocked second revocation counts meanwhile
        else:
            second_counted.set()
        return number

    monkeypatch.setattr(staff, "_organiser_count", counted_then_paused)
    roles = {
        "organiser": EventRole.objects.get(event=event, user=people["organiser"], role="organiser").pk,
        "co-boss": EventRole.objects.get(event=event, user=second, role="organiser").pk,
    }
    outcome = {}

    def remove_the_first_organiser():
        first_counted.wait(10)
        try:
            staff_revoke(event, role_id=roles["organiser"])
            outcome["second"] = "removed"
        except StaffError as refusal:
            outcome["second"] = refusal.code
        finally:
            connection.close()

    other = threading.Thread(target=remove_the_first_organiser)
    other.start()
    staff_revoke(event, role_id=roles["co-boss"])
    other.join(20)
    assert outcome["second"] == "last_organiser"
    assert EventRole.objects.filter(event=event, role="organiser").count() == 1
