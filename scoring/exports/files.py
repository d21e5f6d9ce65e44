"""Every file the site hands out, built from the event alone: its name, its type and how to write
it. The downloads (`scoring.web.downloads`) and the results pack (`scoring.exports.results_pack`)
both take their files from here, so a file in the pack is the file a download gives.

A `File` is named at once and read from the database only when written, so listing files
costs nothing. `published_only`: the public's version (published rounds, confirmed deals); otherwise the
officials' (every round; standings count finished matches only and name the others).
"""

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import get_language, gettext, pgettext

from scoring.archive.export import export_archive
from scoring.exports import cross_table_files, draw_pdf, entrant_cards, pdf, scoresheets, xlsx
from scoring.exports.sources import (
    draw_paper,
    player_names,
    scoresheet_data,
    standings_sheets,
    tables_with_deals,
)
from scoring.messages import joined
from scoring.models import Round
from scoring.results.cross_table import event_cross_table
from scoring.results.match_results import unfinished_matches
from scoring.results.round_results import round_results
from scoring.results.travellers import round_travellers

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
JSON = "application/json"


@dataclass(frozen=True)
class File:
    filename: str
    content_type: str
    write: Callable  # write(binary file)
    # False for what the public never gets (the archive, entrant cards): never from the public files' cache.
    public: bool = True


def scope_text(event, published_only):
    """What a file holds, said in the file: which rounds, provisional or official. Once every
    round of the event is official the staff and public versions hold the same results, and
    the label says what they are (正式成绩, or 最终成绩 when the event is closed)."""
    every_round = list(event.rounds.order_by("number"))
    rounds = [r for r in every_round if r.is_published] if published_only else every_round
    # In the language of the request that downloads the file (English files are English).
    states = joined(
        gettext("第%(n)s轮%(status)s") % {"n": r.number, "status": r.get_status_display()} for r in rounds
    ) or gettext("尚无成绩")
    if every_round and all(r.status == Round.Status.OFFICIAL for r in every_round):
        label = (
            gettext("最终成绩（各轮均为正式成绩）：")
            if event.is_finished
            else gettext("正式成绩（各轮均为正式成绩）：")
        )
        return label + states
    if published_only:
        return gettext("公开版（只含已公布的轮次）：") + states
    if all(r.is_published for r in rounds):
        return gettext("工作人员版（各轮均已公布，与公开版相同）：") + states
    return gettext("工作人员版（含未公布的成绩）：") + states


def unfinished_note(event, published_only):
    """The officials' standings count finished matches only; the file names the others."""
    if published_only:
        return ""
    unfinished = unfinished_matches(event)
    if not unfinished:
        return gettext("未公布轮次的对局均已完成。")
    return gettext("以下未完成的对局不计入排名：") + pgettext("list separator", "；").join(
        gettext("第%(round)s轮 %(sides)s（已确认 %(deals)s 副）")
        % {"round": m["round"], "sides": gettext(" 对 ").join(m["sides"]), "deals": m["deals"]}
        for m in unfinished
    )


def standings_xlsx(event, published_only):
    def write(out):
        sheets = standings_sheets(event, published_only=published_only, language=get_language())
        note = unfinished_note(event, published_only)
        xlsx.write_standings(out, event, sheets, scope_text(event, published_only), note)

    return File(f"{event.slug}-standings.xlsx", XLSX, write)


def results_xlsx(event, published_only):
    def write(out):
        deals = tables_with_deals(event, published_only=published_only)
        xlsx.write_results(out, event, deals, player_names(event), scope_text(event, published_only))

    return File(f"{event.slug}-results.xlsx", XLSX, write)


def standings_pdf(event, published_only):
    def write(out):
        _, rows = standings_sheets(event, published_only=published_only, language=get_language())[0]
        parts = (scope_text(event, published_only), unfinished_note(event, published_only))
        pdf.write_standings(out, event, rows, subtitle=" ".join(part for part in parts if part))

    return File(f"{event.slug}-standings.pdf", PDF, write)


def round_results_pdf(event, rnd):
    def write(out):
        pdf.write_round_results(out, event, rnd, round_results(event, rnd))

    return File(f"{event.slug}-round{rnd.number}-results.pdf", PDF, write)


def travellers_pdf(event, rnd):
    def write(out):
        pdf.write_travellers(out, event, rnd, round_travellers(event, rnd))

    return File(f"{event.slug}-round{rnd.number}-travellers.pdf", PDF, write)


def scoresheets_pdf(event, rnd, *, entry_url, table_url=None):
    """`entry_url(table)`: the referees' entry page of a table; `table_url(table)`: the table's
    own link, for the officials' sheets only (the QR code in players' entry, see
    `scoresheet_data`)."""

    def write(out):
        sheets = scoresheet_data(event, rnd, entry_url=entry_url, table_url=table_url)
        scoresheets.write_scoresheets(out, event, rnd, sheets)

    return File(f"{event.slug}-round{rnd.number}-scoresheets.pdf", PDF, write)


def cross_table_pdf(event, published_only):
    def write(out):
        table = event_cross_table(event, published_only=published_only, language=get_language())
        subtitle = scope_text(event, published_only)
        cross_table_files.write_cross_table_pdf(out, event, table, subtitle=subtitle)

    return File(f"{event.slug}-cross-table.pdf", PDF, write)


def cross_table_xlsx(event, published_only):
    def write(out):
        table = event_cross_table(event, published_only=published_only, language=get_language())
        cross_table_files.write_cross_table_xlsx(out, event, table, scope=scope_text(event, published_only))

    return File(f"{event.slug}-cross-table.xlsx", XLSX, write)


def wall_draw_pdf(event, rnd):
    def write(out):
        draw_pdf.write_wall_draw(out, event, rnd, draw_paper(rnd))

    return File(f"{event.slug}-round{rnd.number}-draw.pdf", PDF, write)


def table_cards_pdf(event, rnd):
    def write(out):
        draw_pdf.write_table_cards(out, event, rnd, draw_paper(rnd))

    return File(f"{event.slug}-round{rnd.number}-table-cards.pdf", PDF, write)


def entrant_cards_pdf(event, entrant_url):
    """A card per entrant still in the event, with its personal entry code (table-api.md): for
    the organisers only, never in the results pack. `entrant_url(entrant)`: the absolute
    address of the entrant's public page, for the QR code."""

    def write(out):
        entrant_cards.write_entrant_cards(out, event, entrant_cards.entrant_cards_data(event, entrant_url))

    return File(f"{event.slug}-entrant-cards.pdf", PDF, write, public=False)


def archive_json(event):
    """The event archive (huapai-event/1): everything, for back-up and moving."""

    def write(out):
        out.write(json.dumps(export_archive(event), ensure_ascii=False, indent=1).encode())

    return File(f"{event.slug}.huapai-event.json", JSON, write, public=False)
