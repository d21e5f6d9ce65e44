"""Standings after round N list only the entrants in the event by then, and a withdrawn entrant
is marked on every page, picture and paper of the standings (issue 21, item 3).

A B C D play two rounds (T1/T7, then T2/T1); E is a late entry first paired in round 3, so it is
in no standings of rounds 1–2 (a published standing never gains a row afterwards); D withdraws
after round 2: not marked after round 1, marked after round 2 and now.
"""

import io
import re

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from scoring.engine.standings import Format, MatchResult, TableResult, compute_standings
from scoring.models import Entrant, Membership, Player
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db


def test_the_engine_leaves_a_late_entry_out_of_standings_that_end_before_it_joined():
    match = MatchResult(round=1, home="A", away="B", tables=[TableResult.from_deals("A", "B", [])])
    codes = ["A", "B", "E"]
    after_one = compute_standings(Format(), [match], codes, after_round=1, joined={"E": 2})
    assert [row.id for row in after_one] == ["A", "B"] or sorted(row.id for row in after_one) == ["A", "B"]
    assert sorted(row.id for row in compute_standings(Format(), [match], codes, after_round=2, joined={"E": 2})) == [
        "A",
        "B",
        "E",
    ]
    # Without an end round, the standings end with the last round played: round 1.
    assert "E" not in [row.id for row in compute_standings(Format(), [match], codes, joined={"E": 2})]
    # Pairing asks without `joined`, and the late entry is there to be paired.
    assert "E" in [row.id for row in compute_standings(Format(), [match], codes)]


@pytest.fixture
def event():
    event = import_archive(four_pairs_two_rounds())
    late = Entrant.objects.create(event=event, code="E", joined_round=3)
    for position, code in enumerate(("p09", "p10"), start=1):
        player = Player.objects.create(event=event, code=code, name=f"晚到{position}")
        Membership.objects.create(entrant=late, player=player, position=position)
    Entrant.objects.filter(event=event, code="D").update(withdrawn_after_round=2)
    from scoring.cache import announce_results_changed

    announce_results_changed(event, public=True)
    return event


def codes_and_names(client, query):
    """{code: the row's text} of the standings table (the code is its second cell)."""
    page = client.get(f"/events/t-pairs/standings/{query}").content.decode()
    body = page[page.index('id="standings"') :]
    body = body[body.index("<tbody") : body.index("</tbody>")]
    rows = {}
    for row in re.findall(r"<tr.*?</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(r"<td.*?</td>", row, re.S)]
        rows[" ".join(cells[1])] = " ".join(word for cell in cells for word in cell)
    return rows


def test_the_standings_page_after_each_round(client, event):
    after_one = codes_and_names(client, "?after=1")
    assert sorted(after_one) == ["A", "B", "C", "D"]
    assert "退赛" not in after_one["D"]
    after_two = codes_and_names(client, "?after=2")
    assert sorted(after_two) == ["A", "B", "C", "D"]  # E joins in round 3
    assert "（退赛）" in after_two["D"] and all("退赛" not in text for code, text in after_two.items() if code != "D")
    assert "（退赛）" in codes_and_names(client, "")["D"]


def test_the_workbook_sheets_after_each_round(client, event):
    response = client.get("/events/t-pairs/standings.xlsx")
    workbook = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    for title in ("排名", "第1轮后", "第2轮后"):
        rows = list(workbook[title].iter_rows(min_row=2, values_only=True))
        header = [cell.value for cell in workbook[title][1]]
        codes = [row[header.index("编号")] for row in rows]
        assert sorted(codes) == ["A", "B", "C", "D"], title
        names = {row[header.index("编号")]: row[header.index("选手")] for row in rows}
        assert ("退赛" in names["D"]) == (title != "第1轮后"), title


def test_the_pdf_the_picture_and_the_entrants_page_mark_the_withdrawal(client, event, monkeypatch):
    reader = PdfReader(io.BytesIO(b"".join(client.get("/events/t-pairs/standings.pdf").streaming_content)))
    text = "".join(page.extract_text() for page in reader.pages)
    assert "（退赛）" in text and "晚到" not in text

    from scoring.exports import image

    drawn = {}
    original = image.write_public_standings

    def spy(out, event, rows, **kwargs):
        drawn["names"] = {row["id"]: row["name"] for row in rows}
        return original(out, event, rows, **kwargs)

    monkeypatch.setattr(image, "write_public_standings", spy)
    assert client.get("/events/t-pairs/standings.png").status_code == 200
    assert sorted(drawn["names"]) == ["A", "B", "C", "D"] and "（退赛）" in drawn["names"]["D"]

    page = client.get("/events/t-pairs/entrants/D/").content.decode()
    assert "退赛（第 2 轮后）" in page
    assert "退赛" not in client.get("/events/t-pairs/entrants/A/").content.decode()
