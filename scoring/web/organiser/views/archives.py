"""Event archives: downloading an event, uploading one as a new event or in place of one.

Views check the form, call one service and turn its domain error into a message."""

import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.archive.database import import_archive_upload
from scoring.archive.format import ArchiveError
from scoring.events.setup import (
    may_create_events,
)
from scoring.exports import files
from scoring.web.forms import form_errors
from scoring.web.organiser.access import organiser_page, refused
from scoring.web.organiser.forms import (
    ArchiveUploadForm,
)

# --- archives ----------------------------------------------------------------------------------


@organiser_page
def archive_download(request, event):
    archive = files.archive_json(event)  # the same file as in the results pack
    body = io.BytesIO()
    archive.write(body)
    response = HttpResponse(body.getvalue(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{archive.filename}"'
    return response


@login_required
def archive_upload(request):
    # Who may upload at all is decided before the body is read: a referee's 40 MB upload was
    # parsed (1.2 GB) before being told only organisers create events. Only those who may create
    # events (`scoring.add_event`, named by a superuser) import, replacing included: a co-organiser
    # made on a staff page organises an event but must not make the server parse 200 MB.
    if not may_create_events(request.user):
        raise PermissionDenied
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                upload = form.cleaned_data["file"]
                upload.seek(0)  # read as it is checked, from Django's temporary file (never whole)
                event = import_archive_upload(upload, user=request.user, replace=form.cleaned_data["replace"])
            except ArchiveError as failure:
                refused(request, failure)
            else:
                messages.success(request, _("已导入赛事 %(name)s") % {"name": event.name})
                return redirect("organiser-event", event.slug)
        else:
            messages.error(request, "；".join(form_errors(form)))
    return render(request, "organiser/archive_import.html", {"form": form})
