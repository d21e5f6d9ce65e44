"""Downloads: Excel workbooks and PDFs. The public gets published rounds only; the event's
referees and organisers get every round (they print score sheets before a round starts)."""

import tempfile

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers

from scoring.events.permissions import is_official
from scoring.exports import pdf, xlsx
from scoring.exports.sources import player_names, scoresheet_data, standings_sheets, tables_with_deals
from scoring.models import Event, Round
from scoring.results.match_results import unfinished_matches
from scoring.results.round_results import round_results
from scoring.results.travellers import board_traveller

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _file(write, filename, content_type, published_only):
    """Write into a temporary file (openpyxl and reportlab want one), then stream it out.

    An officials' file holds unpublished results: no shared cache may keep it (a proxy would
    hand it to the next visitor), and its name says what it is, beside the public file of the
    same event in a downloads folder."""
    handle = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it after sending
    write(handle)
    handle.seek(0)
    if not published_only:
        stem, dot, extension = filename.rpartition(".")
        filename = f"{stem}-staff{dot}{extension}"
    response = FileResponse(handle, as_attachment=True, filename=filename, content_type=content_type)
    if not published_only:
        patch_cache_control(response, private=True, no_store=True)
        patch_vary_headers(response, ["Cookie", "Authorization"])
    return response


def _event_and_scope(request, slug):
    """The event and whether the file holds published rounds only: always for the public; for
    officials when they ask for the public version (`?scope=public`)."""
    event = get_object_or_404(Event, slug=slug)
    return event, not is_official(request.user, event) or request.GET.get("scope") == "public"


def _round(event, number, published_only):
    rounds = Round.objects.filter(event=event, number=number)
    if published_only:
        rounds = rounds.published()
    rnd = rounds.first()
    if rnd is None:
        raise Http404("round not published")
    return rnd


def _scope(event, published_only):
    """What a file holds, said in the file: which rounds, provisional or official."""
    every_round = list(event.rounds.order_by("number"))
    rounds = [r for r in every_round if r.is_published] if published_only else every_round
    states = "、".join(f"第{r.number}轮{r.get_status_display()}" for r in rounds) or "尚无成绩"
    if every_round and all(r.status == Round.Status.OFFICIAL for r in every_round):
        # Staff and public versions then hold the same results: the label says what they are.
        return ("最终成绩（各轮均为正式成绩）：" if event.is_finished else "正式成绩（各轮均为正式成绩）：") + states
    if published_only:
        return "公开版（只含已公布的轮次）：" + states
    if all(r.is_published for r in rounds):
        return "工作人员版（各轮均已公布，与公开版相同）：" + states
    return "工作人员版（含未公布的成绩）：" + states


def _unfinished_note(event, published_only):
    """The officials' standings count finished matches only; the file names the others."""
    if published_only:
        return ""
    unfinished = unfinished_matches(event)
    if not unfinished:
        return "未公布轮次的对局均已完成。"
    return "以下未完成的对局不计入排名：" + "；".join(
        f"第{m['round']}轮 {' 对 '.join(m['sides'])}（已确认 {m['deals']} 副）" for m in unfinished
    )


def standings_xlsx(request, slug):
    event, published_only = _event_and_scope(request, slug)
    sheets = standings_sheets(event, published_only=published_only)
    scope = _scope(event, published_only)
    note = _unfinished_note(event, published_only)
    return _file(
        lambda out: xlsx.write_standings(out, event, sheets, scope, note),
        f"{event.slug}-standings.xlsx",
        XLSX,
        published_only,
    )


def results_xlsx(request, slug):
    event, published_only = _event_and_scope(request, slug)
    names = player_names(event)
    return _file(
        lambda out: xlsx.write_results(
            out, event, tables_with_deals(event, published_only=published_only), names, _scope(event, published_only)
        ),
        f"{event.slug}-results.xlsx",
        XLSX,
        published_only,
    )


def standings_pdf(request, slug):
    event, published_only = _event_and_scope(request, slug)
    _, rows = standings_sheets(event, published_only=published_only)[0]
    subtitle = " ".join(
        part for part in (_scope(event, published_only), _unfinished_note(event, published_only)) if part
    )
    return _file(
        lambda out: pdf.write_standings(out, event, rows, subtitle=subtitle),
        f"{event.slug}-standings.pdf",
        "application/pdf",
        published_only,
    )


def round_results_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    results = round_results(event, rnd)
    return _file(
        lambda out: pdf.write_round_results(out, event, rnd, results),
        f"{event.slug}-round{number}-results.pdf",
        "application/pdf",
        published_only,
    )


def travellers_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    numbers = sorted(set(rnd.tables.values_list("deals__board", flat=True)) - {None})
    boards = [(board, board_traveller(event, rnd, board)) for board in numbers]
    return _file(
        lambda out: pdf.write_travellers(out, event, rnd, boards),
        f"{event.slug}-round{number}-travellers.pdf",
        "application/pdf",
        published_only,
    )


def scoresheets_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    sheets = scoresheet_data(
        event,
        rnd,
        entry_url=lambda table: request.build_absolute_uri(
            reverse("referee-board", args=[event.slug, rnd.number, table, 1])
        ),
    )
    return _file(
        lambda out: pdf.write_scoresheets(out, event, rnd, sheets),
        f"{event.slug}-round{number}-scoresheets.pdf",
        "application/pdf",
        published_only,
    )
