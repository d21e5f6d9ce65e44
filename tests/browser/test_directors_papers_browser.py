"""An organiser finds every paper of issue 21 item 12 from the console, in Chromium: the draw for
the wall and the table cards from the round page, the cross table (PDF, Excel, the public page),
the end-of-event page with its results pack, and the entrant import template — each downloaded
and read back."""

import io
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from scoring.archive.database import import_archive
from tests.conftest import new_page
from tests.directors_event import directors_archive
from tests.referee_setup import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "t-director"
SHOTS = os.environ.get("HUAPAI_SCREENSHOTS")


def shot(page, name):
    """With HUAPAI_SCREENSHOTS=<folder>, the screenshots of docs/organising.md §8 and §12."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"organising-{name}.png"), full_page=True)


def download(page, selector):
    with page.expect_download() as caught:
        page.click(selector)
    return caught.value.suggested_filename, Path(caught.value.path()).read_bytes()


def pdf_text(data, tmp_path):
    path = tmp_path / "download.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_an_organiser_finds_every_new_paper_from_the_console(live_server, browser, tmp_path):
    event = import_archive(directors_archive())
    make_user("director", "organiser", event)
    page = new_page(browser, viewport={"width": 1024, "height": 768}, accept_downloads=True)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()

    page.goto(live_server.url + "/organiser/")
    page.click(f"a[href='/organiser/{SLUG}/']")

    name, data = download(page, "#cross-table-pdf")
    assert name == f"{SLUG}-cross-table-staff.pdf"
    text = pdf_text(data, tmp_path)
    assert "交叉表" in text and "张伟、李娜" in text and "+900" in text

    name, data = download(page, "#cross-table-xlsx")
    grid = load_workbook(io.BytesIO(data))["交叉表"]
    assert [cell.value for cell in grid[1]][:7] == ["编号", "名称", "A", "B", "C", "D", "E"]

    page.click("#end-of-event")
    page.wait_for_selector("#awards")
    shot(page, "9-end-of-event")
    assert "临时排名" in page.inner_text("#standings-state")
    awards = page.inner_text("#awards")
    assert awards.index("赵敏") < awards.index("陈静") < awards.index("张伟")  # third, second, first
    name, data = download(page, "#results-pack")
    members = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert f"{SLUG}-results/{SLUG}-cross-table.pdf" in members and f"{SLUG}-results/README.txt" in members

    page.go_back()
    page.click("#public-cross-table")
    page.wait_for_selector("#cross-table")
    shot(page, "10-cross-table")
    cells = page.locator("#cross-A td").all_inner_texts()
    assert [cell.split() for cell in cells[2:6]] == [[], ["2", "+900"], ["1", "0"], []]  # A against A, B, C, D

    page.goto(live_server.url + f"/organiser/{SLUG}/")
    page.click("#rounds a:text('第 3 轮')")
    name, data = download(page, "#wall-draw")
    text = pdf_text(data, tmp_path)
    assert "第 3 轮对阵表" in text and "按姓名" in text and "曾霞" in text
    name, data = download(page, "#table-cards")
    assert pdf_text(data, tmp_path).count("\f") == 2  # one page per table

    page.click("nav a:text('参赛者')")
    page.click("text=从 Excel 导入")
    name, data = download(page, "#import-template")
    assert name == f"{SLUG}-entrants-template.xlsx"
    assert [c.value for c in load_workbook(io.BytesIO(data)).worksheets[0][1]] == [
        "编号",
        "姓名1",
        "姓名2",
        "姓名3",
        "单位",
    ]
    page.context.close()
