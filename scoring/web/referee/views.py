"""Pages for referees and organisers (login required, role checked per event): sign-in, the
referee's events, an event's rounds, a round's live grid and its table actions, and publishing a
round; the board pages are in `board_views`."""

import hashlib
from functools import wraps

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.cache.stamps import clock_stamp, grid_stamp, stamp_digest
from scoring.events.permissions import first_page_after_login, is_official, is_organiser
from scoring.messages import message_text
from scoring.models import Event, RefereeCall, Round, Table
from scoring.rounds.publication import PublicationError, publication_checklist, round_make_official, round_publish
from scoring.rulings.clock import late_boards, pace, round_clock, state_words
from scoring.rulings.not_played import not_played_boards
from scoring.table_entry.codes import guarded_link_replace, guarded_tables, wrong_codes_clear
from scoring.table_entry.grid import STATES, earlier_grid, moved_rows, open_calls, round_grid
from scoring.table_entry.services import call_answer
from scoring.web.forms import BackForm, GridLiveForm, PublishForm, TableActionForm, TableRangeForm, form_errors
from scoring.web.referee.grid_rows import RowWriter


class ThrottledLoginView(auth_views.LoginView):
    """Django's login. Throttled by django-axes, as the admin's login is (one counter per
    username and address; settings AXES_*, scoring.events.accounts): axes counts what
    `authenticate` says about the submitted credentials, never `request.user`, so a
    signed-in session posting another account's password counts as a failure."""

    template_name = "registration/login.html"

    def get_default_redirect_url(self):
        """Without `?next=`, where the signed-in user's work is (`first_page_after_login`)."""
        return reverse(first_page_after_login(self.request.user))


def event_official(view):
    """Login, then a referee or organiser role on the event in the URL."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        event = get_object_or_404(Event, slug=slug)
        if not is_official(request.user, event):
            raise PermissionDenied("no role on this event")
        return view(request, event, *args, **kwargs)

    return wrapper


@login_required
def referee_home(request):
    if request.user.is_superuser:
        events = Event.objects.all()
    else:
        events = Event.objects.filter(roles__user=request.user).distinct()
    return render(request, "referee/home.html", {"events": events})


@event_official
def event_rounds(request, event):
    rounds = event.rounds.order_by("number")
    return render(
        request,
        "referee/event.html",
        {
            "event": event,
            "rounds": rounds,
            "organiser": is_organiser(request.user, event),
        },
    )


def _area(request, form_class=TableRangeForm):
    """My area of the hall (a range of table numbers) from the query, and whether a number is in it."""
    area = form_class(request.GET)
    first, last = (area.cleaned_data["first"], area.cleaned_data["last"]) if area.is_valid() else (None, None)

    def in_area(number):
        return (first or 0) <= number <= (last or 999_999_999)

    return area, in_area


def _row_writer(request, event, rnd, rows):
    """Writes `rows` (the clock's marks read for those tables only: a live update writes a few)."""
    tables = {row["id"] for row in rows}
    return RowWriter(
        round_url=reverse("referee-round", args=[event.slug, rnd.number]),
        csrf_token=get_token(request),
        games_mode=event.match_mode == Event.MatchMode.GAMES,
        unlock_url=reverse("referee-table-action", args=[event.slug, rnd.number]),
        # The round clock's marks: boards entered after time was called, boards not played.
        late={(table, board) for table, board in late_boards(rnd) if table in tables},
        not_played=set(not_played_boards(rnd, tables)) if tables else set(),
    )


def _grid_parts(request, event, rnd, grid, in_area):
    """The parts of the round page a live update replaces, besides the rows: the counts, the
    boards left, the referees' queue."""
    context = {
        "event": event,
        "round": rnd,
        "counts": grid.counts,
        "todo": grid.todo,
        "states": STATES,
        "calls": [call for call in open_calls(rnd) if in_area(call.table.number)],
        # Tables guarded after too many wrong codes, at the top of the queue (table-api.md).
        "guarded": [row for row in guarded_tables(rnd) if in_area(row["table"])],
    }
    return context, {
        name: render_to_string(f"referee/_grid_{name}.html", context, request) for name in ("counts", "todo", "queue")
    }


@event_official
def round_dashboard(request, event, number):
    """The round's live grid: every table with its boards' states and, where players enter,
    the table's state in one word, the time since its last action, calls and disputes. The
    page keeps itself up to date through `round_live`."""
    rnd = get_object_or_404(Round, event=event, number=number)
    stamp = grid_stamp(rnd)
    if request.method == "HEAD":  # the round's stamp, as the live update's ETag carries it, and its clock's
        response = HttpResponse()
        response["ETag"] = f'"grid-{stamp}-{clock_stamp(rnd)}"'
        return response
    clock = round_clock(rnd)
    area, in_area = _area(request)
    grid = round_grid(rnd, stamp)
    rows = [row for row in grid.rows if in_area(row["number"])]
    organiser = is_organiser(request.user, event)
    context, parts = _grid_parts(request, event, rnd, grid, in_area)
    query = request.GET.urlencode() if area.is_valid() else ""
    return render(
        request,
        "referee/round.html",
        {
            **context,
            "parts": parts,
            "rows": rows,
            "rows_html": _row_writer(request, event, rnd, rows).rows(rows),
            "area": area,
            "organiser": organiser,
            "checklist": publication_checklist(rnd) if organiser else None,
            "live_url": reverse("referee-round-live", args=[event.slug, rnd.number]) + (f"?{query}" if query else ""),
            "live_etag": _live_etag(stamp, request),
            "live_poll_seconds": 5,
            # "n minutes ago" as the page's script rewrites it between updates.
            "ago": [ngettext("%(m)s 分钟前", "%(m)s 分钟前", n) for n in (1, 2)],
            "clock": clock,
            "clock_words": state_words(clock),
            "pace": pace(rnd, clock),
        },
    )


def _live_etag(stamp, request):
    """The live update's ETag: the round's stamp (its digest, by which the next update finds the
    grid the page holds), then the area asked for and the language."""
    area = f"{request.GET.get('first', '')}-{request.GET.get('last', '')}|{get_language()}"
    return f'"live-{stamp_digest(stamp)}-{hashlib.blake2b(area.encode(), digest_size=6).hexdigest()}"'


def _held_digest(request):
    """The digest of the stamp whose grid the page holds, from its If-None-Match, or None."""
    parts = request.headers.get("If-None-Match", "").strip('"').split("-")
    return parts[1] if len(parts) == 3 and parts[0] == "live" and parts[1].isalnum() else None


@event_official
def round_live(request, event, number):
    """The grid's live update (static/js/grid.js), JSON:

    - `304` while the round's stamp is the one the page holds (If-None-Match);
    - else the counts, the boards left and the queue (HTML), each shown table's row version,
      and the rows (HTML) that moved since the grid the page holds — when this process still
      keeps that grid (else since the newest it keeps, which the page checks against the
      versions);
    - with `rows=3,17,…`: those tables' rows, which the page asks for when a version it holds
      still differs.

    Only the tables whose fingerprint moved are computed again (`table_entry.grid.round_grid`)."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    rnd = get_object_or_404(Round, event=event, number=number)
    form = GridLiveForm(request.GET)
    if not form.is_valid():
        return JsonResponse({"error": {"code": "bad_request", "message": "；".join(form_errors(form))}}, status=400)
    _form, in_area = _area(request, GridLiveForm)
    wanted = form.cleaned_data["rows"]
    stamp = grid_stamp(rnd)
    etag = _live_etag(stamp, request)
    if wanted is None and request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        grid = round_grid(rnd, stamp)
        if wanted is not None:
            chosen = set(wanted)
            rows = [row for row in grid.rows if row["number"] in chosen]
            body = {}
        else:
            earlier = earlier_grid(rnd, grid, _held_digest(request))
            rows = [] if earlier is None else moved_rows(grid, earlier)
            if len(rows) > GridLiveForm.MAX_ROWS:
                rows = []  # a long while away: the page asks for what it lacks, a batch at a time
            _context, parts = _grid_parts(request, event, rnd, grid, in_area)
            versions = [[row["number"], row["version"]] for row in grid.rows if in_area(row["number"])]
            body = {"round": rnd.status, "versions": versions, **parts}
        rows = [row for row in rows if in_area(row["number"])]
        writer = _row_writer(request, event, rnd, rows)
        body["rows"] = {row["number"]: writer.row(row) for row in rows}
        response = JsonResponse(body)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@event_official
@require_POST
def round_table_action(request, event, number):
    """From the grid: a referee has answered a table's call, or unlocks a table."""
    rnd = get_object_or_404(Round, event=event, number=number)
    form = TableActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("referee-round", event.slug, number)
    table = get_object_or_404(Table, round=rnd, number=form.cleaned_data["table"])
    if form.cleaned_data["action"] == "unlock":
        wrong_codes_clear(table)
        messages.success(request, _("%(table)s 号桌已解锁") % {"table": table.number})
    elif form.cleaned_data["action"] == "replace_link":
        guarded_link_replace(table)  # a link in a stranger's hands: a new one, in one action
        messages.success(
            request,
            _("%(table)s 号桌的链接已更换，旧链接已失效。新链接：%(url)s")
            % {"table": table.number, "url": request.build_absolute_uri(f"/t/{table.token}/")},
        )
    else:
        for call in RefereeCall.objects.filter(table=table, answered_at=None).exclude(kind=RefereeCall.Kind.DISPUTE):
            call_answer(call, request.user)
        messages.success(request, _("%(table)s 号桌的呼叫已处理") % {"table": table.number})
    return redirect("referee-round", event.slug, number)


def _organiser_post(view):
    @event_official
    @require_POST
    @wraps(view)
    def wrapper(request, event, *args, **kwargs):
        if not is_organiser(request.user, event):
            raise PermissionDenied("organisers only")
        return view(request, event, *args, **kwargs)

    return wrapper


@_organiser_post
def round_publish_view(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    form = PublishForm(request.POST)
    confirmed = form.is_valid() and form.cleaned_data["confirm_open_calls"]
    try:
        round_publish(rnd, user=request.user, open_calls_confirmed=confirmed)
        messages.success(
            request,
            _("第 %(round)s 轮已临时公布，更正期 %(minutes)s 分钟")
            % {"round": number, "minutes": event.correction_minutes},
        )
    except PublicationError as failure:
        messages.error(request, _("不能公布：%(why)s") % {"why": message_text(failure)})
    return _back(request, event, number)


@_organiser_post
def round_official_view(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    try:
        round_make_official(rnd, user=request.user)
        messages.success(request, _("第 %(round)s 轮成绩已转为正式") % {"round": number})
    except PublicationError as failure:
        messages.error(request, message_text(failure))
    return _back(request, event, number)


def _back(request, event, number):
    """Back to the page the button was on: the referees' round page or the organiser's console."""
    form = BackForm(request.POST)
    if form.is_valid() and form.cleaned_data["back"] == "organiser":
        return redirect("organiser-round", event.slug, number)
    return redirect("referee-round", event.slug, number)
