"""The referees' pages for calls at the tables: the round's list with a form to record one, a
call's page with its ruling. The services are `scoring.rulings.calls`."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import deal_at
from scoring.events.permissions import may_enter
from scoring.games import game_of
from scoring.messages import message_text
from scoring.models import RefereeCall, Round, Table
from scoring.rulings.appeals import appeal_window_ends, by_players
from scoring.rulings.calls import call_open, call_rule, claim_text, penalty_apply, round_calls
from scoring.rulings.not_played import not_played_text
from scoring.web.client_address import client_ip
from scoring.web.forms import CallOpenForm, CallRuleForm, form_errors
from scoring.web.referee.views import event_official


def game_choices(choices, codes):
    """[(code, label)] of a stored choice (`RefereeCall.Kind`, `.Outcome`) the game has, in the
    game's order."""
    labels = dict(choices.choices)
    return [(code, labels[code]) for code in codes]


@event_official
def calls_page(request, event, number):
    """Every call of the round, and (POST) a call recorded by a referee at a table."""
    rnd = get_object_or_404(Round, event=event, number=number)
    form = CallOpenForm(request.POST or None, initial={"table": request.GET.get("table", "")[:9]})
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            table = Table.objects.filter(round=rnd, number=data["table"]).first()
            if table is None:
                form.add_error("table", _("本轮没有 %(n)s 号桌") % {"n": data["table"]})
            else:
                try:
                    call = call_open(
                        table=table,
                        user=request.user,
                        kind=data["kind"],
                        board=data["board"],
                        seats=data["seats"],
                        facts=data["facts"],
                    )
                except EntryError as failure:
                    messages.error(request, message_text(failure))
                else:
                    return redirect("referee-call", event.slug, number, call.pk)
        if form.errors:
            messages.error(request, "；".join(form_errors(form)))
    return render(
        request,
        "referee/calls.html",
        {
            "event": event,
            "round": rnd,
            "calls": round_calls(rnd),
            "form": form,
            # The game's kinds of call and seats (跑胡子: no claims, no North).
            "kinds": game_choices(RefereeCall.Kind, game_of(event).call_kinds),
            "seats": game_of(event).seats,
            "may_enter": may_enter(request.user, event, rnd),
        },
    )


@event_official
def call_page(request, event, number, call_id):
    """One call: what happened, and the ruling (a form until it is ruled)."""
    call = get_object_or_404(
        RefereeCall.objects.select_related("table__round", "entrant", "opened_by", "ruled_by"),
        pk=call_id,
        table__round__event=event,
        table__round__number=number,
    )
    form = CallRuleForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                call_rule(
                    call=call,
                    user=request.user,
                    outcome=data["outcome"],
                    ruling=data["ruling"],
                    penalty_seat=data["penalty_seat"],
                    penalty=-(data["penalty"] or 0),
                    claimant=data["claimant"],
                    claim_trick=data["claim_trick"],
                    claim_fall_by_seat=form.fall(),
                    claim_status=data["claim_status"],
                    board=data["board"],
                    ip=client_ip(request),
                )
            except EntryError as failure:
                messages.error(request, message_text(failure))
                call.refresh_from_db()  # the page shows the call as stored: unruled
            else:
                messages.success(request, _("裁决已记录"))
                return redirect("referee-call", event.slug, number, call.pk)
        else:
            messages.error(request, "；".join(form_errors(form)))
    deal = deal_at(call.table, call.board) if call.board else None
    game = game_of(event)
    return render(
        request,
        "referee/call.html",
        {
            "event": event,
            "round": call.table.round,
            "call": call,
            "table": call.table,
            "deal": deal,
            "form": form,
            "seats": game.seats,
            # The game's outcomes, and the penalty boxes only where its law has penalty points.
            "outcomes": game_choices(RefereeCall.Outcome, game.call_outcomes),
            "takes_penalties": game.takes_penalties,
            "game_name": _(game.name),
            "claim_text": claim_text(call),
            "not_played": not_played_text(deal) if deal is not None else None,
            "penalty_pending": call.outcome == RefereeCall.Outcome.PENALTY and not call.irregularities.exists(),
            "may_enter": may_enter(request.user, event, call.table.round),
            # Within the correction period a ruling may be appealed: the appeals form, filled in.
            "appeal_open": call.ruled_at is not None and appeal_window_ends(call.table.round) is not None,
            "by_players": by_players(call.table),  # an appeal by a player, not a side, at a table of individuals
        },
    )


@event_official
@require_POST
def call_penalty_apply(request, event, number, call_id):
    """A penalty ruled before the deal existed, put onto the deal that has arrived since."""
    call = get_object_or_404(RefereeCall, pk=call_id, table__round__event=event, table__round__number=number)
    try:
        penalty_apply(call=call, user=request.user, ip=client_ip(request))
        messages.success(request, _("罚分已计入这一副"))
    except EntryError as failure:
        messages.error(request, message_text(failure))
    return redirect("referee-call", event.slug, number, call.pk)
