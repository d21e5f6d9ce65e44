"""An event's staff (referee and co-organiser accounts, passwords, roles) and the organisers a superuser names.

Views check the form, call one service and turn its domain error into a message."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.events import staff
from scoring.events.setup import (
    revoke_event_creation,
)
from scoring.web.forms import form_errors
from scoring.web.organiser.access import organiser_page, organiser_post, refused
from scoring.web.organiser.forms import (
    OrganiserAccountForm,
    PasswordForm,
    StaffForm,
)

# --- staff -------------------------------------------------------------------------------


@organiser_page
def staff_page(request, event):
    form = StaffForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                user, created = staff.staff_add(event, **form.cleaned_data)
            except staff.StaffError as failure:
                refused(request, failure)
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
            refused(request, failure)
        else:
            messages.success(request, _("已重设 %(username)s 的密码") % {"username": user.username})
    return redirect("organiser-staff", event.slug)


@organiser_post
def staff_revoke(request, event, role_id):
    try:
        staff.staff_revoke(event, role_id=role_id)
    except staff.StaffError as failure:
        refused(request, failure)
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
                refused(request, failure)
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
