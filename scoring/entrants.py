"""Entrants from an organiser's spreadsheet (xlsx): rows checked one by one, a report of the rejected.

Columns, by header (Chinese or English): 编号/id, 姓名/name (individual) or
姓名1…姓名6/name1…name6 (pairs, teams), 队名/team (teams), 单位/club,
会员号/federation_id. Accepted rows are written in one transaction; each
rejected row is reported with its row number and the reason.
"""

import re
from dataclasses import dataclass, field

from django.db import transaction
from openpyxl import load_workbook

from scoring.models import Entrant, Membership, Player
from scoring.rules.errors import Refusal, Text, _
from scoring.versions import results_changed
from scoring.vocabulary import Kind

HEADERS = {
    "编号": "id",
    "id": "id",
    "姓名": "name",
    "name": "name",
    "队名": "team",
    "team": "team",
    "单位": "club",
    "club": "club",
    "会员号": "federation_id",
    "federation_id": "federation_id",
}
for n in range(1, 7):
    HEADERS[f"姓名{n}"] = f"name{n}"
    HEADERS[f"name{n}"] = f"name{n}"


# A real event has at most a few thousand entrants; a sheet longer than this is a mistake
# (or an attack: 300,000 empty rows fit in 129 KB and held a request for 30 s).
MAX_ROWS = 10_000
CODE = re.compile(r"[A-Za-z0-9_-]{1,20}")
NAME_LIMIT, CLUB_LIMIT, FEDERATION_LIMIT = 100, 100, 40


CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class SpreadsheetError(Refusal):
    """The file as a whole cannot be read; nothing was written."""

    def __init__(self, template, code="bad_spreadsheet", **params):
        super().__init__(code, template, **params)


@dataclass
class ImportReport:
    created: list = field(default_factory=list)  # entrant or player codes
    rejected: list = field(default_factory=list)  # (row number, reason as a `Text`)


def _text(value):
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # Control characters (NUL above all: PostgreSQL refuses it) never belong in a name.
    return CONTROL.sub("", str(value)).strip()


def read_rows(handle):
    """[(row number, {field: text})] from the first sheet; unknown columns are ignored."""
    sheet = load_workbook(handle, read_only=True, data_only=True).worksheets[0]
    rows = sheet.iter_rows(values_only=True)
    header = next(rows, None) or ()
    fields = [HEADERS.get(_text(title).lower(), HEADERS.get(_text(title))) for title in header]
    result = []
    for number, values in enumerate(rows, start=2):
        if number > MAX_ROWS + 1:
            raise SpreadsheetError(_("超过 {rows} 行，请分批导入"), rows=MAX_ROWS)
        record = {f: _text(v) for f, v in zip(fields, values, strict=False) if f}
        if any(record.values()):
            result.append((number, record))
    return result


def entrants_import(event, handle):
    """Check every row, then create the accepted ones. Returns an `ImportReport`."""
    report = ImportReport()
    rows = read_rows(handle)
    taken = set(Player.objects.filter(event=event).values_list("code", flat=True))
    taken |= set(Entrant.objects.filter(event=event).values_list("code", flat=True))
    accepted = []
    for number, record in rows:
        code = record.get("id", "")
        if event.kind == Kind.INDIVIDUAL:
            names = [record.get("name") or record.get("name1", "")]
        else:
            names = [record[f"name{n}"] for n in range(1, 7) if record.get(f"name{n}")]
        needed = {"pairs": (2, 2), "teams": (2, 6), "individual": (1, 1)}[event.kind]
        if not code:
            report.rejected.append((number, Text(_("缺少编号"))))
        elif not CODE.fullmatch(code):
            report.rejected.append((number, Text(_("编号 {id!r:.40} 只能含字母、数字、- 和 _（1–20 个）"), id=code)))
        elif any(len(name) > NAME_LIMIT for name in names) or len(record.get("club", "")) > CLUB_LIMIT:
            report.rejected.append((number, Text(_("姓名或单位超过 {limit} 个字"), limit=NAME_LIMIT)))
        elif code in taken:
            report.rejected.append((number, Text(_("编号重复：{id}"), id=code)))
        elif not needed[0] <= len([n for n in names if n]) <= needed[1]:
            report.rejected.append((number, Text(_("需要 {least}–{most} 个姓名"), least=needed[0], most=needed[1])))
        else:
            taken.add(code)
            accepted.append((code, names, record))
    with transaction.atomic():
        for code, names, record in accepted:
            if event.kind == Kind.INDIVIDUAL:
                player = Player.objects.create(
                    event=event,
                    code=code,
                    name=names[0],
                    club=record.get("club", ""),
                    federation_id=record.get("federation_id", "")[:FEDERATION_LIMIT],
                )
                # Ranked as an entrant of one, with the player's number.
                entrant = Entrant.objects.create(event=event, code=code)
                Membership.objects.create(entrant=entrant, player=player, position=1)
            else:
                entrant = Entrant.objects.create(event=event, code=code, name=record.get("team", ""))
                for position, name in enumerate(names, start=1):
                    player = Player.objects.create(
                        event=event, code=f"{code}-{position}", name=name, club=record.get("club", "")
                    )
                    Membership.objects.create(entrant=entrant, player=player, position=position)
            report.created.append(code)
        if accepted:
            results_changed(event)
    return report
