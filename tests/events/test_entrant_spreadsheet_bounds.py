"""An entrant spreadsheet is bounded before openpyxl reads it: by its unpacked size, the
columns read and each cell's length (docs/security.md). Each file below once held a worker
for seconds to minutes; now each is refused, or read, at once."""

import io
import zipfile

import pytest
from openpyxl import Workbook

from scoring.events.entrants import (
    MAX_CELL_CHARACTERS,
    MAX_PART_BYTES,
    SpreadsheetError,
    entrants_preview,
    read_rows,
)

pytestmark = pytest.mark.django_db

HEADER = ["编号", "姓名1", "姓名2", "单位"]


def workbook(rows, *, replace=None):
    """An xlsx file (as an upload-like handle) of `rows`; `replace` swaps a part's XML."""
    book = Workbook()
    sheet = book.active
    for row in [HEADER, *rows]:
        sheet.append(row)
    plain = io.BytesIO()
    book.save(plain)
    if not replace:
        plain.seek(0)
        return plain
    rewritten = io.BytesIO()
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as target:
        for part in source.infolist():
            target.writestr(part.filename, replace.get(part.filename, source.read(part.filename)))
        for name, xml in replace.items():
            if name not in source.namelist():
                target.writestr(name, xml)
    rewritten.seek(0)
    return rewritten


def sheet_xml(rows_xml, dimension="A1:D2"):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData>{rows_xml}</sheetData></worksheet>'
    )


def inline_row(number, values):
    cells = "".join(
        f'<c r="{column}{number}" t="inlineStr"><is><t>{value}</t></is></c>'
        for column, value in zip(_columns(len(values)), values, strict=True)
    )
    return f'<row r="{number}">{cells}</row>'


def _columns(count):
    letters = []
    for index in range(count):
        name, index = "", index + 1
        while index:
            index, remainder = divmod(index - 1, 26)
            name = chr(65 + remainder) + name
        letters.append(name)
    return letters


def test_a_sheet_of_a_thousand_columns_per_row_is_refused_before_it_is_parsed():
    # 2,000 rows × 1,000 cells (cell references are optional): a few kB packed, 30 MB unpacked.
    rows = "".join(f'<row r="{n}">' + "<c><v>7</v></c>" * 1000 + "</row>" for n in range(1, 2001))
    handle = workbook([], replace={"xl/worksheets/sheet1.xml": sheet_xml(rows)})
    assert len(handle.getvalue()) < 3 * 1024 * 1024  # under the upload limit: only the unpacked size tells
    with pytest.raises(SpreadsheetError) as refused:
        read_rows(handle)
    assert refused.value.code == "spreadsheet_too_large"


def test_a_million_shared_strings_in_a_few_kilobytes_are_refused():
    strings = "<si><t>x</t></si>" * 1_000_000
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1000000">{strings}</sst>'
    )
    handle = workbook([["A1", "张三", "李四", "太原"]], replace={"xl/sharedStrings.xml": xml})
    assert len(handle.getvalue()) < 200 * 1024
    with pytest.raises(SpreadsheetError) as refused:
        read_rows(handle)
    assert refused.value.code == "spreadsheet_too_large"


def test_a_sheet_claiming_columns_up_to_xfd_is_read_on_the_columns_an_entrant_fills():
    rows = inline_row(1, HEADER) + inline_row(2, ["A1", "张三", "李四", "太原"])
    handle = workbook([], replace={"xl/worksheets/sheet1.xml": sheet_xml(rows, dimension="A1:XFD1048576")})
    assert read_rows(handle) == [(2, {"id": "A1", "name1": "张三", "name2": "李四", "club": "太原"})]


def test_one_enormous_cell_is_cut_and_its_row_rejected_not_stored(event):
    huge = "名" * (MAX_PART_BYTES // 6)  # three bytes a character in the XML: just under a part's limit
    report = entrants_preview(event, workbook([["Z9", huge, "李四", "太原"], ["Z8", "王五", "赵六", ""]]))
    assert [entrant.code for entrant in report.to_create] == ["Z8"]
    assert [row for row, _reason in report.rejected] == [2]
    assert MAX_CELL_CHARACTERS < len(huge)


def test_a_file_that_is_not_a_zip_is_refused_with_a_code():
    with pytest.raises(SpreadsheetError) as refused:
        read_rows(io.BytesIO(b"name,club\n" * 100))
    assert refused.value.code == "not_xlsx"
