"""The admin has no bulk delete (it would skip the services and the announcement); a delete
of one object moves the public version, so a deleted entrant leaves the public pages."""

import pytest

from scoring.cache.versions import current_version
from scoring.models import Entrant

pytestmark = pytest.mark.django_db

ADMIN_LISTS = ["event", "entrant", "player", "round", "match", "eventrole", "appeal"]


@pytest.mark.parametrize("model", ADMIN_LISTS)
def test_no_admin_list_offers_delete_selected(client, people, event, model):
    client.force_login(people["organiser"])
    response = client.get(f"/admin/scoring/{model}/")
    assert response.status_code == 200
    actions = response.context["action_form"].fields["action"].choices if response.context["action_form"] else []
    assert "delete_selected" not in [name for name, _label in actions]


def test_a_bulk_delete_posted_anyway_deletes_nothing(client, people, event):
    spare = Entrant.objects.create(event=event, code="Z", name="Z 对")
    client.force_login(people["organiser"])
    client.post("/admin/scoring/entrant/", {"action": "delete_selected", "_selected_action": [spare.pk], "post": "yes"})
    assert Entrant.objects.filter(pk=spare.pk).exists()


def test_deleting_an_entrant_in_the_admin_moves_the_public_version(client, people, event):
    spare = Entrant.objects.create(event=event, code="Z", name="Z 对")
    before = current_version(event, public=True)
    client.force_login(people["organiser"])
    response = client.post(f"/admin/scoring/entrant/{spare.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Entrant.objects.filter(pk=spare.pk).exists()
    assert current_version(event, public=True) != before


def test_an_event_with_deals_cannot_be_deleted_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    assert client.post(f"/admin/scoring/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert type(event).objects.filter(pk=event.pk).exists()
