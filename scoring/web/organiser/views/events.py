"""The organiser's console: its home, creating an event, an event's console and its settings.

Views check the form, call one service and turn its domain error into a message."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.backups.services import backup_state
from scoring.events.closing import ClosingError, closing_state, event_finish, event_reopen
from scoring.events.rulebook import rules_in_force
from scoring.events.setup import (
    RESULT_FIELDS,
    EventError,
    event_create,
    event_update,
    has_results,
    may_create_events,
    slug_proposal,
)
from scoring.models import Entrant, Event, EventRole, Round
from scoring.rounds.final_stage import stage_of, stage_offered
from scoring.web.organiser.access import organiser_page, organiser_post, refused
from scoring.web.organiser.event_form import EventForm, GameChoiceForm, SlugQueryForm
from scoring.web.organiser.forms import ReasonForm, StageForm

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
        {
            "events": events.order_by("-start_date", "name"),
            "may_create": may_create_events(request.user),
            "backup": backup_state(),
        },
    )


@login_required
def event_new(request):
    if not may_create_events(request.user):
        raise PermissionDenied("may not create events")
    form = EventForm(request.POST or None, game=GameChoiceForm(request.GET).chosen())
    if request.method == "POST":
        form.data = form.data.copy()
        if not form.data.get("slug") and form.data.get("name"):
            form.data["slug"] = slug_proposal(form.data["name"][:200])
        if form.switched:
            form = _switched(form)
        elif form.is_valid():
            try:
                event = event_create(form.save(commit=False), user=request.user)
            except EventError as failure:
                refused(request, failure)
            else:
                messages.success(request, _("赛事已创建，你是它的组织者"))
                return redirect("organiser-event", event.slug)
    return render(request, "organiser/event_form.html", {"form": form, "event": None})


def _switched(form):
    """Another game chosen on the form: the same page with that game's fields, nothing saved."""
    values = {name: form.data.get(name) for name in form.data if name != "shown_game"}
    return EventForm(initial=values, instance=form.instance, frozen=form.frozen, game=form.game.id)


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
            "rules": rules_in_force(event),
            "stage": stage_of(event),
            "stage_form": StageForm() if stage_offered(event) else None,
            "closing": closing_state(event),
            "backup": backup_state(),
        },
    )


@organiser_post
def event_finish_view(request, event):
    try:
        event_finish(event, user=request.user)
    except ClosingError as failure:
        refused(request, failure)
    else:
        messages.success(request, _("赛事已结束：排名为最终成绩"))
    return redirect("organiser-event", event.slug)


@organiser_post
def event_reopen_view(request, event):
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        event_reopen(event, user=request.user, reason=reason)
    except ClosingError as failure:
        refused(request, failure)
    else:
        messages.success(request, _("赛事已重新开放"))
    return redirect("organiser-event", event.slug)


@organiser_page
def event_edit(request, event):
    frozen = RESULT_FIELDS if has_results(event) else ()
    # The form edits a copy: an invalid submission must not rename the event the page links to.
    form = EventForm(
        request.POST or None,
        instance=Event.objects.get(pk=event.pk),
        frozen=frozen,
        game=GameChoiceForm(request.GET).chosen(),
    )
    if request.method == "POST" and form.switched:
        form = _switched(form)
    elif request.method == "POST" and form.is_valid():
        try:
            event_update(form.save(commit=False), changed=form.changed_result_fields())
        except EventError as failure:
            refused(request, failure)
        else:
            messages.success(request, _("已保存"))
            return redirect("organiser-event", event.slug)
    return render(request, "organiser/event_form.html", {"form": form, "event": event, "frozen": frozen})
