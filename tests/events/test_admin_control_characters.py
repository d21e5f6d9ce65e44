"""Text typed into the admin holds no control characters (the services' rule for rulings)."""

import pytest

from scoring.models import Appeal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("bad", ["罚分\x00撤销", "罚分\x1b[31m撤销", "罚分\x7f"])
def test_a_ruling_with_a_control_character_is_refused_in_the_admin(client, people, event, bad):
    client.force_login(people["organiser"])
    response = client.post(
        "/admin/scoring/appeal/add/",
        {"event": event.pk, "filed_by": "A 对", "statement": "有异议", "status": "upheld", "decision": bad},
    )
    assert response.status_code == 200
    assert "decision" in response.context["adminform"].form.errors
    assert not Appeal.objects.exists()


def test_a_ruling_on_several_lines_is_accepted_in_the_admin(client, people, event):
    client.force_login(people["organiser"])
    response = client.post(
        "/admin/scoring/appeal/add/",
        {"event": event.pk, "filed_by": "A 对", "statement": "有异议", "status": "upheld", "decision": "一\r\n二"},
    )
    assert response.status_code == 302
