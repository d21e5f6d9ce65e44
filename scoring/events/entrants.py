"""Entrants from an organiser's spreadsheet (xlsx): rows checked one by one, a report of the rejected.

Columns, by header (Chinese or English): 编号/id, 姓名/name (individual) or
姓名1…姓名6/name1…name6 (pairs, teams), 队名/team (teams), 单位/club,
会员号/federation_id. Accepted rows are written in one transaction; each
rejected row is reported with its row number and the reason.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db import transaction
from openpyxl import load_workbook

from scoring.cache import announce_results_changed
from scoring.engine.vocabulary import Kind
from scoring.games.refusals import Refusal, Text, _
from scoring.models import Entrant, Membership, Player
from scoring.rounds.creation import hold_round_numbers, next_round_number

if TYPE_CHECKING:
    from io import BytesIO
    from typing import Any

    from scoring.models import Event

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


# The import template (`scoring.exports.entrant_template`): the columns this importer reads, in
# the order an organiser fills them, and an example line it accepts, by the event's kind.
TEMPLATE_COLUMNS = {
    Kind.PAIRS: [("编号", "A01"), ("姓名1", "张三"), ("姓名2", "李四"), ("姓名3", ""), ("单位", "太原")],
    Kind.TEAMS: [
        ("编号", "T01"),
        ("队名", "太原一队"),
        *((f"姓名{n}", name) for n, name in enumerate(["张三", "李四", "王五", "赵六", "", ""], start=1)),
        ("单位", "太原"),
    ],
    Kind.INDIVIDUAL: [("编号", "P01"), ("姓名", "张三"), ("单位", "太原"), ("会员号", "")],
}

# A real event has at most a few thousand entrants; a sheet longer than this is a mistake
# (or an attack: 300,000 empty rows fit in 129 KB and held a request for 30 s).
MAX_ROWS = 10_000
CODE = re.compile(r"[A-Za-z0-9_-]{1,20}")
NAME_LIMIT, CLUB_LIMIT, FEDERATION_LIMIT = 100, 100, 40


CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class SpreadsheetError(Refusal):
    """The file as a whole cannot be read; nothing was written."""

    def __init__(self, template: str, code: str = "bad_spreadsheet", **params: int) -> None:
        super().__init__(code, template, **params)


@dataclass
class ImportReport:
    to_create: list = field(default_factory=list)  # NewEntrant, checked
    rejected: list = field(default_factory=list)  # (row number, reason as a `Text`)


def _text(value: str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # Control characters (NUL above all: PostgreSQL refuses it) never belong in a name.
    return CONTROL.sub("", str(value)).strip()


# What a spreadsheet of MAX_ROWS entrants needs, with room to spare. openpyxl reads whatever
# the file claims (a million shared strings in 43 KB, columns up to XFD in a 2 KB sheet, one
# 150 MB string): the zip's directory is checked against these before any XML is parsed, and
# only the columns an entrant can fill are read.
MAX_UNPACKED_BYTES = 24 * 1024 * 1024  # all the parts together
MAX_PART_BYTES = 8 * 1024 * 1024  # one sheet, or the shared strings
MAX_PARTS = 200
MAX_COLUMNS = 2 * len(HEADERS)  # every known header once, and as many unknown ones
MAX_CELL_CHARACTERS = 1000


def _check_unpacked_size(handle: BytesIO) -> None:
    """Refuse, from the zip's directory alone, a workbook whose XML would take too long to read."""
    try:
        with zipfile.ZipFile(handle) as workbook:
            parts = workbook.infolist()
    except (zipfile.BadZipFile, OSError, EOFError) as broken:
        raise SpreadsheetError(_("无法读取这个文件，请上传 .xlsx"), code="not_xlsx") from broken
    finally:
        handle.seek(0)
    if (
        len(parts) > MAX_PARTS
        or sum(part.file_size for part in parts) > MAX_UNPACKED_BYTES
        or any(part.file_size > MAX_PART_BYTES for part in parts)
    ):
        raise SpreadsheetError(
            _("表格内容过大（解压后超过 {megabytes} MB），请只保留报名所需的列和行"),
            code="spreadsheet_too_large",
            megabytes=MAX_UNPACKED_BYTES // 1024 // 1024,
        )


def read_rows(handle: BytesIO) -> list[tuple[int, Any]]:
    """[(row number, {field: text})] from the first sheet; unknown columns are ignored."""
    _check_unpacked_size(handle)
    sheet = load_workbook(handle, read_only=True, data_only=True).worksheets[0]
    rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
    header = next(rows, None) or ()
    fields = [HEADERS.get(_text(title).lower(), HEADERS.get(_text(title))) for title in header]
    result = []
    for number, values in enumerate(rows, start=2):
        if number > MAX_ROWS + 1:
            raise SpreadsheetError(_("超过 {rows} 行，请分批导入"), rows=MAX_ROWS)
        record = {f: _text(v)[:MAX_CELL_CHARACTERS] for f, v in zip(fields, values, strict=False) if f}
        if any(record.values()):
            result.append((number, record))
    return result


@dataclass(frozen=True)
class NewEntrant:
    """One entrant to create: checked, plain data (a preview keeps these in the session)."""

    code: str
    names: tuple
    club: str = ""
    team: str = ""
    federation_id: str = ""

    def as_dict(self) -> Any:
        return {
            "code": self.code,
            "names": list(self.names),
            "club": self.club,
            "team": self.team,
            "federation_id": self.federation_id,
        }


# A pair's third name is its registered substitute (替补), who may sit in a later 节.
NAMES_NEEDED = {Kind.PAIRS: (2, 3), Kind.TEAMS: (2, 6), Kind.INDIVIDUAL: (1, 1)}


def taken_codes(event: Event) -> set[str]:
    taken = set(Player.objects.filter(event=event).values_list("code", flat=True))
    return taken | set(Entrant.objects.filter(event=event).values_list("code", flat=True))


def entrant_problem(
    event: Event, code: str, names: list[str] | tuple[str, str], club: str = "", taken: set[str] | tuple[()] = ()
) -> Text | None:
    """Why this entrant cannot be added (a `Text`), or None."""
    least, most = NAMES_NEEDED[event.kind]
    if not code:
        return Text(_("缺少编号"))
    if not CODE.fullmatch(code):
        return Text(_("编号 {id!r:.40} 只能含字母、数字、- 和 _（1–20 个）"), id=code)
    if any(len(name) > NAME_LIMIT for name in names) or len(club) > CLUB_LIMIT:
        return Text(_("姓名或单位超过 {limit} 个字"), limit=NAME_LIMIT)
    if any(CONTROL.search(name) for name in (*names, club)):
        return Text(_("姓名或单位含有控制字符"))
    if code in taken:
        return Text(_("编号重复：{id}"), id=code)
    if not least <= len([n for n in names if n]) <= most:
        if event.kind == Kind.PAIRS:
            return Text(_("一对需要两个姓名（第三个是替补，可不填）"))
        return Text(_("需要 {least}–{most} 个姓名"), least=least, most=most)
    return None


def entrants_preview(event: Event, handle: BytesIO) -> ImportReport:
    """Check every row of a spreadsheet without writing: `ImportReport` with `to_create`
    (NewEntrant) and `rejected` ((row, reason))."""
    report = ImportReport()
    taken = taken_codes(event)
    for number, record in read_rows(handle):
        code = record.get("id", "")
        if event.kind == Kind.INDIVIDUAL:
            names = [record.get("name") or record.get("name1", "")]
        else:
            names = [record[f"name{n}"] for n in range(1, 7) if record.get(f"name{n}")]
        problem = entrant_problem(event, code, names, record.get("club", ""), taken)
        if problem is not None:
            report.rejected.append((number, problem))
            continue
        taken.add(code)
        report.to_create.append(
            NewEntrant(
                code=code,
                names=tuple(names),
                club=record.get("club", ""),
                team=record.get("team", "")[:NAME_LIMIT],
                federation_id=record.get("federation_id", "")[:FEDERATION_LIMIT],
            )
        )
    return report


@transaction.atomic
def entrants_create(event: Event, new_entrants: list[NewEntrant]) -> list[Entrant]:
    """Create checked entrants (checked again: a code may have been taken meanwhile).
    Entrants added after round N was paired are late entries joining from round N+1."""
    hold_round_numbers(event)
    taken = taken_codes(event)
    joining = _first_unpaired_round(event)
    created = []
    for new in new_entrants:
        problem = entrant_problem(event, new.code, new.names, new.club, taken)
        if problem is not None:
            raise EntrantError(problem.template, **problem.params)
        taken.add(new.code)
        if event.kind == Kind.INDIVIDUAL:
            player = Player.objects.create(
                event=event, code=new.code, name=new.names[0], club=new.club, federation_id=new.federation_id
            )
            # Ranked as an entrant of one, with the player's number.
            entrant = Entrant.objects.create(event=event, code=new.code, joined_round=joining)
            Membership.objects.create(entrant=entrant, player=player, position=1)
        else:
            entrant = Entrant.objects.create(event=event, code=new.code, name=new.team, joined_round=joining)
            for position, name in enumerate(new.names, start=1):
                player = Player.objects.create(event=event, code=f"{new.code}-{position}", name=name, club=new.club)
                Membership.objects.create(entrant=entrant, player=player, position=position)
        created.append(entrant)
    if created:
        announce_results_changed(event)
    return created


def _first_unpaired_round(event: Event) -> int:
    """None before round 1 is paired (an ordinary entry), else the next round's number."""
    following = next_round_number(event)
    return None if following == 1 else following


def _last_paired_round(event: Event) -> int:
    return next_round_number(event) - 1


class EntrantError(Refusal):
    def __init__(self, template: str, code: str = "entrant_refused", **params: int) -> None:
        super().__init__(code, template, **params)


@transaction.atomic
def entrant_update(entrant: Entrant, *, names: list[str], club: str, team: str = "") -> Entrant:
    """Correct the names and club (the number stays: it is on every sheet)."""
    event = entrant.event
    problem = entrant_problem(event, entrant.code, names, club)
    if problem is not None:
        raise EntrantError(problem.template, **problem.params)
    players = [m.player for m in entrant.memberships.select_related("player").order_by("position")]
    names = [n for n in names if n]
    if event.kind == Kind.PAIRS and len(names) == len(players) + 1 == NAMES_NEEDED[Kind.PAIRS][1]:
        # A pair registers its substitute after entering (the others' numbers stay as they are).
        position = len(players) + 1
        if Player.objects.filter(event=event, code=f"{entrant.code}-{position}").exists():
            raise EntrantError(_("选手编号 {id} 已被占用"), code="code_taken", id=f"{entrant.code}-{position}")
        player = Player.objects.create(event=event, code=f"{entrant.code}-{position}", name=names[-1], club=club)
        Membership.objects.create(entrant=entrant, player=player, position=position)
        players.append(player)
    if len(players) != len(names):
        raise EntrantError(_("姓名的个数不能改变"), code="member_count")
    for player, name in zip(players, names, strict=True):
        player.name, player.club = name, club
        player.sort_key = ""  # recomputed from the new name on save
        player.save()
    if event.kind == Kind.TEAMS:
        entrant.name = team
        entrant.save(update_fields=["name"])
    announce_results_changed(event)
    return entrant


@transaction.atomic
def entrant_withdraw(entrant: Entrant) -> Entrant:
    """Not paired after the last round paired so far; its results stand."""
    hold_round_numbers(entrant.event)
    entrant.withdrawn_after_round = _last_paired_round(entrant.event)
    entrant.save(update_fields=["withdrawn_after_round"])
    announce_results_changed(entrant.event)
    return entrant


@transaction.atomic
def entrant_reinstate(entrant: Entrant) -> Entrant:
    hold_round_numbers(entrant.event)
    entrant.withdrawn_after_round = None
    entrant.save(update_fields=["withdrawn_after_round"])
    announce_results_changed(entrant.event)
    return entrant


@transaction.atomic
def entrant_request_bye(entrant: Entrant, round_number: int) -> Entrant:
    """A bye asked for one round (`None` cancels it): that round pairs the entrant with no one
    and it scores nothing there; only the automatic bye of an odd count scores a win."""
    hold_round_numbers(entrant.event)
    if round_number is not None and round_number <= _last_paired_round(entrant.event):
        raise EntrantError(_("第{round}轮已经编排，只能为以后的轮次申请轮空"), code="round_paired", round=round_number)
    entrant.bye_round = round_number
    entrant.save(update_fields=["bye_round"])
    return entrant


SORT_KEY_LIMIT = 200


@transaction.atomic
def player_correct(player: Player, *, sort_key: str, federation_id: str) -> Player:
    """What no page edits, corrected in the back office: the key a player's name sorts by (a
    name the pinyin guess reads another way) and their federation number. The name, club and
    number stay the console's (`entrant_update`), which works the sort key out again from a
    new name."""
    sort_key, federation_id = (sort_key or "").strip(), (federation_id or "").strip()
    if len(sort_key) > SORT_KEY_LIMIT or len(federation_id) > FEDERATION_LIMIT:
        raise EntrantError(_("拼音排序或会员号太长"), code="too_long")
    if CONTROL.search(sort_key) or CONTROL.search(federation_id):
        raise EntrantError(_("拼音排序或会员号含有控制字符"), code="control_characters")
    player.sort_key, player.federation_id = sort_key, federation_id
    # An empty key is worked out from the name again (`Player.save`).
    player.save(update_fields=["sort_key", "federation_id"])
    # Players are listed in this order on the public pages.
    announce_results_changed(player.event)
    return player
