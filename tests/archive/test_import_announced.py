"""An import writes an event like every other writer: it announces the change
(`scoring.cache.announce_results_changed`) inside its transaction, for the new event and for
the one it replaces, so the public pages follow at once and the new event is warmed."""

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.cache import pages
from scoring.cache.results import stored_items
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db

STANDINGS = "/events/t-pairs/standings/"
NEW_NAME = "换人之后"


def with_a_new_player_name():
    archive = four_pairs_two_rounds()
    archive["players"][0]["name"] = NEW_NAME  # pair A's first player
    return archive


@pytest.fixture
def remembered_stamps(settings):
    """A worker as in production: it reads an event's page stamp (its id and public version)
    again only after HUAPAI_PAGE_STAMP_SECONDS, unless a write it made says so."""
    settings.HUAPAI_PAGE_STAMP_SECONDS = 60
    pages._recent_stamps.clear()
    yield
    pages._recent_stamps.clear()


def test_a_replacing_import_shows_on_the_public_standings_at_once(
    remembered_stamps, django_capture_on_commit_callbacks
):
    import_archive(four_pairs_two_rounds())
    before = Client().get(STANDINGS)
    assert before.status_code == 200 and NEW_NAME not in before.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        replaced = import_archive(with_a_new_player_name(), replace=True)

    after = Client().get(STANDINGS)
    assert after.status_code == 200
    assert NEW_NAME in after.content.decode()
    assert after["ETag"] != before["ETag"]
    assert pages.page_stamp("t-pairs")[0] == replaced.pk


def test_an_import_is_warmed_after_its_commit_like_every_write(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event = import_archive(four_pairs_two_rounds())
    assert stored_items(event, "player-stats", [], public=True) is not None
