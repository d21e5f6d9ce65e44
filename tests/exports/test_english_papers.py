"""Every paper downloaded from the English site is English (the director's report: 跑胡子's and
升级's PDFs and workbooks printed Chinese headings, titles, notes and brackets). Read back with
pdftotext and openpyxl; what may stay Chinese is people's and the event's names, and 跑胡子's own
terms, which the English pages keep as they are beside their English (docs/games/paohuzi.md)."""

import io
import re
import subprocess
import zipfile

import pytest
from openpyxl import load_workbook

from scoring.archive.database import import_archive
from scoring.models import Player
from tests.archives import paohuzi_archive, shengji_archive
from tests.directors_event import directors_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

# Han characters and the full-width punctuation of Chinese text (（）：、；…); the full-width minus is
# the printed minus sign of every paper (the embedded font has no U+2212, pdf_common.MINUS).
CHINESE = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uff0c\uff0e-\uffef]+")
PAOHUZI_TERMS = {"胡息", "囤", "省", "底", "王霸", "自摸", "黄庄", "他家翻出", "放炮", "王钓", "王钓王", "王闯"}
PAPERS = (
    "standings.pdf",
    "standings.xlsx",
    "results.xlsx",
    "rounds/1/results.pdf",
    "rounds/1/travellers.pdf",
    "rounds/1/scoresheets.pdf",
    "rounds/1/draw.pdf",
    "rounds/1/table-cards.pdf",
)
PAIRS_PAPERS = ("cross-table.pdf", "cross-table.xlsx")  # an event of sides (升级's pairs)


def text_of(url, data, tmp_path):
    if url.endswith(".pdf"):
        path = tmp_path / "paper.pdf"
        path.write_bytes(data)
        return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True).stdout
    workbook = load_workbook(io.BytesIO(data))
    cells = [ws.title for ws in workbook]
    cells += [str(c) for ws in workbook for row in ws.iter_rows(values_only=True) for c in row if c is not None]
    return "\n".join(cells)


@pytest.mark.parametrize(
    ("archive", "kept"), [(paohuzi_archive, PAOHUZI_TERMS), (shengji_archive, set())], ids=["paohuzi", "shengji"]
)
def test_every_paper_downloaded_in_english_is_english(client, tmp_path, archive, kept):
    event = import_archive(archive(status="provisional"))
    client.force_login(make_user("boss", "organiser", event))
    client.get("/language/en/?next=/")
    names = sorted({*Player.objects.filter(event=event).values_list("name", flat=True), event.name}, key=len)
    papers = [f"/events/{event.slug}/{url}" for url in PAPERS + (PAIRS_PAPERS if event.kind != "individual" else ())]
    for url in [*papers, f"/organiser/{event.slug}/entrants/cards.pdf"]:
        response = client.get(url)
        assert response.status_code == 200, url
        text = text_of(url, b"".join(response.streaming_content), tmp_path)
        for name in reversed(names):
            text = text.replace(name, "")
        assert set(CHINESE.findall(text)) <= kept, url
    pack = zipfile.ZipFile(
        io.BytesIO(b"".join(client.get(f"/organiser/{event.slug}/results-pack.zip").streaming_content))
    )
    readme = pack.read(f"{event.slug}-results/README.txt").decode("utf-8-sig").replace(event.name, "")
    assert not CHINESE.search(readme), readme


def test_huapai_travellers_and_results_workbook_read_in_english(client, tmp_path):
    """华牌's papers follow the download's language too (its score sheet included); clubs are names."""
    event = import_archive(directors_archive())
    client.force_login(make_user("boss", "organiser", event))
    client.get("/language/en/?next=/")
    names = {*Player.objects.filter(event=event).values_list("name", "club"), (event.name, "")}
    papers = (
        "rounds/1/travellers.pdf",
        "results.xlsx",
        "rounds/1/results.pdf",
        "standings.pdf",
        "rounds/1/scoresheets.pdf",
    )
    for url in papers:
        text = text_of(url, b"".join(client.get(f"/events/{event.slug}/{url}").streaming_content), tmp_path)
        for name in sorted({part for pair in names for part in pair if part}, key=len, reverse=True):
            text = text.replace(name, "")
        assert not CHINESE.search(text), (url, set(CHINESE.findall(text)))
