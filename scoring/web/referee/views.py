"""Pages for referees and organisers (login required, role checked per event)."""

import hashlib
from functools import wraps

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.engine.not_played import is_awaiting, rule_words
from scoring.entry.errors import EntryError
from scoring.entry.game_fields import deal_text
from scoring.entry.grid import card_rows, deal_from_form, exposable_rows, form_from_deal
from scoring.entry.selectors import (
    blind_differences,
    enters_blind,
    history_rows,
    locate_board,
    match_ended_at,
    match_lines,
    next_to_confirm,
    table_history,
)
from scoring.entry.services import (
    blind_entry_submit,
    deal_confirm,
    deal_save,
    irregularity_record,
    not_played_mark,
    pending_penalties,
)
from scoring.events.lineups import board_chairs, seats_for
from scoring.events.permissions import first_page_after_login, is_official, is_organiser, may_confirm, may_enter
from scoring.events.rulebook import rules_text
from scoring.games import game_of
from scoring.games.huapai import SEATS
from scoring.games.huapai.deal_text import cards_text, exposed_text, holders_text
from scoring.games.stored import carries_state, event_rules, plays_alone
from scoring.games.stored import deal_json as stored_json
from scoring.messages import joined, message_text, term_text
from scoring.models import Deal, DealHistory, Event, Irregularity, RefereeCall, Round, Table
from scoring.rounds.publication import PublicationError, publication_checklist, round_make_official, round_publish
from scoring.rulings.calls import claim_values
from scoring.rulings.clock import (
    LATE_FACTS,
    clock_stamp,
    event_clock,
    late_boards,
    pace,
    round_clock,
    state_words,
)
from scoring.rulings.not_played import event_rule, not_played_boards, not_played_text
from scoring.table_entry.codes import wrong_codes_clear
from scoring.table_entry.flags import KINDS as FLAG_KINDS
from scoring.table_entry.flags import flag_clear, round_flags
from scoring.table_entry.grid import STATES, earlier_grid, grid_stamp, moved_rows, open_calls, round_grid, stamp_digest
from scoring.table_entry.services import call_answer
from scoring.web.client_address import client_ip
from scoring.web.forms import (
    BackForm,
    ConfirmForm,
    FlagClearForm,
    GridLiveForm,
    IrregularityForm,
    TableActionForm,
    TableConfirmForm,
    TableRangeForm,
    form_errors,
)
from scoring.web.referee import game_entry
from scoring.web.referee.grid_rows import RowWriter
from scoring.web.referee.preview_page import fields_drawn, form_preview, grid_drawn, not_previewed
from scoring.web.seating import chair_words


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
    else:
        for call in RefereeCall.objects.filter(table=table, answered_at=None).exclude(kind=RefereeCall.Kind.DISPUTE):
            call_answer(call, request.user)
        messages.success(request, _("%(table)s 号桌的呼叫已处理") % {"table": table.number})
    return redirect("referee-round", event.slug, number)


def _history_shown(rows):
    """History rows with the action's words and the hall's local time (settings.TIME_ZONE), not
    the stored UTC."""
    return [
        dict(
            row,
            action_label=DealHistory.Action(row["action"]).label,
            at_local=timezone.localtime(parse_datetime(row["at"])),
        )
        for row in rows
    ]


def _game_context(event, kind, values, table, board, deal, saved):
    """What the page of the event's game draws: 华牌's card grid, or another game's fields
    with the refusals beside them, and the table's match around the board where the game
    carries a state (升级's levels); with the preview drawn as the page's script draws it
    (`preview_page`: nothing moves when the script's first answer arrives). `saved`: the page
    answers a refused save."""
    rules = event_rules(event)
    # A board recorded not played shows the score it was given: the page asks no preview.
    mark = not_played_mark(deal) if deal is not None else None
    preview = None if mark else form_preview(event, table, board, values)
    if kind == game_entry.FIELDS:
        game = game_of(event)
        fields = game_entry.field_rows(event, values, board=board)
        drawn = not_previewed(deal) if mark else fields_drawn(preview, fields, saved)
        return {
            "fields": fields,
            "drawn": drawn,
            "seats": game.seats,
            "entry_help": game_entry.keyboard_help(event) or "",
            "match_lines": drawn["match"]
            or match_lines(table, board, game, rules, stored_json(deal) if deal is not None else None),
            "alone": plays_alone(game),  # every player signs (斗地主, 跑胡子), not two sides
        }
    cards = card_rows(values, rules.decks)
    exposables = exposable_rows(values, rules.decks)
    return {
        "cards": cards,
        "exposables": exposables,
        "drawn": not_previewed(deal) if mark else grid_drawn(preview, cards, exposables, saved),
        "seats": SEATS,
        "self_capture": rules.self_capture_doubles,
    }


def _version_words(event, kind, after):
    """Another game's deal as a version of its history had it, in its fields' words."""
    if kind != game_entry.FIELDS or not after:
        return ""
    return deal_text(game_of(event), after.get("game_data"))


def _board_context(request, event, table, board, deal, values, errors=(), conflict=None):
    organiser = is_organiser(request.user, event)
    kind = game_entry.entry_kind(event)
    seats = game_of(event).seats
    mark = not_played_mark(deal) if deal is not None else None
    late = (table.id, board) in late_boards(table.round)
    return {
        # A board recorded not played (scoring.rulings.not_played), and one entered after time.
        "not_played": not_played_text(deal) if mark else None,
        "not_played_mark": mark,
        "awaiting": bool(mark and mark.get("awaiting")),
        "not_played_rule_words": gettext_lazy(rule_words(event_rule(event))),
        # 升级's match cannot skip a deal (its levels carry on): no board is recorded not played.
        "records_not_played": not carries_state(game_of(event)),
        "late": late,
        "late_penalty": event_clock(event).late_penalty if late else 0,
        "late_ruled": late
        and RefereeCall.objects.filter(table=table, board=board, kind=RefereeCall.Kind.SLOW_PLAY, note=LATE_FACTS)
        .exclude(ruled_at=None)
        .exists(),
        "event": event,
        "round": table.round,
        "table": table,
        "board": board,
        "deal": deal,
        **_game_context(event, kind, values, table, board, deal, saved=bool(errors)),
        "template": game_entry.TEMPLATES[kind],
        "takes_penalties": game_of(event).takes_penalties,
        "rules_text": rules_text(event),
        # Who sits where at this board: a later 节 may have a team substitution (scoring.events.lineups).
        "seat_players": seats_for(table, board, event) if table.round.sessions > 1 else table.seat_players(),
        # The pairs sit on the other line in this 节: results stay with the draw's seats.
        "swapped_chairs": chair_words(board_chairs(table, board, event)),
        "penalties": {seat: values.get(f"penalty-{seat}", "") for seat in seats},
        "adjusted": {seat: values.get(f"adjusted-{seat}", "") for seat in seats},
        "adjusted_reason": values.get("adjusted_reason", ""),
        "errors": errors,
        "conflict": conflict,
        "organiser": organiser,
        "may_enter": may_enter(request.user, event, table.round),
        "may_confirm": deal is not None
        and deal.status in (Deal.Status.DRAFT, Deal.Status.DISPUTED)
        and not is_awaiting(mark)  # a board not played waits for the chief arbiter's score first
        and may_confirm(request.user, deal),
        "flags": [
            {"kind": kind, "label": FLAG_KINDS[kind]}
            for kind in round_flags(table.round, [table.id]).get((table.id, board), [])
        ]
        if deal is not None
        else [],
        "dispute": RefereeCall.objects.filter(table=table, board=board, kind=RefereeCall.Kind.DISPUTE)
        .select_related("entrant")
        .last()
        if deal is not None and deal.status == Deal.Status.DISPUTED
        else None,
        "history": [
            # Another game's deal as each version had it, in its fields' words; what the version
            # left standing (a redeal's void is back to draft).
            dict(
                row,
                words=_version_words(event, kind, row["after"]),
                status_label=dict(Deal.Status.choices).get((row["after"] or {}).get("status"), ""),
            )
            for row in _history_shown(history_rows(table, board, links=True))
        ],
        "irregularities": Irregularity.objects.filter(deal=deal).select_related("referee") if deal else [],
        # Calls recorded at the table for this board, and penalties ruled on them not yet on a deal.
        "calls": RefereeCall.objects.filter(table=table, board=board).exclude(kind=RefereeCall.Kind.DISPUTE),
        "pending_penalties": pending_penalties(table, board)[0] if deal is None else {},
        "claim_prefilled": deal is None and any(key.startswith("card-") for key in values),
        "irregularity_kinds": Irregularity.Kind.choices,
        "blind": enters_blind(request.user, event),
        "differences": blind_differences(table, board) if organiser and event.double_entry else [],
        "next_board": board + 1
        if (event.match_mode == Event.MatchMode.GAMES or board < event.match_length)
        and not match_ended_at(table, board, game_of(event), event_rules(event))  # 升级: no deal after the end
        else None,
    }


def _locate(event, number, table_number, board):
    try:
        return locate_board(event, number, table_number, board)
    except EntryError as failure:
        raise Http404(message_text(failure)) from None


@event_official
def board_entry(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    deal = Deal.objects.select_related("entered_by", "confirmed_by").filter(table=table, board=board).first()
    grid = game_entry.entry_kind(event) == game_entry.GRID
    if request.method == "GET":
        blind = enters_blind(request.user, event)
        values = {} if blind else form_from_deal(deal) if grid else game_entry.values_from_deal(event, deal)
        if deal is not None and is_awaiting(not_played_mark(deal)):
            # The chief arbiter types the adjusted score: the stored zeros only held its place.
            values = {key: value for key, value in values.items() if not key.startswith("adjusted")}
        if deal is None and not blind and grid:
            values, _claim = claim_values(table, board)  # a ruled claim's fall, for the referee to confirm
        context = _board_context(request, event, table, board, deal, values)
        return render(request, context["template"], context)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    form, _kind = game_entry.entry_form(event, request.POST, board)
    if not form.is_valid():
        current = Deal.objects.select_related("entered_by").filter(table=table, board=board).first()
        context = _board_context(request, event, table, board, current, request.POST, errors=form_errors(form))
        return render(request, context["template"], context, status=400)
    deal_json = deal_from_form(form.entry_values(), event_rules(event).decks) if grid else form.deal_json()
    try:
        if enters_blind(request.user, event):
            outcome, deal = blind_entry_submit(
                table=table,
                board=board,
                deal_json=deal_json,
                user=request.user,
                reason=form.cleaned_data["reason"],
                ip=client_ip(request),
            )
            text = {
                "waiting": _("已保存，等待另一名裁判独立录入"),
                "confirmed": _("两名裁判录入一致，已确认"),
                "conflict": _("两名裁判录入不一致，已提交裁判长"),
            }[outcome]
            messages.success(request, text)
        else:
            deal, _created = deal_save(
                table=table,
                board=board,
                deal_json=deal_json,
                user=request.user,
                expected_version=form.cleaned_data["version"],
                reason=form.cleaned_data["reason"],
                ip=client_ip(request),
            )
            # The message says what the badge will show: an organiser's correction of a
            # published round stands confirmed at once; anything else waits for a second referee.
            if deal.status == Deal.Status.CONFIRMED:
                saved = _("第 %(board)s 副已保存（第 %(version)s 版，已确认）")
            else:
                saved = _("第 %(board)s 副已保存（第 %(version)s 版，待另一名裁判确认）")
            messages.success(request, saved % {"board": board, "version": deal.version})
    except EntryError as failure:
        current = Deal.objects.select_related("entered_by").filter(table=table, board=board).first()
        conflict = current if failure.code == "stale_version" else None
        # The refusal heads the page; the engine's reasons for the deal as posted stand beside
        # their fields (the preview drawn, `_game_context`).
        context = _board_context(
            request, event, table, board, current, request.POST, errors=[message_text(failure)], conflict=conflict
        )
        context["posted_version"] = form.cleaned_data.get("version") or ""
        return render(request, context["template"], context, status=409 if conflict else 400)
    if (
        request.POST.get("next")
        and event.match_mode == Event.MatchMode.BOARDS
        and board < event.match_length
        and not match_ended_at(table, board, game_of(event), event_rules(event))
    ):
        return redirect("referee-board", event.slug, number, table_number, board + 1)
    return redirect("referee-board", event.slug, number, table_number, board)


@event_official
@require_POST
def board_preview(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    return JsonResponse(form_preview(event, table, board, request.POST))


@event_official
@require_POST
def board_confirm(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    deal = get_object_or_404(Deal.objects.select_related("entered_by"), table=table, board=board)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("referee-board", event.slug, number, table_number, board)
    try:
        deal_confirm(
            deal=deal,
            user=request.user,
            expected_version=form.cleaned_data["version"],
            ip=client_ip(request),
            reason=form.cleaned_data["reason"],
        )
        messages.success(request, _("第 %(board)s 副已确认") % {"board": board})
    except EntryError as failure:
        messages.error(request, message_text(failure))
        return redirect("referee-board", event.slug, number, table_number, board)
    if form.cleaned_data["next"]:
        following = next_to_confirm(table.round, request.user, after=(table.number, board))
        if following is None:
            messages.info(request, _("本轮没有等你确认的牌了"))
            return redirect("referee-round", event.slug, number)
        return redirect("referee-board", event.slug, number, *following)
    return redirect("referee-board", event.slug, number, table_number, board)


@event_official
@require_POST
def board_flag_clear(request, event, number, table_number, board):
    """A referee has looked at a flagged board: the flag is cleared with a word."""
    table, board = _locate(event, number, table_number, board)
    form = FlagClearForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            flag_clear(table=table, board=board, user=request.user, **form.cleaned_data)
            messages.success(request, _("提示已清除"))
        except EntryError as failure:
            messages.error(request, message_text(failure))
    return redirect("referee-board", event.slug, number, table_number, board)


@event_official
def table_confirm(request, event, number, table_number):
    """The table's boards at a glance, each with its history (where the grid's cell leads): a
    second referee checks them against the paper side by side and confirms the ticked ones at
    once (each at the version shown: a newer one is refused, not confirmed)."""
    table = get_object_or_404(
        Table.objects.select_related("round"), round__event=event, round__number=number, number=table_number
    )
    deals = list(Deal.objects.filter(table=table).select_related("entered_by").order_by("sequence"))
    game = game_of(event)
    mine = [d for d in deals if d.status == Deal.Status.DRAFT and may_confirm(request.user, d)]
    form = TableConfirmForm(request.POST or None, deals=mine)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, "；".join(form_errors(form)))
        else:
            by_board = {d.board: d for d in mine}
            done, refused = [], []
            for board, version in sorted(form.chosen().items()):
                try:
                    deal_confirm(
                        deal=by_board[board], user=request.user, expected_version=version, ip=client_ip(request)
                    )
                    done.append(board)
                except EntryError as failure:
                    refused.append(f"{board}: {message_text(failure)}")
            if done:
                messages.success(request, _("已确认第 %(boards)s 副") % {"boards": joined(map(str, done))})
            for line in refused:
                messages.error(request, line)
            return redirect("referee-table-confirm", event.slug, number, table_number)
    rows = [
        {
            "deal": deal,
            # Another game's deal in its fields' words (华牌's are the cards of each seat).
            "words": deal_text(game, deal.game_data) if deal.game_data is not None else "",
            "captured": {seat: cards_text(deal.captured.get(seat, [])) for seat in SEATS},
            "holders": holders_text(deal.holders),
            "exposed": term_text(exposed_text(deal.exposed)),
            # As the score sheet has them: each seat's penalty with its sign, and an adjusted score.
            "penalties": [(seat, deal.penalties[seat]) for seat in SEATS if deal.penalties.get(seat)],
            "adjusted": [(seat, deal.adjusted.get(seat)) for seat in SEATS] if deal.adjusted else [],
            "may_confirm": deal in mine,
        }
        for deal in deals
    ]
    history = table_history(table)
    return render(
        request,
        "referee/table_confirm.html",
        {
            "event": event,
            "round": table.round,
            "table": table,
            "rows": rows,
            "seats": game.seats,
            "words": game.deal_keys is not None,
            "confirmable": bool(mine),
            "history": [(board, _history_shown(history[board])) for board in sorted(history)],
        },
    )


@event_official
@require_POST
def board_irregularity(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    deal = get_object_or_404(Deal, table=table, board=board)
    form = IrregularityForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("referee-board", event.slug, number, table_number, board)
    data = form.cleaned_data
    try:
        irregularity_record(
            deal=deal,
            user=request.user,
            seat=data["seat"],
            kind=data["kind"],
            ruling=data["ruling"],
            penalty=-(data["penalty"] or 0),
            expected_version=data["version"],
            ip=client_ip(request),
        )
        messages.success(request, _("违例与裁决已记录"))
    except EntryError as failure:
        messages.error(request, message_text(failure))
    return redirect("referee-board", event.slug, number, table_number, board)


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
    try:
        round_publish(rnd, user=request.user)
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
