"""The entrant import template: a workbook with the header row the importer reads
(`scoring.events.entrants.TEMPLATE_COLUMNS`, by the event's kind) and one example line it
accepts, to be overwritten; a second sheet says how to fill it (the importer reads the first)."""

from openpyxl import Workbook
from openpyxl.styles import Font

from scoring.events.entrants import MAX_ROWS, TEMPLATE_COLUMNS
from scoring.exports.xlsx import describe, display_width

TEXT_ROWS = 500
HOW_TO = {
    "pairs": "每对一行：编号、两名选手的姓名、单位（可空）。",
    "teams": "每队一行：编号、队名、2–6 名队员的姓名（姓名1…姓名6，多余的留空）、单位（可空）。",
    "individual": "每人一行：编号、姓名、单位（可空）、会员号（可空）。",
}


def write_entrant_template(out, event):
    columns = TEMPLATE_COLUMNS[event.kind]
    wb = Workbook()
    ws = wb.active
    ws.title = "参赛者"
    ws.append([title for title, _example in columns])
    ws.append([example or None for _title, example in columns])
    for cell in ws[1]:
        cell.font = Font(bold=True)
        ws.column_dimensions[cell.column_letter].width = max(10, display_width(cell.value) + 4)
    ws.freeze_panes = "A2"
    # Numbers stay text in the first rows an organiser fills: 007 typed there stays 007, not 7.
    for row in range(2, TEXT_ROWS + 2):
        ws.cell(row=row, column=1).number_format = "@"
    notes = wb.create_sheet("填写说明")
    for line in (
        HOW_TO[event.kind],
        "第一行是列名，不要改；第二行是示例，请改成真实的参赛者（或删除）。",
        "编号只能含字母、数字、- 和 _（1–20 个字符），不能重复。",
        f"一次最多 {MAX_ROWS} 行；上传后先预览，确认后才写入。只读取第一个工作表。",
    ):
        notes.append([line])
    notes.column_dimensions["A"].width = 90
    describe(wb, event, "参赛者导入模板", "")
    wb.save(out)
