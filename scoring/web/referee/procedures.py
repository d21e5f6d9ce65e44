"""A board's procedures on its entry page: recorded not played (scoring.rulings.not_played), and
the late-play penalty of a board entered after time was called (scoring.rulings.clock)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.entry.errors import EntryError
from scoring.messages import message_text
from scoring.rulings.clock import late_play_penalty
from scoring.rulings.not_played import board_not_played, not_played_text
from scoring.web.client_address import client_ip
from scoring.web.forms import LatePenaltyForm, NotPlayedForm, form_errors
from scoring.web.referee.board_views import _locate
from scoring.web.referee.views import event_official


@event_official
@require_POST
def board_not_played_view(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    form = NotPlayedForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            deal, _created = board_not_played(
                table=table,
                board=board,
                user=request.user,
                reason=form.cleaned_data["reason"],
                expected_version=form.cleaned_data["version"],
                ip=client_ip(request),
            )
        except EntryError as failure:
            messages.error(request, message_text(failure))
        else:
            messages.success(request, message_text(not_played_text(deal)))
    return redirect("referee-board", event.slug, number, table_number, board)


@event_official
@require_POST
def board_late_penalty_view(request, event, number, table_number, board):
    table, board = _locate(event, number, table_number, board)
    form = LatePenaltyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "；".join(form_errors(form)))
    else:
        try:
            late_play_penalty(
                table=table, board=board, user=request.user, seat=form.cleaned_data["seat"], ip=client_ip(request)
            )
        except EntryError as failure:
            messages.error(request, message_text(failure))
        else:
            messages.success(request, _("迟打罚分已计入这一副"))
    return redirect("referee-board", event.slug, number, table_number, board)
