"""Every public page in English shows no Chinese but the names of people, clubs, the event and
its venue, and what officials wrote in their own words (adjustment reasons, rulings, reasons for
a change), shown as written ("简体中文" too: the language menu names Chinese in Chinese)."""

import json
import re
from pathlib import Path

import pytest
from django.utils import timezone

from scoring.archive.database import import_archive
from scoring.models import Deal, DealHistory, Entrant, Irregularity, Player

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]+")
DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo-event.json"


@pytest.fixture
def demo():
    archive = json.loads(DEMO.read_text(encoding="utf-8"))
    return import_archive(archive)


def public_addresses(event):
    slug = event.slug
    yield "/"
    yield f"/events/{slug}/"
    for tail in (
        "standings/",
        "standings/?after=1",
        "changes/",
        "penalties/",
        "statistics/",
        "statistics/?sort=pigs",
        "cross/",
    ):
        yield f"/events/{slug}/{tail}"
    for code in Entrant.objects.filter(event=event).values_list("code", flat=True):
        yield f"/events/{slug}/entrants/{code}/"
    for rnd in event.rounds.exclude(draw_released_at=None):
        yield f"/events/{slug}/rounds/{rnd.number}/draw/"
    for rnd in event.rounds.published():
        yield f"/events/{slug}/rounds/{rnd.number}/"
        boards = sorted(set(rnd.tables.values_list("deals__board", flat=True)) - {None})
        for board in boards[:4]:
            yield f"/events/{slug}/rounds/{rnd.number}/boards/{board}/"


def allowed_words(event):
    words = {"简体中文", event.name, event.venue}
    for name, club in Player.objects.filter(event=event).values_list("name", "club"):
        words |= {name, club}
    words |= set(Entrant.objects.filter(event=event).values_list("name", flat=True))
    words |= set(Deal.objects.filter(table__round__event=event).values_list("adjusted_reason", flat=True))
    words |= set(Irregularity.objects.filter(deal__table__round__event=event).values_list("ruling", flat=True))
    words |= set(DealHistory.objects.filter(deal__table__round__event=event).values_list("reason", flat=True))
    return sorted((w for w in words if w), key=len, reverse=True)


def chinese_left(html, allowed):
    text = re.sub(r"<[^>]+>", " ", html)
    for word in allowed:
        text = text.replace(word, " ")
    return sorted({match.group() for match in HAN.finditer(text)})


def test_every_public_page_in_english_shows_no_chinese_but_names(client, demo):
    demo.rounds.filter(number=4).update(draw_released_at=timezone.now())
    client.cookies["django_language"] = "en"
    allowed = allowed_words(demo)
    found = {}
    for address in public_addresses(demo):
        response = client.get(address)
        assert response.status_code == 200, address
        assert '<html lang="en">' in response.text, address
        left = chinese_left(response.text, allowed)
        if left:
            found[address] = left
    assert not found, found


def test_english_pages_give_names_with_pinyin_and_the_breakdown_in_english(client, demo):
    client.cookies["django_language"] = "en"
    player = Player.objects.filter(event=demo).exclude(sort_key="").first()
    surname, *given = player.sort_key.split()
    romanised = f"{player.name} ({surname.title()} {''.join(given).title()})"
    assert romanised in client.get(f"/events/{demo.slug}/standings/").text
    boards = [client.get(f"/events/{demo.slug}/rounds/1/boards/{board}/").text for board in (1, 2, 3, 4)]
    assert any("pig −100" in text or "pig +100" in text for text in boards)
    assert not any("猪 −100" in text for text in boards)
