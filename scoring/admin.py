"""Organisers edit events, entrants and rounds in the Django admin.

Deal results are not edited here: they change only through `scoring.entry`,
which validates, versions and records history.
"""

from django.contrib import admin

from scoring.models import DealHistory, Entrant, Event, EventRole, Match, Membership, PairingLog, Player, Round, Table


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "kind", "match_mode", "match_length", "ruleset", "start_date"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "sort_key", "club", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "sort_key", "club"]
    ordering = ["event", "sort_key"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["code", "display_name", "event"]
    list_filter = ["event"]
    search_fields = ["code", "name", "players__name"]
    inlines = [MembershipInline]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "match", "ns_entrant", "ew_entrant", "north", "east", "south", "west"]
    raw_id_fields = ["match", "ns_entrant", "ew_entrant", "north", "east", "south", "west"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "sessions", "published_at"]
    list_filter = ["event", "status"]
    inlines = [TableInline]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "home", "away", "bye"]
    list_filter = ["round__event"]
    raw_id_fields = ["home", "away", "bye", "bye_player"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["event", "role"]


@admin.register(PairingLog)
class PairingLogAdmin(admin.ModelAdmin):
    list_display = ["round", "action", "user", "at"]
    readonly_fields = ["round", "action", "user", "at", "detail"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DealHistory)
class DealHistoryAdmin(admin.ModelAdmin):
    """Read-only: the history is append-only."""

    list_display = ["event", "table", "board", "version", "action", "user", "at", "ip"]
    list_filter = ["event", "action"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
