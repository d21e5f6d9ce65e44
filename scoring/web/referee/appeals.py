"""The pages for appeals (申诉): a round's appeals with a form to lodge one for a side, and an
appeal's page where an organiser records the committee's decision. The services are
`scoring.rulings.appeals`."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.entry.errors import EntryError
from scoring.events.permissions import is_organiser
from scoring.messages import message_text
from scoring.models import Appeal, Entrant, RefereeCall, Round, Table
from scoring.rulings.appeals import (
    appeal_decide,
    appeal_floods,
    appeal_lodge,
    appeal_window_ends,
    appeals_dismiss_flood,
    appellants,
    round_appeals,
    round_appellants,
)
from scoring.web.forms import AppealDecideForm, AppealLodgeForm, EntrantCodeForm, form_errors
from scoring.web.referee.views import event_official


@event_official
def appeals_page(request, event, number):
    rnd = get_object_or_404(Round, event=event, number=number)
    # Opened from a ruling's page: its table, board and call are filled in (the form checks them).
    initial = {name: request.GET.get(name, "")[:12] for name in ("table", "board", "call", "entrant")}
    form = AppealLodgeForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            table = Table.objects.select_related("round__event").filter(round=rnd, number=data["table"]).first()
            if table is None:
                form.add_error("table", _("本轮没有 %(n)s 号桌") % {"n": data["table"]})
            else:
                # A ruling of another table is refused by appeal_lodge, by name.
                call = RefereeCall.objects.filter(pk=data["call"], table__round=rnd).first() if data["call"] else None
                try:
                    appeal = appeal_lodge(
                        table=table,
                        statement=data["statement"],
                        board=data["board"],
                        # Anyone else is refused by appeal_lodge (`bad_side`), in words.
                        entrant=next((e for e in appellants(table) if e.code == data["entrant"]), None),
                        user=request.user,
                        call=call,
                    )
                except EntryError as failure:
                    messages.error(request, message_text(failure))
                else:
                    messages.success(request, _("申诉已登记"))
                    return redirect("referee-appeal", event.slug, number, appeal.pk)
        if form.errors:
            messages.error(request, "；".join(form_errors(form)))
    return render(
        request,
        "referee/appeals.html",
        {
            "event": event,
            "round": rnd,
            "appeals": round_appeals(rnd),
            # A side that reached the link's limit: one line, dismissed in one action.
            "floods": appeal_floods(rnd),
            "may_decide": is_organiser(request.user, event),
            "form": form,
            "window_ends": appeal_window_ends(rnd),
            # Who may appeal, table by table (the one the form names when it came from a ruling).
            "appellants": _appellants(rnd, form) if appeal_window_ends(rnd) else [],
            # The rulings a side may appeal against, for the form's list.
            "ruled_calls": RefereeCall.objects.filter(table__round=rnd)
            .exclude(ruled_at=None)
            .exclude(kind=RefereeCall.Kind.DISPUTE)
            .select_related("table")
            .order_by("table__number", "board", "at"),
        },
    )


def _appellants(rnd, form):
    """Who may appeal at the table the form names (typed, or filled in from a ruling); at every
    table of the round when it names none of them."""
    value = form.data.get("table") if form.is_bound else form.initial.get("table")
    number = int(value) if isinstance(value, str) and value.isdigit() and len(value) < 10 else None
    return (number is not None and round_appellants(rnd, number)) or round_appellants(rnd)


@event_official
def appeal_page(request, event, number, appeal_id):
    appeal = get_object_or_404(
        Appeal.objects.select_related("round", "table", "entrant", "call", "decided_by", "lodged_by"),
        pk=appeal_id,
        event=event,
        round__number=number,
    )
    organiser = is_organiser(request.user, event)
    form = AppealDecideForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                appeal_decide(
                    appeal=appeal,
                    user=request.user,
                    status=data["status"],
                    decision=data["decision"],
                    deposit_outcome=data["deposit_outcome"],
                )
            except EntryError as failure:
                messages.error(request, message_text(failure))
            else:
                messages.success(request, _("申诉委员会的决定已记录"))
                return redirect("referee-appeal", event.slug, number, appeal.pk)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(
        request,
        "referee/appeal.html",
        {"event": event, "round": appeal.round, "appeal": appeal, "form": form, "organiser": organiser},
    )


@event_official
@require_POST
def appeals_flood_dismiss(request, event, number):
    """An organiser dismisses every open appeal a side lodged through the table link this round."""
    rnd = get_object_or_404(Round, event=event, number=number)
    form = EntrantCodeForm(request.POST)
    entrant = None
    if form.is_valid():
        entrant = Entrant.objects.filter(event=event, code=form.cleaned_data["entrant"]).first()
    if entrant is None:
        messages.error(request, _("没有这个参赛者"))
        return redirect("referee-appeals", event.slug, number)
    try:
        dismissed = appeals_dismiss_flood(rnd=rnd, entrant=entrant, user=request.user)
    except EntryError as failure:
        messages.error(request, message_text(failure))
    else:
        messages.success(request, _("已驳回 %(n)s 项申诉") % {"n": dismissed})
    return redirect("referee-appeals", event.slug, number)
