"""Rounds: check-in and pairing, the round console, swaps and releasing the draw, final stages, team line-ups.

Views check the form, call one service and turn its domain error into a message."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.engine.clock import allowed_actions
from scoring.engine.pairing import PairingError
from scoring.entry.errors import EntryError
from scoring.events.lineups import (
    LineUpError,
    first_board,
    lineup_matches,
    lineup_set,
    match_tables,
    seats_for,
    team_members,
)
from scoring.games import game_of
from scoring.games.stored import plays_alone
from scoring.messages import message_text
from scoring.models import Event, Match, Round, Table
from scoring.rounds import draws
from scoring.rounds.creation import (
    next_round_number,
    round_candidates,
    round_pair,
    round_release_draw,
    round_repair,
    round_swap_entrants,
)
from scoring.rounds.final_stage import final_stage_start, knockout_advance
from scoring.rounds.publication import publication_checklist
from scoring.rounds.table_links import table_links, table_token_replace
from scoring.rulings.clock import clock_act, clock_log, pace, round_clock, round_minutes, state_words
from scoring.rulings.match_ruling import match_ruling_rows, rule_match
from scoring.web.client_address import client_ip
from scoring.web.forms import ClockForm, MatchRulingForm, SwapForm, form_errors, match_ruling_choices
from scoring.web.organiser.access import organiser_page, organiser_post, refused
from scoring.web.organiser.forms import (
    LineUpForm,
    PairingForm,
    SessionQueryForm,
    StageForm,
)

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
                refused(request, failure)
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
            # A game whose players each play alone (斗地主, 跑胡子): a column per seat, no sides.
            "alone_seats": game_of(event).seats if plays_alone(game_of(event)) else None,
            "started": started,
            "repair_form": _pairing_form(request, event, number) if not started else None,
            "checklist": publication_checklist(rnd),
            "links": table_links(rnd),
            "later_rounds": event.rounds.filter(number__gt=number).exists(),
            "lineup_matches": lineup_matches(rnd),
            # A game whose match carries a state (升级): the matches the chief arbiter may rule on.
            "match_rulings": match_ruling_rows(rnd),
            "ruling_choices": match_ruling_choices(game_of(event)),
            **_clock_context(rnd),
        },
    )


def _clock_context(rnd):
    clock = round_clock(rnd)
    return {
        "clock": clock,
        "clock_words": state_words(clock),
        "pace": pace(rnd, clock),
        "clock_allowed": allowed_actions(clock),
        "clock_log": clock_log(rnd),
        "round_minutes": round_minutes(rnd.event),
    }


@organiser_post
def round_clock_view(request, event, number):
    """The organiser starts, pauses, resumes or extends the round's clock, or calls time."""
    rnd = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("organiser-round", event.slug, number)
    data = form.cleaned_data
    try:
        clock, recorded = clock_act(
            rnd=rnd,
            user=request.user,
            action=data["action"],
            minutes=data["minutes"] or 0,
            finish_in_play=data["finish_in_play"],
        )
    except EntryError as failure:
        refused(request, failure)
    else:
        if data["action"] == "call_time":
            messages.success(request, _("时间到：%(n)s 副记为未打") % {"n": recorded})
        else:
            messages.success(request, _("计时：%(state)s") % {"state": message_text(state_words(clock))})
    return redirect("organiser-round", event.slug, number)


@organiser_post
def match_ruling_view(request, event, number, table_number):
    """The chief arbiter rules on a table's unfinished match (升级: time called short of the target)."""
    table = get_object_or_404(
        Table.objects.select_related("round__event"), round__event=event, round__number=number, number=table_number
    )
    form = MatchRulingForm(request.POST, game=game_of(event))
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
        return redirect("organiser-round", event.slug, number)
    data = form.cleaned_data
    try:
        match_ruling = rule_match(
            table=table, user=request.user, outcome=data["outcome"], reason=data["reason"], ip=client_ip(request)
        )
    except EntryError as failure:
        refused(request, failure)
    else:
        words = dict(match_ruling_choices(game_of(event)))[match_ruling["outcome"]]
        messages.success(request, _("%(table)s号桌比赛结果已裁定：%(words)s") % {"table": table.number, "words": words})
    return redirect("organiser-round", event.slug, number)


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
        refused(request, failure)
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
            refused(request, failure)
        else:
            messages.success(request, _("已调换并记录"))
    return redirect("organiser-round", event.slug, number)


@organiser_post
def round_release_view(request, event, number):
    rnd = round_release_draw(get_object_or_404(Round, event=event, number=number), user=request.user)
    messages.success(request, _("第 %(round)s 轮对阵表已公布") % {"round": rnd.number})
    return redirect("organiser-round", event.slug, number)


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
        refused(request, failure)
        return redirect("organiser-event", event.slug)
    messages.success(request, _("决赛阶段已编排：第 %(round)s 轮起") % {"round": created[0].number})
    return redirect("organiser-round", event.slug, created[0].number)


@organiser_post
def stage_advance_view(request, event):
    try:
        rnd = knockout_advance(event, user=request.user)
    except PairingError as failure:
        refused(request, failure)
        return redirect("organiser-event", event.slug)
    messages.success(request, _("第 %(round)s 轮（淘汰赛下一轮）已编排") % {"round": rnd.number})
    return redirect("organiser-round", event.slug, rnd.number)


# --- team line-ups ----------------------------------------------------------------------------------


@organiser_page
def lineup_page(request, event, number, match_number):
    """A match's line-up for a 节: who of each team or pair sits where (substitutions between 节)."""
    rnd = get_object_or_404(Round, event=event, number=number)
    match = get_object_or_404(Match, round=rnd, number=match_number, bye__isnull=True)
    tables = match_tables(match)
    if len(tables) != {Event.Kind.TEAMS: 2, Event.Kind.PAIRS: 1}.get(event.kind):
        raise Http404("no line-ups for this match")
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
                refused(request, failure)
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


@organiser_post
def table_token_replace_view(request, event, number, table_number):
    table = get_object_or_404(Table, round__event=event, round__number=number, number=table_number)
    table_token_replace(table)
    messages.success(request, _("%(table)s 号桌的链接已更换，旧链接已失效") % {"table": table_number})
    return redirect("organiser-round", event.slug, number)
