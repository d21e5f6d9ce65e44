"""The scripts' texts (Django's JavaScript catalogue) at an address naming the language and the
content (scoring/web/catalog.py): a page in English names the English catalogue, the table page's
service worker keeps the catalogue of its page's language, and an address is kept for a year
because what it serves never changes."""

import re

import pytest
from django.conf import settings
from django.test import Client

from scoring.archive.database import import_archive
from scoring.models import Table
from tests.archives import pairs_archive

pytestmark = pytest.mark.django_db

CATALOGUE = re.compile(r"/jsi18n/([a-z-]+)/([0-9a-f]{12})\.js")


@pytest.fixture
def table():
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=2)
    archive["event"]["entry"] = "players"
    event = import_archive(archive)
    return Table.objects.get(round__event=event, number=1)


def in_language(language):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def catalogue_named_by(client, path):
    addresses = CATALOGUE.findall(client.get(path).content.decode())
    assert len(set(addresses)) == 1, addresses
    return addresses[0]


def test_each_language_has_its_own_address_and_its_own_texts(table):
    chinese = catalogue_named_by(in_language("zh-hans"), f"/t/{table.token}/")
    english = catalogue_named_by(in_language("en"), f"/t/{table.token}/")
    assert chinese[0] == "zh-hans" and english[0] == "en"
    assert chinese[1] != english[1]  # the digests of two different texts

    served = Client().get("/jsi18n/{}/{}.js".format(*english))
    assert served.status_code == 200 and served["Content-Type"].startswith("text/javascript")
    # A text of static/js/entry.js as locale/en/LC_MESSAGES/djangojs.po translates it.
    assert "Every card is assigned" in served.content.decode()
    assert "Every card is assigned" not in Client().get("/jsi18n/{}/{}.js".format(*chinese)).content.decode()
    control = served["Cache-Control"]
    assert "immutable" in control and "max-age=31536000" in control and "public" in control


def test_the_service_worker_keeps_the_catalogue_of_its_pages_language(table):
    for language in ("zh-hans", "en"):
        client = in_language(language)
        page = catalogue_named_by(client, f"/t/{table.token}/")
        worker = catalogue_named_by(client, f"/t/{table.token}/sw.js")
        assert worker == page
    chinese = in_language("zh-hans").get(f"/t/{table.token}/sw.js").content.decode()
    english = in_language("en").get(f"/t/{table.token}/sw.js").content.decode()
    # Another language is another cache: the worker's version moves with its assets.
    version = re.compile(r'"version": "([0-9a-f]+)"')
    assert version.search(chinese).group(1) != version.search(english).group(1)


def test_an_earlier_address_leads_to_the_current_one_and_a_language_not_offered_is_404(table):
    _language, digest = catalogue_named_by(in_language("en"), f"/t/{table.token}/")
    stale = Client().get(f"/jsi18n/en/{'0' * 12}.js")
    assert stale.status_code == 302 and stale["Location"] == f"/jsi18n/en/{digest}.js"
    assert "immutable" not in stale.get("Cache-Control", "")
    assert Client().get(f"/jsi18n/fr/{digest}.js").status_code == 404
    assert Client().get("/jsi18n/xx-../x.js").status_code == 404
    # The address pages named before, which a page loaded then may still ask for.
    unversioned = in_language("en").get("/jsi18n/")
    assert unversioned.status_code == 302 and unversioned["Location"] == f"/jsi18n/en/{digest}.js"
