"""Archive uploads: who may upload is decided before the body is read, and an archive larger
than any real event is refused before anything is written."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest

from scoring.archive.format import MAX_PEOPLE, ArchiveError, parse_archive
from scoring.models import Event
from tests.archives import four_pairs_two_rounds
from tests.conftest import REPO
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


@pytest.mark.parametrize("role", ["organiser", "referee"])
def test_an_organiser_who_may_not_create_events_is_refused_before_the_body_is_read(client, event, monkeypatch, role):
    """A co-organiser made on a staff page organises an event, but must not make the server
    parse a 200 MB archive: importing is creating an event (issue 37)."""
    client.force_login(make_user("boss-x", role, event))

    def body_read(self):
        raise AssertionError("the body was parsed before the permission was checked")

    monkeypatch.setattr(HttpRequest, "_load_post_and_files", body_read)
    assert client.get("/organiser/import/").status_code == 403
    upload = SimpleUploadedFile("big.json", b"{" + b" " * (3 * 1024 * 1024), content_type="application/json")
    assert client.post("/organiser/import/", {"file": upload, "replace": "on"}).status_code == 403
    assert Event.objects.count() == 1


def test_an_organiser_named_by_a_superuser_may_open_the_import_page(client, event):
    from scoring.events.setup import grant_event_creation

    user = make_user("boss-y", "organiser", event)
    grant_event_creation(user)
    client.force_login(user)
    assert client.get("/organiser/import/").status_code == 200


@pytest.mark.parametrize("key", ["players", "pairs"])
def test_an_archive_of_more_people_than_any_event_is_refused_by_name(key):
    archive = four_pairs_two_rounds()
    archive[key] = archive[key] * (MAX_PEOPLE // len(archive[key]) + 1)
    with pytest.raises(ArchiveError) as refused:
        parse_archive(archive)
    assert key in refused.value.message and str(MAX_PEOPLE) in refused.value.message


def test_an_upload_over_the_cap_is_refused_with_its_size_and_nothing_written(client, event, monkeypatch):
    from scoring.events.setup import grant_event_creation
    from scoring.web.organiser.forms import ArchiveUploadForm

    user = make_user("boss-z", "organiser", event)
    grant_event_creation(user)
    client.force_login(user)
    monkeypatch.setattr(ArchiveUploadForm, "limit", 1024 * 1024)
    archive = four_pairs_two_rounds()
    archive["event"]["slug"] = "over-the-cap"
    archive["note"] = "x" * (1024 * 1024)
    upload = SimpleUploadedFile("big.json", json.dumps(archive).encode(), content_type="application/json")
    response = client.post("/organiser/import/", {"file": upload}, follow=True)
    assert any("1 MB" in str(m) for m in response.context["messages"])
    assert not Event.objects.filter(slug="over-the-cap").exists()
    monkeypatch.setattr(ArchiveUploadForm, "limit", 3 * 1024 * 1024)
    upload.seek(0)
    client.post("/organiser/import/", {"file": upload})  # under the cap: read from Django's temporary file
    assert Event.objects.filter(slug="over-the-cap").exists()


def test_nginx_takes_an_archive_as_large_as_the_site_does():
    """The cap is one figure: nginx's body limit for the import page is the form's."""
    from scoring.web.organiser.forms import ArchiveUploadForm

    conf = (REPO / "deploy" / "nginx" / "huapai-proxy.conf").read_text()
    location = conf[conf.index("location = /organiser/import/") :]
    megabytes = re.search(r"client_max_body_size (\d+)m;", location[: location.index("}")]).group(1)
    assert int(megabytes) * 1024 * 1024 == ArchiveUploadForm.limit
