"""Entrants: the list, corrections, withdrawals, reinstatements, requested byes and the spreadsheet import.

Views check the form, call one service and turn its domain error into a message."""

import tempfile

from django.contrib import messages
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

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
from scoring.exports.entrant_template import write_entrant_template
from scoring.exports.files import XLSX, entrant_cards_pdf
from scoring.models import Entrant, with_members
from scoring.rounds.table_links import entrant_code_replace
from scoring.web.downloads import officials_file
from scoring.web.forms import form_errors
from scoring.web.organiser.access import PREVIEW_SESSION_KEY, organiser_page, organiser_post, refused
from scoring.web.organiser.forms import (
    ByeForm,
    ConfirmForm,
    EntrantForm,
    UploadForm,
)

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
                refused(request, failure)
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
                refused(request, failure)
            else:
                messages.success(request, _("已保存"))
                return redirect("organiser-entrants", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(request, "organiser/entrant_form.html", {"event": event, "entrant": entrant, "form": form})


@organiser_post
def entrant_withdraw_view(request, event, code):
    entrant = _entrant(event, code)
    if not ConfirmForm(request.POST).is_valid():
        # A withdrawal changes every later pairing: one click only asks, the second withdraws.
        return render(request, "organiser/withdraw_confirm.html", {"event": event, "entrant": entrant})
    entrant = entrant_withdraw(entrant)
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
            refused(request, failure)
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
                refused(request, failure)
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
        refused(request, failure)
        return redirect("organiser-entrants-import", event.slug)
    messages.success(request, _("已导入 %(n)s 个参赛者") % {"n": len(created)})
    return redirect("organiser-entrants", event.slug)


@organiser_post
def entrant_code_replace_view(request, event, code):
    entrant = entrant_code_replace(_entrant(event, code))
    messages.success(request, _("%(code)s 的录入码已更换，旧码已失效") % {"code": entrant.code})
    return redirect("organiser-entrants", event.slug)


@organiser_page
def entrants_template(request, event):
    """The import template for this event's kind: the header row and an example line the
    importer accepts (`scoring.exports.entrant_template`)."""
    handle = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it after sending
    write_entrant_template(handle, event)
    handle.seek(0)
    return FileResponse(handle, as_attachment=True, filename=f"{event.slug}-entrants-template.xlsx", content_type=XLSX)


@organiser_page
def entrant_cards(request, event):
    """A card per entrant with its personal entry code and a QR code to its public page
    (`scoring.exports.entrant_cards`): the codes are secrets, so the file is the organisers'."""
    file = entrant_cards_pdf(
        event, lambda entrant: request.build_absolute_uri(reverse("entrant", args=[event.slug, entrant.code]))
    )
    return officials_file(file)
