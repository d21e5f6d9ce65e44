"""Downloads: Excel workbooks and PDFs. The public gets published rounds only; the event's
referees and organisers get every round (they print score sheets before a round starts).

The public's files are rendered once per public version and served from the cache
(`scoring.cache.files`); the officials' own files hold unpublished results and are written
for each asker."""

import io
import tempfile

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext

from scoring.cache.files import FileBusy, stored_file
from scoring.cache.pages import BROWSER_MAX_AGE
from scoring.events.permissions import is_official
from scoring.exports import files
from scoring.models import Event, Round
from scoring.rounds.table_links import TABLE_PATH


def _send(request, event, file, published_only, *, place=""):
    if published_only:
        return _public_file(request, event, file, place)
    return _file(file.write, file.filename, file.content_type, published_only)


def _public_file(request, event, file, place):
    """The public file from the cache (rendered once per public version), a 304 when the asker
    has it, or a 503 with Retry-After while it is being rendered."""
    try:
        stored = stored_file(event.slug, file, place=place)
    except FileBusy as busy:
        response = HttpResponse(
            gettext("文件正在生成，请稍后再试。"), status=503, content_type="text/plain; charset=utf-8"
        )
        response["Retry-After"] = str(busy.retry_after)
        patch_cache_control(response, no_store=True)
        return response
    if stored is None:
        raise Http404("no such event")
    tags = {tag.strip().removeprefix("W/") for tag in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")}
    if stored.etag in tags:
        response = HttpResponseNotModified()
    else:
        response = FileResponse(
            io.BytesIO(stored.body), as_attachment=True, filename=stored.filename, content_type=stored.content_type
        )
    response["ETag"] = stored.etag
    patch_cache_control(response, public=True, max_age=BROWSER_MAX_AGE)
    # The same address gives an official their own file: a shared cache keeps one per cookie.
    patch_vary_headers(response, ["Cookie", "Authorization"])
    return response


def officials_file(file):
    """A file for the officials only (the caller has checked who asks): private, named `-staff`."""
    return _file(file.write, file.filename, file.content_type, False)


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


def standings_xlsx(request, slug):
    event, published_only = _event_and_scope(request, slug)
    return _send(request, event, files.standings_xlsx(event, published_only), published_only)


def results_xlsx(request, slug):
    event, published_only = _event_and_scope(request, slug)
    return _send(request, event, files.results_xlsx(event, published_only), published_only)


def standings_pdf(request, slug):
    event, published_only = _event_and_scope(request, slug)
    return _send(request, event, files.standings_pdf(event, published_only), published_only)


def round_results_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    return _send(request, event, files.round_results_pdf(event, rnd), published_only)


def travellers_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    return _send(request, event, files.travellers_pdf(event, rnd), published_only)


def scoresheets_pdf(request, slug, number):
    event, published_only = _event_and_scope(request, slug)
    rnd = _round(event, number, published_only)
    file = files.scoresheets_pdf(
        event,
        rnd,
        entry_url=lambda table: request.build_absolute_uri(
            reverse("referee-board", args=[event.slug, rnd.number, table.number, 1])
        ),
        # A table's link is a secret of the officials and that table (table-api.md): the
        # public's sheets (and an official's `?scope=public`) point at the referees' page.
        table_url=None
        if published_only
        else lambda table: request.build_absolute_uri(TABLE_PATH.format(token=table.token)),
    )
    # Its QR codes name the host it was asked through: a file per host.
    return _send(request, event, file, published_only, place=request.build_absolute_uri("/"))


def cross_table_pdf(request, slug):
    event, published_only = _event_and_scope(request, slug)
    if event.kind == Event.Kind.INDIVIDUAL:
        raise Http404("an individual event has no cross table")
    return _send(request, event, files.cross_table_pdf(event, published_only), published_only)


def cross_table_xlsx(request, slug):
    event, published_only = _event_and_scope(request, slug)
    if event.kind == Event.Kind.INDIVIDUAL:
        raise Http404("an individual event has no cross table")
    return _send(request, event, files.cross_table_xlsx(event, published_only), published_only)


def _drawn_round(event, number, published_only):
    """The round whose draw the file prints: any round for officials; for the public, a round
    whose draw is released (as the draw page)."""
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None or (published_only and not rnd.draw_released):
        raise Http404("draw not released")
    return rnd


def wall_draw_pdf(request, slug, number):
    """The draw for the wall, large type: by table, then every player by pinyin."""
    event, published_only = _event_and_scope(request, slug)
    return _send(
        request, event, files.wall_draw_pdf(event, _drawn_round(event, number, published_only)), published_only
    )


def table_cards_pdf(request, slug, number):
    """A card for each table (its number, both sides' numbers and names): for the officials
    who set up the hall; the public has the draw."""
    event = get_object_or_404(Event, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_official(request.user, event):
        raise PermissionDenied("officials only")
    return officials_file(files.table_cards_pdf(event, _drawn_round(event, number, False)))
