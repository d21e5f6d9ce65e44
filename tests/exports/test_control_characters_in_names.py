"""Text typed by officials may hold control characters; every workbook still downloads."""

import io

import pytest
from openpyxl import load_workbook

from scoring.archive.database import import_archive
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db

BELL_AND_ESCAPE = "太原\x07公开赛\x1b"


@pytest.fixture
def event_named_with_control_characters():
    event = import_archive(four_pairs_two_rounds())
    event.name = BELL_AND_ESCAPE
    event.save(update_fields=["name"])
    return event


@pytest.mark.parametrize("workbook", ["standings.xlsx", "results.xlsx"])
def test_a_public_workbook_of_an_event_whose_name_holds_control_characters_downloads(
    client, event_named_with_control_characters, workbook
):
    response = client.get(f"/events/{event_named_with_control_characters.slug}/{workbook}")
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert book.properties.title.startswith("太原公开赛 · ")
    about = {row[0].value: row[1].value for row in book["说明"].iter_rows()}
    assert about["赛事"] == "太原公开赛"
