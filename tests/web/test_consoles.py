"""The consoles in every signed-in page's header: which ones each kind of account sees, from
one query of the roles it holds."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from scoring.events.permissions import first_page_after_login
from scoring.events.setup import grant_event_creation
from scoring.web.consoles import consoles

pytestmark = pytest.mark.django_db


def shown(user):
    request = RequestFactory().get("/")
    request.user = user
    with CaptureQueriesContext(connection) as queries:
        ids = [console["id"] for console in consoles(request)["consoles"]]
    return ids, len(queries)


def test_an_organiser_sees_both_consoles_from_one_query(people):
    assert shown(people["organiser"]) == (["organiser", "referee"], 1)


def test_a_referee_sees_the_desk_only(people):
    ids, _queries = shown(people["referee1"])
    assert ids == ["referee"]


def test_an_account_named_to_create_events_sees_the_organiser_console_before_its_first_event(people):
    named = get_user_model().objects.create(username="named")
    grant_event_creation(named)
    assert shown(named)[0] == ["organiser"]
    assert first_page_after_login(named) == "organiser-home"


def test_an_account_without_a_role_sees_no_console_and_a_superuser_both_without_a_query(people):
    assert shown(people["outsider"])[0] == []
    assert first_page_after_login(people["outsider"]) == "referee-home"
    root = get_user_model().objects.create(username="root", is_superuser=True)
    assert shown(root) == (["organiser", "referee"], 0)
