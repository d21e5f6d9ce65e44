"""Templates compare with the vocabulary's members, not string literals: the branches still show."""

import pytest

from scoring.cache import announce_results_changed
from scoring.models import Event

pytestmark = pytest.mark.django_db


def test_the_swap_form_and_publication_button_follow_the_rounds_state(client, event, people):
    client.force_login(people["organiser"])
    scheduled = client.get("/referee/t-pairs/rounds/3/").content.decode()
    assert "/referee/t-pairs/rounds/3/publish/" in scheduled
    assert "/organiser/t-pairs/rounds/3/swap/" in client.get("/organiser/t-pairs/rounds/3/").content.decode()
    official = client.get("/referee/t-pairs/rounds/2/").content.decode()
    assert "/publish/" not in official
    assert "/swap/" not in client.get("/organiser/t-pairs/rounds/2/").content.decode()


def test_the_event_page_names_the_match_format(client, event):
    assert "每场 16 副" in client.get("/events/t-pairs/").content.decode()
    Event.objects.filter(pk=event.pk).update(match_mode="games", match_length=2)
    announce_results_changed(event)  # as the event form and the admin do: public pages are cached under the version
    assert "每场 2 局" in client.get("/events/t-pairs/").content.decode()
