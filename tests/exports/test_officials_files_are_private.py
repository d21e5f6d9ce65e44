"""An officials' file holds unpublished results: no shared cache keeps it, and its name tells
it from the public file of the same event."""

import pytest

from scoring.archive.database import import_archive
from tests.archives import four_pairs_two_rounds
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

FILES = [
    "/events/t-pairs/standings.xlsx",
    "/events/t-pairs/results.xlsx",
    "/events/t-pairs/standings.pdf",
    "/events/t-pairs/rounds/1/results.pdf",
    "/events/t-pairs/rounds/1/travellers.pdf",
    "/events/t-pairs/rounds/1/scoresheets.pdf",
    "/events/t-pairs/cross-table.pdf",
    "/events/t-pairs/cross-table.xlsx",
    "/events/t-pairs/rounds/1/draw.pdf",
]


@pytest.fixture
def event():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"
    return import_archive(archive)


def disposition(response):
    return response["Content-Disposition"]


@pytest.mark.parametrize("url", FILES)
def test_an_officials_file_is_private_and_named_as_the_staff_version(client, event, url):
    client.force_login(make_user("boss", "organiser", event))
    response = client.get(url)
    assert response.status_code == 200
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= cache_control
    assert "-staff." in disposition(response)


@pytest.mark.parametrize("url", FILES)
def test_the_public_file_keeps_its_plain_name_and_is_not_marked_private(client, event, url):
    response = client.get(url)
    assert response.status_code == 200
    assert "-staff." not in disposition(response)
    assert "private" not in response.get("Cache-Control", "")


def test_an_official_asking_for_the_public_version_gets_the_public_file(client, event):
    client.force_login(make_user("boss", "organiser", event))
    response = client.get("/events/t-pairs/standings.xlsx?scope=public")
    assert "-staff." not in disposition(response)
