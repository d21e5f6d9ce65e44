"""The organiser's console: every normal step of an event as a page. Views check the form,
call one service and turn its domain error into a message."""

import json
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.archive.database import export_archive, import_archive_upload
from scoring.archive.format import ArchiveError
from scoring.engine.pairing import PairingError
from scoring.events import staff
from scoring.events.entrants import (
    EntrantError,
    NewEntrant,
    SpreadsheetError,
    entrant_reinstate,
    entrant_request_bye,
    entrant_update,
    entrant_withdraw,
    entrants_create,
    entrants_preview,
)
from scoring.events.lineups import LineUpError, first_board, lineup_set, match_tables, seats_for, team_members
from scoring.events.permissions import is_organiser, organises_any_event
from scoring.events.rulebook import rules_text
from scoring.events.setup import (
    RESULT_FIELDS,
    EventError,
    event_create,
    event_update,
    has_results,
    may_create_events,
    revoke_event_creation,
    slug_proposal,
)
from scoring.messages import message_text
from scoring.models import Entrant, Event, EventRole, Match, Round, with_members
from scoring.rounds import draws
from scoring.rounds.creation import (
    next_round_number,
    round_candidates,
    round_pair,
    round_release_draw,
    round_repair,
    round_swap_entrants,
)
from scoring.rounds.final_stage import final_stage_start, knockout_advance, stage_of
from scoring.rounds.publication import publication_checklist
from scoring.web.forms import SwapForm, form_errors
from scoring.web.organiser.forms import (
    ArchiveUploadForm,
    ByeForm,
    EntrantForm,
    EventForm,
    LineUpForm,
    OrganiserAccountForm,
    PairingForm,
    PasswordForm,
    SessionQueryForm,
    SlugQueryForm,
    StaffForm,
    StageForm,
    UploadForm,
)

PREVIEW_SESSION_KEY = "entrant-import:{slug}"


def organiser_page(view):
    """Login, then the organiser role on the event in the URL."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        event = get_object_or_404(Event, slug=slug)
        if not is_organiser(request.user, event):
            raise PermissionDenied("organisers only")
        return view(request, event, *args, **kwargs)

    return wrapper


def organiser_post(view):
    return organiser_page(require_POST(view))


def _refused(request, failure):
    messages.error(request, message_text(failure))


# --- events ----------------------------------------------------------------------------


@login_required
def console_home(request):
    if request.user.is_superuser:
        events = Event.objects.all()
    else:
        events = Event.objects.filter(roles__user=request.user, roles__role=EventRole.Role.ORGANISER).distinct()
    return render(
        request,
        "organiser/home.html",
        {"events": events.order_by("-start_date", "name"), "may_create": may_create_events(request.user)},
    )


@login_required
def event_new(request):
    if not may_create_events(request.user):
        raise PermissionDenied("may not create events")
    form = EventForm(request.POST or None)
    if request.method == "POST":
        form.data = form.data.copy()
        if not form.data.get("slug") and form.data.get("name"):
            form.data["slug"] = slug_proposal(form.data["name"][:200])
        if form.is_valid():
            try:
                event = event_create(form.save(commit=False), user=request.user)
            except EventError as failure:
                _refused(request, failure)
            else:
                messages.success(request, _("赛事已创建，你是它的组织者"))
                return redirect("organiser-event", event.slug)
    return render(request, "organiser/event_form.html", {"form": form, "event": None})


@login_required
def slug_suggestion(request):
    """The slug proposed for a name (the event form fills it in as the organiser types)."""
    form = SlugQueryForm(request.GET)
    if not may_create_events(request.user) or not form.is_valid():
        return JsonResponse({"slug": ""})
    return JsonResponse({"slug": slug_proposal(form.cleaned_data["name"])})


@organiser_page
def event_console(request, event):
    rounds = list(event.rounds.order_by("number"))
    unpublished = any(r.status in (Round.Status.IN_PLAY,) for r in rounds)
    entrants = Entrant.objects.filter(event=event)
    return render(
        request,
        "organiser/event.html",
        {
            "event": event,
            "rounds": rounds,
            "entrant_count": entrants.count(),
            "withdrawn_count": entrants.filter(withdrawn_after_round__isnull=False).count(),
            "unpublished": unpublished,
            "rules": rules_text(event),
            "stage": stage_of(event),
            "stage_form": StageForm(),
        },
    )


@organiser_page
def event_edit(request, event):
    frozen = RESULT_FIELDS if has_results(event) else ()
    # The form edits a copy: an invalid submission must not rename the event the page links to.
    form = EventForm(request.POST or None, instance=Event.objects.get(pk=event.pk), frozen=frozen)
    if request.method == "POST" and form.is_valid():
        try:
            event_update(form.save(commit=False), changed=form.changed_result_fields())
        except EventError as failure:
            _refused(request, failure)
        else:
            messages.success(request, _("已保存"))
            return redirect("organiser-event", event.slug)
    return render(request, "organiser/event_form.html", {"form": form, "event": event, "frozen": frozen})


# --- staff -------------------------------------------------------------------------------


@organiser_page
def staff_page(request, event):
    form = StaffForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                user, created = staff.staff_add(event, **form.cleaned_data)
            except staff.StaffError as failure:
                _refused(request, failure)
            else:
                messages.success(
                    request,
                    (
                        _("已创建账号 %(username)s")
                        if created
                        else _("已给 %(username)s 添加角色（已有账号，保留自己的密码）")
                    )
                    % {"username": user.username},
                )
                return redirect("organiser-staff", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(
        request,
        "organiser/staff.html",
        {
            "event": event,
            "form": form,
            "rows": staff.staff_rows(event),
            "activity": staff.recent_activity(event),
            "password_form": PasswordForm(),
        },
    )


@organiser_post
def staff_password(request, event, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, event_roles__event=event)
    form = PasswordForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            staff.staff_set_password(event, organiser=request.user, user=user, password=form.cleaned_data["password"])
        except staff.StaffError as failure:
            _refused(request, failure)
        else:
            messages.success(request, _("已重设 %(username)s 的密码") % {"username": user.username})
    return redirect("organiser-staff", event.slug)


@organiser_post
def staff_revoke(request, event, role_id):
    try:
        staff.staff_revoke(event, role_id=role_id)
    except staff.StaffError as failure:
        _refused(request, failure)
    else:
        messages.success(request, _("已撤销角色"))
    return redirect("organiser-staff", event.slug)


@login_required
def organisers_page(request):
    """Superusers name the organisers: accounts that may create events."""
    if not request.user.is_superuser:
        raise PermissionDenied("superusers only")
    form = OrganiserAccountForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                user, _created = staff.organiser_add(**form.cleaned_data)
            except staff.StaffError as failure:
                _refused(request, failure)
            else:
                messages.success(request, _("%(username)s 可以创建赛事了") % {"username": user.username})
                return redirect("organiser-organisers")
        else:
            messages.error(request, "；".join(form_errors(form)))
    organisers = get_user_model().objects.filter(user_permissions__codename="add_event").order_by("username")
    return render(request, "organiser/organisers.html", {"form": form, "organisers": organisers})


@login_required
@require_POST
def organiser_revoke(request, user_id):
    if not request.user.is_superuser:
        raise PermissionDenied("superusers only")
    user = get_object_or_404(get_user_model(), pk=user_id)
    revoke_event_creation(user)
    messages.success(request, _("%(username)s 不能再创建赛事") % {"username": user.username})
    return redirect("organiser-organisers")


# --- entrants ------------------------------------------------------------------------------


@organiser_page
def entrants_page(request, event):
    form = EntrantForm(request.POST or None, kind=event.kind)
    if request.method == "POST":
        if form.is_valid():
            new = NewEntrant(
                code=form.cleaned_data["code"],
                names=tuple(form.names()),
                club=form.cleaned_data.get("club", ""),
                team=form.cleaned_data.get("team", ""),
            )
            try:
                created = entrants_create(event, [new])
            except EntrantError as failure:
                _refused(request, failure)
            else:
                entrant = created[0]
                note = (
                    _("（补报，从第 %(round)s 轮起参赛）") % {"round": entrant.joined_round}
                    if entrant.joined_round
                    else ""
                )
                messages.success(request, _("已添加 %(code)s") % {"code": entrant.code} + note)
                return redirect("organiser-entrants", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    entrants = Entrant.objects.filter(event=event).prefetch_related(with_members()).order_by("code").all()
    return render(
        request,
        "organiser/entrants.html",
        {"event": event, "entrants": entrants, "form": form, "bye_form": ByeForm()},
    )


def _entrant(event, code):
    return get_object_or_404(Entrant, event=event, code=code)


@organiser_page
def entrant_edit(request, event, code):
    entrant = _entrant(event, code)
    players = [m.player for m in entrant.memberships.select_related("player").order_by("position")]
    initial = {"code": entrant.code, "team": entrant.name, "club": players[0].club if players else ""}
    initial.update({f"name{n}": p.name for n, p in enumerate(players, start=1)})
    form = EntrantForm(request.POST or None, kind=event.kind, editing=True, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            try:
                entrant_update(
                    entrant, names=form.names(), club=form.cleaned_data["club"], team=form.cleaned_data.get("team", "")
                )
            except EntrantError as failure:
                _refused(request, failure)
            else:
                messages.success(request, _("已保存"))
                return redirect("organiser-entrants", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(request, "organiser/entrant_form.html", {"event": event, "entrant": entrant, "form": form})


@organiser_post
def entrant_withdraw_view(request, event, code):
    entrant = entrant_withdraw(_entrant(event, code))
    messages.success(
        request,
        _("%(code)s 已退赛：第 %(round)s 轮之后不再编排，已有成绩保留")
        % {"code": entrant.code, "round": entrant.withdrawn_after_round},
    )
    return redirect("organiser-entrants", event.slug)


@organiser_post
def entrant_reinstate_view(request, event, code):
    entrant = entrant_reinstate(_entrant(event, code))
    messages.success(request, _("%(code)s 已恢复参赛") % {"code": entrant.code})
    return redirect("organiser-entrants", event.slug)


@organiser_post
def entrant_bye_view(request, event, code):
    form = ByeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            entrant = entrant_request_bye(_entrant(event, code), form.cleaned_data["round"])
        except EntrantError as failure:
            _refused(request, failure)
        else:
            messages.success(
                request,
                _("%(code)s 申请第 %(round)s 轮轮空") % {"code": entrant.code, "round": entrant.bye_round}
                if entrant.bye_round
                else _("%(code)s 的轮空申请已取消") % {"code": entrant.code},
            )
    return redirect("organiser-entrants", event.slug)


@organiser_page
def entrants_import_page(request, event):
    """Upload a spreadsheet: nothing is written; the preview lists what would be created and
    what is rejected, and is kept in the session until the organiser confirms it."""
    form = UploadForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, "；".join(form_errors(form)) or _("请选择一个 xlsx 文件"))
        else:
            try:
                report = entrants_preview(event, form.cleaned_data["file"])
            except SpreadsheetError as failure:
                _refused(request, failure)
            except Exception as failure:  # openpyxl raises many kinds for a broken or non-xlsx file
                messages.error(
                    request, _("无法读取这个文件（%(kind)s），请上传 .xlsx") % {"kind": type(failure).__name__}
                )
            else:
                request.session[PREVIEW_SESSION_KEY.format(slug=event.slug)] = [
                    new.as_dict() for new in report.to_create
                ]
    return render(request, "organiser/entrants_import.html", {"event": event, "form": form, "report": report})


@organiser_post
def entrants_import_confirm(request, event):
    rows = request.session.pop(PREVIEW_SESSION_KEY.format(slug=event.slug), None)
    if not rows:
        messages.error(request, _("没有待导入的预览，请重新上传"))
        return redirect("organiser-entrants-import", event.slug)
    try:
        created = entrants_create(event, [NewEntrant(**{**row, "names": tuple(row["names"])}) for row in rows])
    except EntrantError as failure:
        _refused(request, failure)
        return redirect("organiser-entrants-import", event.slug)
    messages.success(request, _("已导入 %(n)s 个参赛者") % {"n": len(created)})
    return redirect("organiser-entrants", event.slug)


# --- rounds ----------------------------------------------------------------------------------


def _pairing_context(event, number, form):
    playing, out = round_candidates(event, number)
    return {"event": event, "number": number, "form": form, "playing": playing, "out": out}


def _pairing_form(request, event, number):
    playing, _out = round_candidates(event, number)
    entrants = [(e.code, f"{e.code} {e.display_name}") for e in playing]
    codes = [code for code, _label in entrants]
    return PairingForm(request.POST or None, entrants=entrants, initial={"present": codes, "first_table": 1})


def _pairing_message(request, rnd, pairing):
    messages.success(
        request, _("第 %(round)s 轮已编排：%(tables)s 桌") % {"round": rnd.number, "tables": len(pairing.tables)}
    )
    if pairing.rematches:
        messages.warning(request, _("有 %(n)s 桌是重复相遇（无法避免）") % {"n": pairing.rematches})
    if pairing.club_clashes:
        messages.warning(request, _("同单位回避未能完全做到：%(n)s 桌同单位相遇") % {"n": pairing.club_clashes})


@organiser_page
def pairing_page(request, event):
    """Availability (who is present) and the next round's pairing."""
    number = next_round_number(event)
    form = _pairing_form(request, event, number)
    if request.method == "POST":
        if form.is_valid():
            try:
                rnd, pairing = round_pair(event, form.cleaned_data["method"], user=request.user, options=form.options())
            except PairingError as failure:
                _refused(request, failure)
            else:
                _pairing_message(request, rnd, pairing)
                return redirect("organiser-round", event.slug, rnd.number)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(request, "organiser/pairing.html", _pairing_context(event, number, form))


@organiser_page
def round_console(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    started = rnd.status != Round.Status.SCHEDULED or rnd.tables.filter(deals__isnull=False).exists()
    return render(
        request,
        "organiser/round.html",
        {
            "event": event,
            "round": rnd,
            "draw": draws.draw_rows(rnd),
            "started": started,
            "repair_form": _pairing_form(request, event, number) if not started else None,
            "checklist": publication_checklist(rnd),
            "later_rounds": event.rounds.filter(number__gt=number).exists(),
            "matches": rnd.matches.filter(bye__isnull=True).select_related("home", "away").order_by("number"),
        },
    )


@organiser_post
def round_repair_view(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    form = _pairing_form(request, event, number)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("organiser-round", event.slug, number)
    try:
        rnd, pairing = round_repair(rnd, form.cleaned_data["method"], user=request.user, options=form.options())
    except PairingError as failure:
        _refused(request, failure)
    else:
        _pairing_message(request, rnd, pairing)
    return redirect("organiser-round", event.slug, number)


@organiser_post
def round_swap_view(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            round_swap_entrants(rnd, form.cleaned_data["first"], form.cleaned_data["second"], user=request.user)
        except PairingError as failure:
            _refused(request, failure)
        else:
            messages.success(request, _("已调换并记录"))
    return redirect("organiser-round", event.slug, number)


@organiser_post
def round_release_view(request, event, number):
    rnd = round_release_draw(get_object_or_404(Round, event=event, number=number), user=request.user)
    messages.success(request, _("第 %(round)s 轮对阵表已公布") % {"round": rnd.number})
    return redirect("organiser-round", event.slug, number)


# --- archives ----------------------------------------------------------------------------------


@organiser_page
def archive_download(request, event):
    body = json.dumps(export_archive(event), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.huapai-event.json"'
    return response


@login_required
def archive_upload(request):
    # Who may upload at all is decided before the body is read: a referee's 40 MB upload was
    # parsed (1.2 GB) before being told only organisers create events.
    if not (may_create_events(request.user) or organises_any_event(request.user)):
        raise PermissionDenied
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                event = import_archive_upload(
                    form.cleaned_data["file"].read(), user=request.user, replace=form.cleaned_data["replace"]
                )
            except ArchiveError as failure:
                _refused(request, failure)
            else:
                messages.success(request, _("已导入赛事 %(name)s") % {"name": event.name})
                return redirect("organiser-event", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(request, "organiser/archive_import.html", {"form": form})


# --- final stages ---------------------------------------------------------------------------------------


@organiser_post
def stage_start_view(request, event):
    form = StageForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("organiser-event", event.slug)
    try:
        created = final_stage_start(event, form.cleaned_data["kind"], form.cleaned_data["size"], user=request.user)
    except PairingError as failure:
        _refused(request, failure)
        return redirect("organiser-event", event.slug)
    messages.success(request, _("决赛阶段已编排：第 %(round)s 轮起") % {"round": created[0].number})
    return redirect("organiser-round", event.slug, created[0].number)


@organiser_post
def stage_advance_view(request, event):
    try:
        rnd = knockout_advance(event, user=request.user)
    except PairingError as failure:
        _refused(request, failure)
        return redirect("organiser-event", event.slug)
    messages.success(request, _("第 %(round)s 轮（淘汰赛下一轮）已编排") % {"round": rnd.number})
    return redirect("organiser-round", event.slug, rnd.number)


# --- team line-ups ----------------------------------------------------------------------------------


@organiser_page
def lineup_page(request, event, number, match_number):
    """A team match's line-up for a 节: who sits at which table (substitutions between 节)."""
    rnd = get_object_or_404(Round, event=event, number=number)
    match = get_object_or_404(Match, round=rnd, number=match_number, bye__isnull=True)
    tables = match_tables(match)
    if event.kind != Event.Kind.TEAMS or len(tables) != 2:
        raise Http404("not a team match")
    members = team_members(tables)
    session = SessionQueryForm(request.GET, sessions=rnd.sessions).chosen_session()
    first = first_board_of(event, rnd, session)
    initial = {"session": session}
    for table in tables:
        for seat, player in seats_for(table, first, event).items():
            initial[f"t{table.number}-{seat}"] = player.code
    form = LineUpForm(request.POST or None, tables=tables, members=members, sessions=rnd.sessions, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            try:
                lineup_set(match, form.cleaned_data["session"], form.seats_by_table(), user=request.user)
            except LineUpError as failure:
                _refused(request, failure)
            else:
                messages.success(request, _("出场名单已保存"))
                return redirect("organiser-round", event.slug, number)
        else:
            messages.error(request, "；".join(form_errors(form)))
    table_fields = [(table, [form[f"t{table.number}-{seat}"] for seat in ("N", "S", "E", "W")]) for table in tables]
    return render(
        request,
        "organiser/lineup.html",
        {"event": event, "round": rnd, "match": match, "table_fields": table_fields, "form": form, "session": session},
    )


def first_board_of(event, rnd, session):
    return min(first_board(session, event.match_length, rnd.sessions), event.match_length)
