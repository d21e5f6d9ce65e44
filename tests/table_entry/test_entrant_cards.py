"""Entrant cards and the score sheets' QR code in players' entry (table-api.md): the personal
codes are printed on the organisers' entrant cards only, and a table's link on the officials'
score sheets only; the public's files carry neither."""

import re
import subprocess

import pytest

from scoring.archive.database import import_archive
from scoring.exports.entrant_cards import entrant_cards_data
from scoring.exports.sources import scoresheet_data
from scoring.models import Entrant, Event, Round, Table
from tests.archives import deal, four_pairs_two_rounds, individual_archive, pairs_archive, team_match
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

CARDS = "/organiser/t-pairs/entrants/cards.pdf"
WARNING = "本队/本人的录入码，请勿告诉对手"


@pytest.fixture
def event():
    archive = four_pairs_two_rounds()
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def body(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


def pdf_text(data, tmp_path):
    path = tmp_path / "paper.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def pdf_fonts(data, tmp_path):
    path = tmp_path / "fonts.pdf"
    path.write_bytes(data)
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
    return lines[2:]


def squeezed(text):
    return re.sub(r"\s+", "", text)


def codes(event):
    return dict(Entrant.objects.filter(event=event).values_list("code", "access_code"))


# --- the entrant cards ---------------------------------------------------------------------------


def test_an_organiser_gets_a_card_per_entrant_with_its_code_and_public_address(client, event, tmp_path):
    client.force_login(make_user("boss", "organiser", event))
    response = client.get(CARDS)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    # An officials' file: no shared cache keeps it, and its name says so.
    assert {"private", "no-store"} <= {part.strip() for part in response["Cache-Control"].split(",")}
    assert "t-pairs-entrant-cards-staff.pdf" in response["Content-Disposition"]
    data = body(response)
    fonts = pdf_fonts(data, tmp_path)
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # every font embedded
    text = pdf_text(data, tmp_path)
    flat = squeezed(text)
    pages = [page for page in text.split("\f") if page.strip()]
    assert len(pages) == 1  # four cards, eight to a page
    assert flat.count(squeezed(WARNING)) == 4 and flat.count("测试双人赛") >= 4
    for code, access_code in codes(event).items():
        assert access_code in flat, code
        assert f"http://testserver/events/t-pairs/entrants/{code}/" in flat
    # By entrant number (pdftotext reads a row of two cards side by side), with the names.
    assert [flat.index(codes(event)[code]) for code in "ABCD"] == sorted(flat.index(c) for c in codes(event).values())
    for names in ("赵某1、钱某2", "孙某3、李某4", "周某5、吴某6", "郑某7、王某8"):
        assert names in flat
    card = entrant_cards_data(event, lambda entrant: entrant.code)[1]
    assert (card["code"], card["players"], card["access_code"]) == ("B", ["孙某3", "李某4"], codes(event)["B"])


def test_withdrawn_entrants_get_no_card(client, event, tmp_path):
    Entrant.objects.filter(event=event, code="D").update(withdrawn_after_round=2)
    client.force_login(make_user("boss", "organiser", event))
    flat = squeezed(pdf_text(body(client.get(CARDS)), tmp_path))
    assert codes(event)["D"] not in flat and "郑某7" not in flat
    assert all(codes(event)[code] in flat for code in "ABC")
    assert flat.count(squeezed(WARNING)) == 3


def test_cards_go_eight_to_a_page_in_the_order_of_the_numbers():
    numbers = [f"A{n}" for n in range(1, 11)]
    event = import_archive(pairs_archive(numbers, [], slug="t-many"))
    cards = entrant_cards_data(event, lambda entrant: f"https://example.org/{entrant.code}/")
    assert [card["code"] for card in cards] == numbers  # A2 before A10
    assert cards[0]["players"] == ["赵某1", "钱某2"] and cards[0]["url"] == "https://example.org/A1/"
    assert cards[0]["access_code"] == Entrant.objects.get(event=event, code="A1").access_code


def test_ten_cards_take_two_pages(client, tmp_path):
    event = import_archive(pairs_archive([f"A{n}" for n in range(1, 11)], [], slug="t-many"))
    client.force_login(make_user("boss", "organiser", event))
    text = pdf_text(body(client.get("/organiser/t-many/entrants/cards.pdf")), tmp_path)
    pages = [squeezed(page) for page in text.split("\f") if page.strip()]
    assert [page.count(squeezed(WARNING)) for page in pages] == [8, 2]
    assert codes(event)["A10"] in pages[1] and codes(event)["A8"] in pages[0]


def test_a_team_card_names_the_team_and_its_members_and_a_player_card_the_player(client, tmp_path):
    teams = import_archive(team_match([deal("T1", 1)], [deal("T1", 1)], status="official"))
    client.force_login(make_user("boss", "organiser", teams))
    flat = squeezed(pdf_text(body(client.get("/organiser/t-teams/entrants/cards.pdf")), tmp_path))
    for word in ("甲队", "乙队", "赵某1", "李某4", *codes(teams).values()):
        assert word in flat
    alone = import_archive(individual_archive())
    client.force_login(make_user("boss2", "organiser", alone))
    flat = squeezed(pdf_text(body(client.get("/organiser/t-ind/entrants/cards.pdf")), tmp_path))
    assert flat.count(squeezed(WARNING)) == 4
    for code, access_code in codes(alone).items():
        assert access_code in flat and f"/events/t-ind/entrants/{code}/" in flat


def test_only_the_events_organisers_get_the_cards(client, event):
    anonymous = client.get(CARDS)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(make_user("ref", "referee", event))
    assert client.get(CARDS).status_code == 403
    client.force_login(make_user("outsider"))
    assert client.get(CARDS).status_code == 403
    other = import_archive(four_pairs_two_rounds(slug="t-other"))
    client.force_login(make_user("other-boss", "organiser", other))
    assert client.get(CARDS).status_code == 403


def test_the_entrants_page_and_the_round_page_link_the_cards(client, event):
    client.force_login(make_user("boss", "organiser", event))
    for page in ("/organiser/t-pairs/entrants/", "/organiser/t-pairs/rounds/1/"):
        assert CARDS in client.get(page).content.decode(), page
    # Nothing public links them.
    client.logout()
    for page in ("/events/t-pairs/", "/events/t-pairs/entrants/A/"):
        assert "cards.pdf" not in client.get(page).content.decode(), page


# --- the score sheets' QR code -----------------------------------------------------------------


def referee_url(event, rnd):
    return lambda table: f"https://example.org/referee/{event.slug}/rounds/{rnd.number}/tables/{table.number}/boards/1/"


def table_url(table):
    return f"https://example.org/t/{table.token}/"


def test_in_players_entry_the_officials_sheet_points_at_the_tables_link(event):
    rnd = Round.objects.get(event=event, number=1)
    sheets = scoresheet_data(event, rnd, entry_url=referee_url(event, rnd), table_url=table_url)
    tokens = {t.number: t.token for t in Table.objects.filter(round=rnd)}
    assert [sheet["url"] for sheet in sheets] == [f"https://example.org/t/{tokens[n]}/" for n in (1, 2)]
    assert {sheet["qr_caption"] for sheet in sheets} == {"扫码本桌录入"}


def test_in_referees_entry_or_without_the_link_the_sheet_points_at_the_referees_page(event):
    rnd = Round.objects.get(event=event, number=1)
    public = scoresheet_data(event, rnd, entry_url=referee_url(event, rnd))  # the public's sheets
    Event.objects.filter(pk=event.pk).update(entry=Event.Entry.REFEREES)
    event.refresh_from_db()
    referees = scoresheet_data(event, rnd, entry_url=referee_url(event, rnd), table_url=table_url)
    for sheets in (public, referees):
        assert [sheet["url"] for sheet in sheets] == [
            f"https://example.org/referee/t-pairs/rounds/1/tables/{n}/boards/1/" for n in (1, 2)
        ]
        assert {sheet["qr_caption"] for sheet in sheets} == {"扫码录入本桌"}
        tokens = [t.token for t in Table.objects.filter(round=rnd)]
        assert not any(token in str(sheets) for token in tokens)


def test_the_public_score_sheets_never_carry_a_tables_link(client, event, tmp_path):
    tokens = list(Table.objects.filter(round__event=event, round__number=1).values_list("token", flat=True))
    client.force_login(make_user("boss", "organiser", event))
    officials = squeezed(pdf_text(body(client.get("/events/t-pairs/rounds/1/scoresheets.pdf")), tmp_path))
    assert all(f"/t/{token}/" in officials for token in tokens) and "扫码本桌录入" in officials
    asked_public = client.get("/events/t-pairs/rounds/1/scoresheets.pdf?scope=public")
    client.logout()
    anonymous = client.get("/events/t-pairs/rounds/1/scoresheets.pdf")
    for response in (asked_public, anonymous):
        assert response.status_code == 200
        text = squeezed(pdf_text(body(response), tmp_path))
        assert "/referee/t-pairs/rounds/1/tables/1/boards/1/" in text and "扫码录入本桌" in text
        assert not any(token in text for token in tokens) and "/t/" not in text
