"""The line-up page's `?session=` goes through a bounded form: no query string is a server error."""

import pytest

from scoring.archive.database import import_archive
from scoring.models import Round
from tests.archives import team_match
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db
PAGE = "/organiser/t-teams/rounds/1/matches/1/lineup/"


@pytest.fixture
def organiser_client(client):
    event = import_archive(team_match([], [], boards=4))
    Round.objects.filter(event=event).update(sessions=2)
    client.force_login(make_user("boss", "organiser", event))
    return client


@pytest.mark.parametrize(
    ("query", "session"),
    [("", 1), ("?session=2", 2), ("?session=²", 1), ("?session=-1", 1), ("?session=3", 1), ("?session=" + "9" * 30, 1)],
)
def test_any_session_in_the_query_shows_a_session_of_the_round(organiser_client, query, session):
    response = organiser_client.get(PAGE + query)
    assert response.status_code == 200
    assert response.context["session"] == session
