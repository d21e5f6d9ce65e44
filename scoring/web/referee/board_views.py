"""The pages of one board and of one table's boards: the board's entry page (enter, preview,
confirm, an irregularity, a flag cleared) and the table's boards confirmed at a glance.
The board page's GET and each of its POSTs answer with the same page (`_board_context`),
which is why they live together."""

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.engine.not_played import is_awaiting, rule_words
from scoring.entry.blind import blind_entry_submit
from scoring.entry.errors import EntryError
from scoring.entry.game_fields import deal_text, on_its_grid
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
from scoring.entry.services import deal_confirm, deal_save, irregularity_record
from scoring.entry.versioned import not_played_mark, pending_penalties
from scoring.events.lineups import board_chairs, seats_for
from scoring.events.permissions import is_organiser, may_confirm, may_enter
from scoring.events.rulebook import rules_text
from scoring.games import game_of
from scoring.games.huapai.deal_text import cards_text, exposed_text, holders_text
from scoring.games.stored import carries_state, event_rules, plays_alone
from scoring.messages import joined, message_text, term_text
from scoring.models import Deal, DealHistory, Event, Irregularity, RefereeCall, Table
from scoring.rulings.calls import claim_values
from scoring.rulings.clock import LATE_FACTS, event_clock, late_boards
from scoring.rulings.not_played import event_rule, not_played_text
from scoring.table_entry.flags import KINDS as FLAG_KINDS
from scoring.table_entry.flags import flag_clear, round_flags
from scoring.web.client_address import client_ip
from scoring.web.forms import ConfirmForm, FlagClearForm, IrregularityForm, TableConfirmForm, form_errors
from scoring.web.referee import game_entry
from scoring.web.referee.preview_page import drawn as page_drawn
from scoring.web.referee.preview_page import form_preview, not_previewed
from scoring.web.referee.views import event_official
from scoring.web.seating import chair_words

BOARD_TEMPLATE = "referee/board.html"  # every game's board: its fields, a card grid among them


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


def _game_context(event, values, table, board, deal, saved):
    """What the page of the event's game draws: its fields (a card grid among them for 华牌)
    with the refusals beside them, and the table's match around the board where the game
    carries a state (升级's levels); with the preview drawn as the page's script draws it
    (`preview_page`: nothing moves when the script's first answer arrives). `saved`: the page
    answers a refused save."""
    rules = event_rules(event)
    game = game_of(event)
    # A board recorded not played shows the score it was given: the page asks no preview.
    mark = not_played_mark(deal) if deal is not None else None
    preview = None if mark else form_preview(event, table, board, values)
    fields = game_entry.field_rows(event, values, board=board)
    drawn = not_previewed(deal) if mark else page_drawn(preview, fields, saved)
    return {
        "fields": fields,
        "drawn": drawn,
        "seats": game.seats,
        "result_sides": game.result_sides,
        "result_raw": game.result_raw,
        "entry_help": game_entry.keyboard_help(event) or "",
        "match_lines": drawn["match"]
        or match_lines(table, board, game, rules, deal.as_deal_json() if deal is not None else None),
        "alone": plays_alone(game),  # every player signs (斗地主, 跑胡子), not two sides
    }


def _version_words(event, after):
    """A deal as a version of its history had it, in its fields' words (none for a deal drawn
    on its grid: its history shows the cards)."""
    if not after:
        return ""
    # A version written before every game's deal was kept alike has it under "game_data".
    return deal_text(game_of(event), after.get("game_data") or after)


def _board_context(request, event, table, board, deal, values, errors=(), conflict=None):
    organiser = is_organiser(request.user, event)
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
        # The late-play penalty is penalty points: not offered in a game without them.
        "late_penalty": event_clock(event).late_penalty if late and game_of(event).takes_penalties else 0,
        "late_ruled": late
        and RefereeCall.objects.filter(table=table, board=board, kind=RefereeCall.Kind.SLOW_PLAY, note=LATE_FACTS)
        .exclude(ruled_at=None)
        .exists(),
        "event": event,
        "round": table.round,
        "table": table,
        "board": board,
        "deal": deal,
        **_game_context(event, values, table, board, deal, saved=bool(errors)),
        "takes_penalties": game_of(event).takes_penalties,
        "rules_text": rules_text(event),
        # Who sits where at this board: a later 节 may have a team substitution (scoring.events.lineups).
        "seat_players": seats_for(table, board, event) if table.round.sessions > 1 else table.seat_players(),
        # The pairs sit on the other line in this 节: results stay with the draw's seats.
        "swapped_chairs": chair_words(board_chairs(table, board, event)),
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
                words=_version_words(event, row["after"]),
                status_label=dict(Deal.Status.choices).get((row["after"] or {}).get("status"), ""),
            )
            for row in _history_shown(history_rows(table, board, links=True))
        ],
        "irregularities": Irregularity.objects.filter(deal=deal).select_related("referee") if deal else [],
        # Calls recorded at the table for this board, and penalties ruled on them not yet on a deal.
        "calls": RefereeCall.objects.filter(table=table, board=board).exclude(kind=RefereeCall.Kind.DISPUTE),
        "pending_penalties": pending_penalties(table, board)[0] if deal is None else {},
        "claim_prefilled": deal is None and any(key.startswith("card-") for key in values),
        # The game's kinds of irregularity (a call's kinds: no exposures outside 华牌).
        "irregularity_kinds": [c for c in Irregularity.Kind.choices if c[0] in game_of(event).call_kinds],
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
    if request.method == "GET":
        blind = enters_blind(request.user, event)
        values = {} if blind else game_entry.values_from_deal(event, deal)
        if deal is not None and is_awaiting(not_played_mark(deal)):
            # The chief arbiter types the adjusted score: the stored zeros only held its place.
            values = {key: value for key, value in values.items() if not key.startswith("adjusted")}
        if deal is None and not blind:
            values, _claim = claim_values(table, board)  # a ruled claim's fall, for the referee to confirm
        context = _board_context(request, event, table, board, deal, values)
        return render(request, BOARD_TEMPLATE, context)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "POST"])
    form = game_entry.entry_form(event, request.POST, board)
    if not form.is_valid():
        current = Deal.objects.select_related("entered_by").filter(table=table, board=board).first()
        context = _board_context(request, event, table, board, current, request.POST, errors=form_errors(form))
        return render(request, BOARD_TEMPLATE, context, status=400)
    deal_json = form.deal_json()
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
        return render(request, BOARD_TEMPLATE, context, status=409 if conflict else 400)
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


# A table's chair of each seat (`Table.north` …).
CHAIRS = {"N": "north", "E": "east", "S": "south", "W": "west"}


@event_official
def table_confirm(request, event, number, table_number):
    """The table's boards at a glance, each with its history (where the grid's cell leads): a
    second referee checks them against the paper side by side and confirms the ticked ones at
    once (each at the version shown: a newer one is refused, not confirmed)."""
    table = get_object_or_404(
        Table.objects.select_related("round", *CHAIRS.values()),
        round__event=event,
        round__number=number,
        number=table_number,
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
    shown_in_words = not on_its_grid(game, event_rules(event))
    rows = [
        {
            "deal": deal,
            # Another game's deal in its fields' words (华牌's are the cards of each seat).
            "words": deal_text(game, deal.game_data) if shown_in_words else "",
            "captured": {seat: cards_text(deal.game_data.get("captured", {}).get(seat, [])) for seat in game.seats},
            "holders": holders_text(deal.game_data.get("holders", {})),
            "exposed": term_text(exposed_text(deal.game_data.get("exposed", {}))),
            # As the score sheet has them: each seat's penalty with its sign, and an adjusted score.
            "penalties": [(seat, deal.penalties[seat]) for seat in game.seats if deal.penalties.get(seat)],
            "adjusted": [(seat, deal.adjusted.get(seat)) for seat in game.seats] if deal.adjusted else [],
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
            # The game's seats with who sits there (跑胡子: E S W, no North).
            "seat_players": [(seat, getattr(table, CHAIRS[seat])) for seat in game.seats],
            "words": shown_in_words,
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
