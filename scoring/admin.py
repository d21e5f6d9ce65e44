"""The Django admin is a back office for looking: organisers read their own events' records
here, superusers everyone's.

The organiser's console does every edit an event needs, through the services that own the
rules. A second write path here would have to copy those rules (shared/style.md, "Sources of
a second write path"), so the admin writes nothing of its own. It keeps only the edits no page
offers, and each goes through its service:
- an event made by mistake is deleted while it has no deal (`scoring.events.setup.event_delete`);
- a player's sort key and federation number are corrected
  (`scoring.events.entrants.player_correct`).

Lists offer no bulk action, and typed text holds no control characters.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy

from scoring.entry.versioned import CONTROL_CHARACTERS
from scoring.events.entrants import EntrantError, player_correct
from scoring.events.setup import EventError, event_delete, has_results
from scoring.messages import message_text
from scoring.models import (
    Appeal,
    DealHistory,
    Entrant,
    Event,
    EventRole,
    Irregularity,
    Match,
    Membership,
    PairingLog,
    Player,
    Round,
    Table,
)

NO_CONTROL_CHARACTERS = RegexValidator(
    CONTROL_CHARACTERS, gettext_lazy("不能含有控制字符"), code="control_characters", inverse_match=True
)


class BackOffice:
    """Organisers look at their own events' objects; superusers at all. Nothing is added,
    changed or deleted unless a registration below says so and goes through a service.

    `event_path` is the lookup from the model to its event ("" for Event itself).
    """

    event_path = "event"

    def _organiser_events(self, request):
        return Event.objects.filter(roles__user=request.user, roles__role=EventRole.Role.ORGANISER)

    def _is_organiser(self, request):
        """Every admin page asks this for each model and each permission (the list of models
        alone some sixty times), so the answer is kept on the request."""
        known = getattr(request, "_organises_an_event", None)
        if known is None:
            user = request.user
            known = user.is_active and (user.is_superuser or self._organiser_events(request).exists())
            request._organises_an_event = known
        return known

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        field = f"{self.event_path}__in" if self.event_path else "pk__in"
        return queryset.filter(**{field: self._organiser_events(request)})

    def has_module_permission(self, request):
        return self._is_organiser(request)

    def has_view_permission(self, request, obj=None):
        return self._is_organiser(request)

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request):
        """No bulk action: "delete selected" would delete past every service and announcement."""
        return {}

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """Typed text refuses control characters, as the services' forms do."""
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if formfield is not None and isinstance(db_field, (models.CharField, models.TextField)):
            formfield.validators.append(NO_CONTROL_CHARACTERS)
        return formfield


class ShownInline:
    """An inline shown beside its parent for reading, never edited there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(ShownInline, admin.TabularInline):
    model = Membership
    fields = ["position", "player"]


class TableInline(ShownInline, admin.TabularInline):
    model = Table
    fields = ["number", "match", "ns_entrant", "ew_entrant", "north", "east", "south", "west"]


@admin.register(Event)
class EventAdmin(BackOffice, admin.ModelAdmin):
    """Events are created and edited on the console. An event made by mistake is deleted here
    while it has no deal, through `event_delete`, which checks again under the event's lock."""

    event_path = ""
    list_display = ["name", "slug", "kind", "match_mode", "match_length", "ruleset", "start_date"]
    search_fields = ["name", "slug"]

    def has_delete_permission(self, request, obj=None):
        """Not offered for an event with a deal (the service refuses it anyway)."""
        return self._is_organiser(request) and not (obj is not None and has_results(obj))

    def get_deleted_objects(self, objs, request):
        """The confirmation page lists what goes with the event. Its rounds, entrants and roles
        are read-only elsewhere in the admin, and its tables protect its entrants, yet all go
        with it: `event_delete` decides, not their own delete rights."""
        deleted, counts, _needed, _protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), []

    def delete_model(self, request, obj):
        # A refusal answers 403; the admin's transaction takes its log entry back with it.
        try:
            event_delete(obj)
        except EventError as refusal:
            raise PermissionDenied(message_text(refusal)) from None
        # The organiser may have deleted the last event they organised.
        request.__dict__.pop("_organises_an_event", None)


@admin.register(Player)
class PlayerAdmin(BackOffice, admin.ModelAdmin):
    """A player's name, club and number are edited on the console's entrants page. Two things
    no page edits are corrected here: the key the name sorts by and the federation number."""

    list_display = ["code", "name", "sort_key", "club", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "sort_key", "club"]
    ordering = ["event", "sort_key"]
    fields = ["event", "code", "name", "club", "sort_key", "federation_id"]
    readonly_fields = ["event", "code", "name", "club"]

    def has_change_permission(self, request, obj=None):
        return self._is_organiser(request)

    def save_model(self, request, obj, form, change):
        try:
            player_correct(
                obj, sort_key=form.cleaned_data["sort_key"], federation_id=form.cleaned_data["federation_id"]
            )
        except EntrantError as refusal:
            raise PermissionDenied(message_text(refusal)) from None


@admin.register(Entrant)
class EntrantAdmin(BackOffice, admin.ModelAdmin):
    list_display = ["code", "display_name", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "players__name"]
    inlines = [MembershipInline]


@admin.register(Round)
class RoundAdmin(BackOffice, admin.ModelAdmin):
    list_display = ["event", "number", "status", "sessions", "published_at"]
    list_filter = ["event", "status"]
    inlines = [TableInline]


@admin.register(Match)
class MatchAdmin(BackOffice, admin.ModelAdmin):
    event_path = "round__event"
    list_display = ["round", "number", "home", "away", "bye"]
    list_filter = ["round__event"]


@admin.register(EventRole)
class EventRoleAdmin(BackOffice, admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["event", "role"]


@admin.register(PairingLog)
class PairingLogAdmin(BackOffice, admin.ModelAdmin):
    event_path = "round__event"
    list_display = ["round", "action", "user", "at"]


@admin.register(DealHistory)
class DealHistoryAdmin(BackOffice, admin.ModelAdmin):
    list_display = ["event", "table", "board", "version", "action", "user", "at", "ip"]
    list_filter = ["event", "action"]


@admin.register(Appeal)
class AppealAdmin(BackOffice, admin.ModelAdmin):
    list_display = ["event", "round", "table", "board", "filed_by", "filed_at", "status", "decided_by", "decided_at"]
    list_filter = ["event", "status"]


@admin.register(Irregularity)
class IrregularityAdmin(BackOffice, admin.ModelAdmin):
    event_path = "deal__table__round__event"
    list_display = ["deal", "seat", "kind", "penalty", "referee", "at"]
    list_filter = ["kind"]
