"""The standings image (PNG) for chat groups, read back with Pillow."""

import io
import os

import pytest
from PIL import Image

from scoring.archive.database import import_archive
from scoring.results.standings_json import standings_json
from tests.archives import four_pairs_two_rounds
from tests.pictures import read_line

pytestmark = pytest.mark.django_db

ACCENT = (198, 40, 40)
ROW, TOP, BOTTOM = 52, 150, 90


@pytest.fixture
def published():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["status"] = "in_play"
    return import_archive(archive)


def picture(response):
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    if os.environ.get("HUAPAI_SCREENSHOTS"):
        image.save(os.path.join(os.environ["HUAPAI_SCREENSHOTS"], "standings.png"))
    return image.convert("RGB")


def test_the_image_has_a_line_per_entrant_of_the_public_standings(client, published):
    image = picture(client.get("/events/t-pairs/standings.png"))
    rows = standings_json(published, published_only=True)["rows"]
    assert image.width == 1080
    assert image.height == TOP + ROW * (len(rows) + 1) + BOTTOM
    # The podium's ranks are printed in red: some red pixels in the rank column of the first line.
    first_line = image.crop((36, TOP + ROW, 36 + 90, TOP + 2 * ROW))
    assert ACCENT in {colour for _, colour in first_line.getcolors(10_000)}
    # A line past the podium has no red.
    if len(rows) > 3 and rows[3]["rank"] > 3:
        fourth = image.crop((36, TOP + 4 * ROW, 36 + 90, TOP + 5 * ROW))
        assert ACCENT not in {colour for _, colour in fourth.getcolors(10_000)}


def test_the_image_is_cut_at_the_chosen_length_and_answers_an_unpublished_round_with_404(client, published):
    image = picture(client.get("/events/t-pairs/standings.png?per_page=25&after=1"))
    assert image.height == TOP + ROW * (4 + 1) + BOTTOM
    assert client.get("/events/t-pairs/standings.png?after=2").status_code == 404
    # Anything but an offered length goes to the image's own address, and longer ones to 100 rows.
    assert client.get("/events/t-pairs/standings.png?per_page=-1")["Location"] == "/events/t-pairs/standings.png"
    assert client.get("/events/t-pairs/standings.png?per_page=500")["Location"].endswith("per_page=100")


@pytest.mark.parametrize(
    ("tiebreaks", "headings"),
    [
        (["match_points", "score_difference", "head_to_head", "penalties"], ["场分", "得分差", "相互间场分", "罚分"]),
        (["total_score", "match_points"], ["总得分", "场分"]),
    ],
)
def test_the_image_shows_every_figure_that_orders_its_rows(client, published, monkeypatch, tiebreaks, headings):
    """Ranked on 得分差, the picture shows 得分差: each tie-break with a figure is a column."""
    from scoring.exports import image as drawing
    from scoring.models import Event

    Event.objects.filter(pk=published.pk).update(tiebreaks=tiebreaks)
    seen = {}
    original = drawing.write_standings_png

    def spy(out, *, columns, **kwargs):
        seen["columns"] = columns
        return original(out, columns=columns, **kwargs)

    monkeypatch.setattr(drawing, "write_standings_png", spy)
    picture(client.get("/events/t-pairs/standings.png"))
    assert [heading for heading, *_ in seen["columns"]][3:] == headings
    assert sum(width for _h, _k, width, _a in seen["columns"]) <= 1080 - 2 * 36
    rows = standings_json(published, published_only=True)["rows"]
    assert all(key in rows[0] for _h, key, *_ in seen["columns"] if key not in ("name", "head_to_head_mark"))


def subtitle_words(image):
    """The words of the picture's subtitle (grey, under the title), read off the picture."""
    from scoring.exports.image import MUTED

    vocabulary = ["排名", "最终成绩", "成绩为正式成绩", "成绩为临时成绩", "·"]
    line = read_line(image, (0, 84, 1080, 128), vocabulary, size=24, background="white", ink=MUTED)
    return [word for _left, _right, word in line if word]


def test_a_closed_events_picture_says_its_standings_are_final(client):
    """Issue 21 item 9: read off the picture, "最终成绩" once the event is closed, not before."""
    from scoring.events.closing import event_finish
    from scoring.models import Event
    from tests.referee_setup import make_user

    event = import_archive(four_pairs_two_rounds())  # both rounds official
    Event.objects.filter(pk=event.pk).update(planned_rounds=2)
    before = subtitle_words(picture(client.get("/events/t-pairs/standings.png")))
    assert before[:1] == ["排名"] and "最终成绩" not in before and "成绩为正式成绩" in before
    event_finish(Event.objects.get(pk=event.pk), user=make_user("boss", "organiser", event))
    after = subtitle_words(picture(client.get("/events/t-pairs/standings.png")))
    assert after[:3] == ["排名", "·", "最终成绩"] and "成绩为正式成绩" in after


def test_a_row_that_head_to_head_separated_shows_the_score_between_them():
    """Issue 21 item 4: two pairs equal on 场分 and 得分差, ranked 2 and 3 by the 场分 they won
    against each other (2:0): the picture's 相互间场分 column says so on the lower row."""
    from scoring.exports.image import head_to_head_mark

    assert head_to_head_mark({"criterion": "head_to_head", "this": 0, "above": 2, "same": ["match_points"]}) == "0:2"
    assert head_to_head_mark({"criterion": "score_difference", "this": 10, "above": 40, "same": []}) == ""
    assert head_to_head_mark(None) == "" and head_to_head_mark("场分相同") == ""
