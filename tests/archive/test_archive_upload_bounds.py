"""Archive uploads: who may upload is decided before the body is read, and an archive larger
than any real event is refused before anything is written."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest

from scoring.archive.format import MAX_PEOPLE, ArchiveError, parse_archive
from scoring.models import Event
from tests.archives import four_pairs_two_rounds
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


def test_a_referees_upload_is_refused_before_its_body_is_read(client, event, monkeypatch):
    client.force_login(make_user("ref-x", "referee", event))

    def body_read(self):
        raise AssertionError("the body was parsed before the permission was checked")

    monkeypatch.setattr(HttpRequest, "_load_post_and_files", body_read)
    upload = SimpleUploadedFile("big.json", b"{" + b" " * (3 * 1024 * 1024), content_type="application/json")
    response = client.post("/organiser/import/", {"file": upload})
    assert response.status_code == 403
    assert Event.objects.count() == 1


def test_an_organiser_of_an_event_may_still_open_the_import_page(client, event):
    client.force_login(make_user("boss-x", "organiser", event))
    assert client.get("/organiser/import/").status_code == 200


@pytest.mark.parametrize("key", ["players", "pairs"])
def test_an_archive_of_more_people_than_any_event_is_refused_by_name(key):
    archive = four_pairs_two_rounds()
    archive[key] = archive[key] * (MAX_PEOPLE // len(archive[key]) + 1)
    with pytest.raises(ArchiveError) as refused:
        parse_archive(archive)
    assert key in refused.value.message and str(MAX_PEOPLE) in refused.value.message
