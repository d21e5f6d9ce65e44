"""The referees' round grid as HTML: one table row per table, the same markup for the page's
first render and for the rows a live update replaces (`views.round_live`).

Written out rather than as a template loop: 1,000 rows of 16 board links each took most of the
page's time through the template engine. Every value is escaped here (`escape`), and every
word is the site's, in the request's language."""

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from scoring.table_entry.flags import KINDS as FLAG_KINDS
from scoring.table_entry.grid import STATES

CELL_STATES = frozenset(("missing", "draft", "confirmed", "conflict", "disputed", "not_played"))


class RowWriter:
    """Writes rows of one round for one request: the words and addresses looked up once."""

    def __init__(self, *, round_url, csrf_token, games_mode, unlock_url, late=(), not_played=()):
        """`late`: {(table id, board)} entered after time was called; `not_played`: {(table id,
        board)} recorded not played (`scoring.rulings`)."""
        self.late_boards = late
        self.not_played = not_played
        self.late_title = escape(gettext("时间到之后才录入"))
        self.round_url = escape(round_url)
        self.games_mode = games_mode
        self.now = timezone.now()
        self._minutes = {}
        self.states = {key: escape(str(label)) for key, label in STATES.items()}
        self.kinds = {key: escape(str(label)) for key, label in FLAG_KINDS.items()}
        self.title = escape(gettext("整桌各副与修改记录"))
        self.late = escape(gettext("落后"))
        unlock = escape(gettext("录入码错误过多：解锁"))
        self.unlock = (
            f'<form method="post" action="{escape(unlock_url)}" class="inline">'
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf_token)}">'
            '<input type="hidden" name="table" value="__TABLE__">'
            f'<button type="submit" name="action" value="unlock">{unlock}</button></form>'
        )

    def minutes(self, minutes):
        text = self._minutes.get(minutes)
        if text is None:
            text = self._minutes[minutes] = escape(ngettext("%(m)s 分钟前", "%(m)s 分钟前", minutes) % {"m": minutes})
        return text

    def row(self, row):
        number = int(row["number"])
        state = row["state"] if row["state"] in self.states else "in_progress"
        table_url = f"{self.round_url}tables/{number}/"
        parts = [
            f'<tr id="grid-t{number}" class="grid-row {state}{" late" if row["late"] else ""}" data-state="{state}"'
            f' data-table="{number}" data-version="{escape(row["version"])}">'
            f'<td><a class="table-link" href="{table_url}confirm/" title="{self.title}">{number}</a></td>'
            f'<td class="grid-cell"><a class="grid-state {state}" href="{table_url}confirm/" title="{self.title}">'
            f"{self.states[state]}</a>"
        ]
        if row["boards"]:
            parts.append(f" {int(row['confirmed'])}/{int(row['boards'])}")
        if row["last_at"] is not None:
            minutes = max(0, int((self.now - row["last_at"]).total_seconds() // 60))
            at = int(row["last_at"].timestamp())
            parts.append(f' <small class="explain since" data-at="{at}">{self.minutes(minutes)}</small>')
        if row["late"]:
            parts.append(f' <span class="grid-state late">{self.late}</span>')
        for board in sorted(board for table_id, board in self.late_boards if table_id == row["id"]):
            link = f"{table_url}boards/{int(board)}/"
            parts.append(f' <a class="grid-late" href="{link}" title="{self.late_title}">⏱{int(board)}</a>')
        for flag in row["flags"]:
            board = int(flag["board"])
            kinds = "、".join(self.kinds.get(kind, escape(kind)) for kind in flag["kinds"])
            parts.append(f' <a class="grid-flag" href="{table_url}boards/{board}/" title="{kinds}">⚑{board}</a>')
        if row["locked"]:
            parts.append(" " + self.unlock.replace("__TABLE__", str(number)))
        parts.append(f'</td><td class="explain">{escape(row["codes"])}</td><td class="cells">')
        parts.extend(
            [
                f'<a class="cell {state}" href="{table_url}boards/{board}/" title="{state}">{board}</a>'
                for board, state in enumerate(
                    (
                        "not_played"
                        if state == "confirmed" and (row["id"], board) in self.not_played
                        else state
                        if state in CELL_STATES
                        else "missing"
                        for board, state in enumerate(row["cells"], start=1)
                    ),
                    start=1,
                )
            ]
        )
        parts.append("</td>")
        if self.games_mode:
            games = " ".join(
                f"{int(g.number)}: {int(g.ns)}/{int(g.ew)}{'' if g.finished else '…'}" for g in row["games"]
            )
            parts.append(f'<td class="explain">{games}</td>')
        parts.append("</tr>\n")
        return "".join(parts)

    def rows(self, rows):
        return mark_safe("".join(self.row(row) for row in rows))
