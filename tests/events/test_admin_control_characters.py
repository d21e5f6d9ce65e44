"""Text typed into the admin holds no control characters (the services' rule for rulings)."""

import pytest

from scoring.models import Player

pytestmark = pytest.mark.django_db


def add_player(client, event, club):
    return client.post(
        "/admin/scoring/player/add/",
        {"event": event.pk, "code": "Z9", "name": "赵九", "sort_key": "zhao jiu", "club": club},
    )


@pytest.mark.parametrize("bad", ["太原\x00队", "太原\x1b[31m队", "太原\x7f"])
def test_text_with_a_control_character_is_refused_in_the_admin(client, people, event, bad):
    client.force_login(people["organiser"])
    response = add_player(client, event, bad)
    assert response.status_code == 200
    assert "club" in response.context["adminform"].form.errors
    assert not Player.objects.filter(event=event, code="Z9").exists()


def test_ordinary_text_is_accepted_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    response = add_player(client, event, "太原 一队")
    assert response.status_code == 302
    assert Player.objects.get(event=event, code="Z9").club == "太原 一队"
