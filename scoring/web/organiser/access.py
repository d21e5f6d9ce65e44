"""Who may use the organiser's console (the event's organisers), and how a refusal is shown.

Views check the form, call one service and turn its domain error into a message."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from scoring.events.permissions import is_organiser
from scoring.messages import message_text
from scoring.models import Event

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


def refused(request, failure):
    messages.error(request, message_text(failure))
