"""Reading an exported workbook back in tests."""

import io

from openpyxl import load_workbook


def sheet_rows(response, sheet):
    """The rows of `sheet` of a streamed xlsx response, as dicts keyed by the header row."""
    ws = load_workbook(io.BytesIO(b"".join(response.streaming_content)))[sheet]
    header = [cell.value for cell in ws[1]]
    return [dict(zip(header, [cell.value for cell in row], strict=True)) for row in ws.iter_rows(min_row=2)]
