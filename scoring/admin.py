"""Organisers edit events, entrants and rounds in the Django admin: read-mostly.

The admin is a second write path beside the services (shared/style.md, "Sources of a
second write path"), so where a service owns a rule the admin either goes through it or
does not write:
- deal results change only through `scoring.entry.services` (validated, versioned, history);
- an event is created and changed through `scoring.events.setup` (the `scoring.add_event`
  right, the fields frozen once a deal exists, the announcement of the change);
- a round, its matches and its tables change or go only before the round is under way (the
  round pages' rule for a pairing, `scoring.rounds.creation`): once it has started or has a
  deal they are read-only here and not deleted, for superusers too (a delete would take its
  deals with it; imported ones have no history to stop it);
- a role is revoked through `scoring.events.staff` (never the event's last organiser);
- an entrant is added, withdrawn, reinstated or given a bye through `scoring.events.entrants`
  (the console's entrants page): here its names and members only; nothing moves to another event;
- no bulk delete (`delete_queryset` skips `delete_model`, and with it the announcement);
- typed text holds no control characters (the rule the services apply to rulings).

One module (~500 lines), as Django's admin autodiscovery finds it: every registration shares
the scoping mixin and the under-way check above, and reads as one list of what the admin may do.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy

from scoring.cache import announce_results_changed
from scoring.entry.versioned import CONTROL_CHARACTERS
from scoring.events.setup import RESULT_FIELDS, event_create, event_update, has_results, may_create_events
from scoring.events.staff import StaffError, staff_revoke
from scoring.messages import message_text
from scoring.models import (
    Appeal,
    Deal,
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

# For each model an organiser may pick in a form: the lookup from it to its event.
EVENT_PATHS = {
    Event: "pk",
    Round: "event",
    Match: "round__event",
    Table: "round__event",
    Deal: "table__round__event",
    Entrant: "event",
    Player: "event",
}


def scoped_choices(model, events):
    """The objects of `model` an organiser of `events` may choose, or None for models without an event."""
    if model is get_user_model():
        # Only people who already hold a role in these events: organisers never browse all accounts.
        return model.objects.filter(event_roles__event__in=events).distinct()
    path = EVENT_PATHS.get(model)
    if path is None:
        return None
    return model.objects.filter(**{f"{path}__in": events})


# One rule for typed text, the services' own for reasons and rulings (line breaks allowed).
NO_CONTROL_CHARACTERS = RegexValidator(
    CONTROL_CHARACTERS, gettext_lazy("不能含有控制字符"), code="control_characters", inverse_match=True
)


def event_of(obj, path):
    """Follow `path` ("" for an event itself) from an admin object to its event."""
    target = obj
    for step in [part for part in path.split("__") if part]:
        target = getattr(target, step, None)
        if target is None:
            return None
    return target if isinstance(target, Event) else None


def round_under_way(rnd):
    """The round pages' rule for a pairing (`scoring.rounds.creation`): it may change only
    before the round starts. Under way: no longer scheduled, or a deal at one of its tables."""
    return rnd.status != Round.Status.SCHEDULED or Deal.objects.filter(table__round=rnd).exists()


def under_way_for(request, round_id):
    """`round_under_way` for the admin's permission checks, asked once per round a request: an
    event's delete page asks about every match and table it would take with it. (A write checks
    again under the round's lock, `refuse_once_under_way`.)"""
    known = request.__dict__.setdefault("_huapai_rounds_under_way", {})
    if round_id not in known:
        rnd = Round.objects.filter(pk=round_id).first()
        known[round_id] = rnd is not None and round_under_way(rnd)
    return known[round_id]


def rounds_not_under_way(rounds):
    """`rounds` less those under way: where a match or a table may still be placed."""
    dealt = Deal.objects.filter(table__round=OuterRef("pk"))
    return rounds.filter(status=Round.Status.SCHEDULED).exclude(Exists(dealt))


def refuse_once_under_way(round_ids):
    """Inside the admin's transaction, before it writes or deletes: hold the rounds and refuse
    if one is under way. A deal's writer holds its round `FOR SHARE`
    (`scoring.entry.hot_sql.round_status_for_write`), so a deal entered since the page was
    shown is seen here, and none is entered until this transaction ends (SQLite: the one writer)."""
    held = Round.objects.select_for_update().filter(pk__in=[pk for pk in round_ids if pk is not None])
    if any(round_under_way(rnd) for rnd in held.order_by("pk")):
        raise PermissionDenied("the round is under way")


class OrganiserScoped:
    """Organisers see and edit only their own events' objects in the admin; superusers see all.

    `event_path` is the lookup from the model to its event ("" for Event itself).
    """

    event_path = "event"

    def _organiser_events(self, request):
        return Event.objects.filter(roles__user=request.user, roles__role=EventRole.Role.ORGANISER)

    def _is_organiser(self, request):
        """Every admin page asks this for each model and each permission (the list of models
        alone, some sixty times): the answer is kept on the request, and forgotten by a write
        that may change the user's roles (`_roles_may_have_changed`)."""
        known = getattr(request, "_organises_an_event", None)
        if known is None:
            user = request.user
            known = user.is_active and (user.is_superuser or self._organiser_events(request).exists())
            request._organises_an_event = known
        return known

    @staticmethod
    def _roles_may_have_changed(request):
        request.__dict__.pop("_organises_an_event", None)

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
        return self._is_organiser(request)

    def has_change_permission(self, request, obj=None):
        return self._is_organiser(request)

    def has_delete_permission(self, request, obj=None):
        return self._is_organiser(request)

    def get_actions(self, request):
        """No "delete selected": a bulk delete runs `delete_queryset`, which neither goes
        through a service nor announces the change (a deleted entrant stayed on the public
        standings). One object at a time goes through `delete_model` below."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_readonly_fields(self, request, obj=None):
        """An object never moves to another event: its event is read-only once it exists (a
        round, an entrant or a player moved would carry another event's entrants and results)."""
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.pk and self.event_path == "event" and "event" not in readonly:
            readonly.append("event")
        return readonly

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """Every typed text refuses control characters, as the services' forms do."""
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if formfield is not None and isinstance(db_field, (models.CharField, models.TextField)):
            formfield.validators.append(NO_CONTROL_CHARACTERS)
        return formfield

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """Every foreign key offers (and accepts) only objects of the organiser's own events;
        a raw id typed into the form is checked against the same queryset."""
        if not request.user.is_superuser:
            queryset = scoped_choices(db_field.related_model, self._organiser_events(request))
            if queryset is not None:
                kwargs["queryset"] = queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    # What the public sees is cached per public results version: every admin write moves it
    # (the admin's add, change and delete views run in a transaction; the announcement too).
    def _public_changed(self, obj):
        event = event_of(obj, self.event_path)
        if event is not None:
            announce_results_changed(event, public=True)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._roles_may_have_changed(request)
        self._public_changed(obj)

    def delete_model(self, request, obj):
        event = event_of(obj, self.event_path)
        super().delete_model(request, obj)
        self._roles_may_have_changed(request)
        if event is not None and event.pk:
            announce_results_changed(event, public=True)

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        self._roles_may_have_changed(request)
        self._public_changed(form.instance)


class ReadOnly(OrganiserScoped):
    """Records that only the site writes (histories, logs, rulings): organisers read their own events'."""

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Event)
class EventAdmin(OrganiserScoped, admin.ModelAdmin):
    event_path = ""

    list_display = ["name", "slug", "kind", "match_mode", "match_length", "ruleset", "start_date"]
    search_fields = ["name", "slug"]
    # Appeals are the site pages' (scoring.rulings.appeals); their settings are on the event's page.
    exclude = ["appeals_committee", "appeal_deposit"]
    prepopulated_fields = {"slug": ["name"]}

    def has_module_permission(self, request):
        # A named organiser without an event yet still reaches "add event".
        return super().has_module_permission(request) or may_create_events(request.user)

    def has_add_permission(self, request, *args):
        """The console's rule: only accounts a superuser named (`scoring.add_event`) create events."""
        return request.user.is_active and may_create_events(request.user)

    def has_delete_permission(self, request, obj=None):
        """An event with deals keeps them (their history is append-only): not deleted here."""
        if obj is not None and has_results(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        """The service's frozen fields (one list, `scoring.events.setup.RESULT_FIELDS`) are
        read-only once the event has a deal; before that they may still change."""
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.pk and has_results(obj):
            readonly += [name for name in RESULT_FIELDS if name not in readonly]
        return readonly

    def get_prepopulated_fields(self, request, obj=None):
        return {} if obj is not None and obj.pk else super().get_prepopulated_fields(request, obj)

    def save_model(self, request, obj, form, change):
        """Through the services: creating makes the creator its organiser (else it would vanish
        from their pages) and checks the right again; changing refuses a frozen field under the
        event's lock (a deal entered since the form was shown) and announces the change."""
        if change:
            event_update(obj, changed=form.changed_data)
        else:
            event_create(obj, user=request.user)
            self._roles_may_have_changed(request)
            announce_results_changed(obj, public=True)


@admin.register(Player)
class PlayerAdmin(OrganiserScoped, admin.ModelAdmin):
    list_display = ["code", "name", "sort_key", "club", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "sort_key", "club"]
    ordering = ["event", "sort_key"]


@admin.register(Entrant)
class EntrantAdmin(OrganiserScoped, admin.ModelAdmin):
    """Names and members may be corrected here. An entrant is added, withdrawn, reinstated or
    given a bye on the console's entrants page only (`scoring.events.entrants`): those services
    hold the event's round numbers and take the round from the rounds paired (a late entry's
    first round, the round a withdrawal follows), which decide the standings. Its number is on
    every sheet printed, so it stays, as the console keeps it."""

    list_display = ["code", "display_name", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "players__name"]
    inlines = [MembershipInline]
    ROUND_FIELDS = ["withdrawn_after_round", "joined_round", "bye_round"]

    def has_add_permission(self, request, *args):
        return False

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        return [*readonly, "code", *(name for name in self.ROUND_FIELDS if name not in readonly)]


class FrozenOnceUnderWay:
    """An admin (or inline) whose objects are read-only and not deleted once their round is under
    way, for superusers too; `round_id_of` says which round (an inline's `obj` is its parent)."""

    def round_id_of(self, obj):
        return obj.pk

    def frozen(self, request, obj):
        return obj is not None and obj.pk is not None and under_way_for(request, self.round_id_of(obj))

    def has_change_permission(self, request, obj=None):
        return not self.frozen(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self.frozen(request, obj) and super().has_delete_permission(request, obj)


class TableInline(FrozenOnceUnderWay, admin.TabularInline):
    """A round's tables (superusers: organisers hold no rights on the model): their seats and
    entrants decide whose results the deals are, so they are read-only, none added and none
    deleted once the round is under way (`obj` is the round)."""

    model = Table
    extra = 0
    fields = ["number", "match", "ns_entrant", "ew_entrant", "north", "east", "south", "west"]
    raw_id_fields = ["match", "ns_entrant", "ew_entrant", "north", "east", "south", "west"]

    def has_add_permission(self, request, obj):
        return not self.frozen(request, obj) and super().has_add_permission(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """A table joins a match of a round not under way (one under way keeps its tables)."""
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "match" and formfield is not None:
            formfield.queryset = formfield.queryset.filter(round__in=rounds_not_under_way(Round.objects.all()))
        return formfield


@admin.register(Round)
class RoundAdmin(FrozenOnceUnderWay, OrganiserScoped, admin.ModelAdmin):
    """A round's status and publication times change only through the round pages (with
    their checks, the pairing log and the public list of changes): read-only here. The rest
    (its event, number, 节 and archive keys, with its tables) decides whose results its deals
    are and where they count: read-only once the round is under way, and such a round is not
    deleted (its deals would go with it), for superusers too."""

    list_display = ["event", "number", "status", "sessions", "published_at"]
    list_filter = ["event", "status"]
    readonly_fields = ["status", "published_at", "official_at", "draw_released_at", "stage"]
    inlines = [TableInline]

    def save_model(self, request, obj, form, change):
        """Checked again under the round's lock (its tables are saved after this, in the same
        transaction): a deal entered since the page was shown refuses the change."""
        if change:
            refuse_once_under_way([obj.pk])
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        refuse_once_under_way([obj.pk])
        super().delete_model(request, obj)

    def save_formset(self, request, form, formset, change):
        """Seat changes made here go into the pairing log like every other change to a pairing."""
        changed = [
            {"table": f.instance.number, "fields": f.changed_data}
            for f in formset.forms
            if f.has_changed() and not f.cleaned_data.get("DELETE")
        ]
        super().save_formset(request, form, formset, change)
        if changed:
            PairingLog.objects.create(
                round=form.instance, user=request.user, action="admin-edit", detail={"tables": changed}
            )


@admin.register(Match)
class MatchAdmin(FrozenOnceUnderWay, OrganiserScoped, admin.ModelAdmin):
    """Who meets whom (home, away; a bye, which may score a win) decides results: a match is
    read-only and not deleted once its round is under way, for superusers too, and none is
    added to or moved into such a round."""

    event_path = "round__event"

    list_display = ["round", "number", "home", "away", "bye"]
    list_filter = ["round__event"]
    raw_id_fields = ["home", "away", "bye"]

    def round_id_of(self, obj):
        return obj.round_id

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "round" and formfield is not None:
            formfield.queryset = rounds_not_under_way(formfield.queryset)
        return formfield

    def save_model(self, request, obj, form, change):
        """Checked again under the lock of its round (and of the one it leaves)."""
        stored = list(Match.objects.filter(pk=obj.pk).values_list("round_id", flat=True)) if change else []
        refuse_once_under_way([obj.round_id, *stored])
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        refuse_once_under_way([obj.round_id])
        super().delete_model(request, obj)


@admin.register(EventRole)
class EventRoleAdmin(OrganiserScoped, admin.ModelAdmin):
    """Roles are granted here and revoked through `staff_revoke`; a role is never edited in place
    (turning an organiser into a referee would bypass the last-organiser rule)."""

    list_display = ["event", "user", "role"]
    list_filter = ["event", "role"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        """An organiser removes referees of their events and their own organiser role, never
        another organiser's (that is the superuser's); nobody removes an event's last organiser."""
        if not super().has_delete_permission(request, obj):
            return False
        if obj is None or obj.role != EventRole.Role.ORGANISER:
            return True
        if not request.user.is_superuser and obj.user_id != request.user.pk:
            return False
        return EventRole.objects.filter(event_id=obj.event_id, role=EventRole.Role.ORGANISER).count() > 1

    def delete_model(self, request, obj):
        """Through the service, which re-counts the organisers under a lock (two organisers
        removing themselves at once must not both succeed)."""
        try:
            staff_revoke(obj.event, role_id=obj.pk)
            self._roles_may_have_changed(request)
        except StaffError as refusal:
            # Raced past has_delete_permission: nothing was deleted; say so on the next page.
            self.message_user(request, message_text(refusal), level="error")


@admin.register(PairingLog)
class PairingLogAdmin(ReadOnly, admin.ModelAdmin):
    event_path = "round__event"
    list_display = ["round", "action", "user", "at"]


@admin.register(DealHistory)
class DealHistoryAdmin(ReadOnly, admin.ModelAdmin):
    """The history is append-only."""

    list_display = ["event", "table", "board", "version", "action", "user", "at", "ip"]
    list_filter = ["event", "action"]


@admin.register(Appeal)
class AppealAdmin(ReadOnly, admin.ModelAdmin):
    """Appeals are lodged and decided on the site's pages (scoring.rulings.appeals), where a
    decision is checked against the correction made; here they are only read."""

    list_display = ["event", "round", "table", "board", "filed_by", "filed_at", "status", "decided_by", "decided_at"]
    list_filter = ["event", "status"]


@admin.register(Irregularity)
class IrregularityAdmin(ReadOnly, admin.ModelAdmin):
    """Irregularities are recorded on the deal page, where they change the deal's version."""

    event_path = "deal__table__round__event"
    list_display = ["deal", "seat", "kind", "penalty", "referee", "at"]
    list_filter = ["kind"]
