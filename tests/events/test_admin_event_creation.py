"""The admin creates events under the console's rule: only with `scoring.add_event`."""

import pytest

from scoring.events.setup import grant_event_creation
from scoring.models import Event, EventRole

pytestmark = pytest.mark.django_db


def new_event(client):
    return client.post(
        "/admin/scoring/event/add/",
        {
            "slug": "admin-made",
            "name": "后台赛事",
            "ruleset": "huapai",
            "game_threshold": "1000",
            "kind": "pairs",
            "match_mode": "boards",
            "match_length": "16",
            "points_win": "2",
            "points_draw": "1",
            "points_loss": "0",
            "tiebreaks": '["total_score"]',
            "options": "{}",
            "correction_minutes": "30",
            "entry": "referees",
            "sessions_per_round": "1",
            "extra": "{}",
        },
    )


def test_an_organiser_without_the_right_cannot_add_an_event_in_the_admin(client, people):
    client.force_login(people["organiser"])
    assert client.get("/admin/scoring/event/add/").status_code == 403
    assert new_event(client).status_code == 403
    assert not Event.objects.filter(slug="admin-made").exists()


def test_an_organiser_named_by_a_superuser_adds_an_event_in_the_admin_and_organises_it(client, people):
    grant_event_creation(people["organiser"])
    client.force_login(people["organiser"])
    response = new_event(client)
    assert response.status_code == 302, response.context["adminform"].form.errors
    made = Event.objects.get(slug="admin-made")
    assert EventRole.objects.filter(event=made, user=people["organiser"], role="organiser").exists()
