"""An event of more than a thousand pairs through the services and pages that read every
entrant with its players (SQLite refuses an expression of more than 1,000 terms)."""

import pytest

from scoring.archive.database import import_archive
from scoring.events.accounts import role_grant
from scoring.rounds.creation import round_candidates, round_pair
from tests.archives import pairs_archive

pytestmark = pytest.mark.django_db

PAIRS = 1200


@pytest.fixture
def big_event():
    return import_archive(pairs_archive([f"A{i:04d}" for i in range(1, PAIRS + 1)], [], slug="big"))


def test_candidates_pairing_and_the_entrant_list_of_a_big_event(big_event, client):
    playing, out = round_candidates(big_event, 1)
    assert len(playing) == PAIRS and not out
    assert all(len(entrant.memberships.all()) == 2 for entrant in playing)
    rnd, _pairing = round_pair(big_event, "swiss")
    assert rnd.tables.count() == PAIRS // 2
    organiser, _ = role_grant(username="big-organiser", role="organiser", event=big_event)
    client.force_login(organiser)
    page = client.get("/organiser/big/entrants/")
    assert page.status_code == 200 and "A1200" in page.content.decode()
