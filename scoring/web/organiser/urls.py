"""The organiser's console: an event from creation to official results and exports."""

from django.urls import path

from scoring.web.organiser.views import archives, end_of_event, entrants, events, rounds, staff

event = "organiser/<name:slug>/"
urlpatterns = [
    path("organiser/", events.console_home, name="organiser-home"),
    path("organiser/new/", events.event_new, name="organiser-event-new"),
    path("organiser/slug-suggestion/", events.slug_suggestion, name="organiser-slug-suggestion"),
    path("organiser/import/", archives.archive_upload, name="organiser-archive-import"),
    path("organiser/organisers/", staff.organisers_page, name="organiser-organisers"),
    path("organiser/organisers/<num:user_id>/revoke/", staff.organiser_revoke, name="organiser-organisers-revoke"),
    path(event, events.event_console, name="organiser-event"),
    path(f"{event}edit/", events.event_edit, name="organiser-event-edit"),
    path(f"{event}finish/", events.event_finish_view, name="organiser-event-finish"),
    path(f"{event}reopen/", events.event_reopen_view, name="organiser-event-reopen"),
    path(f"{event}archive.json", archives.archive_download, name="organiser-archive"),
    path(f"{event}end/", end_of_event.end_of_event, name="organiser-end"),
    path(f"{event}results-pack.zip", end_of_event.results_pack, name="organiser-results-pack"),
    path(f"{event}staff/", staff.staff_page, name="organiser-staff"),
    path(f"{event}staff/<num:user_id>/password/", staff.staff_password, name="organiser-staff-password"),
    path(f"{event}staff/roles/<num:role_id>/revoke/", staff.staff_revoke, name="organiser-staff-revoke"),
    path(f"{event}entrants/", entrants.entrants_page, name="organiser-entrants"),
    path(f"{event}entrants/import/", entrants.entrants_import_page, name="organiser-entrants-import"),
    path(f"{event}entrants/import/confirm/", entrants.entrants_import_confirm, name="organiser-entrants-confirm"),
    path(f"{event}entrants/cards.pdf", entrants.entrant_cards, name="organiser-entrant-cards"),
    path(f"{event}entrants/import/template.xlsx", entrants.entrants_template, name="organiser-entrants-template"),
    # An entrant's number may hold a `/` (see scoring.web.converters): it is the last part of the address.
    path(f"{event}entrants/edit/<code:code>/", entrants.entrant_edit, name="organiser-entrant"),
    path(f"{event}entrants/withdraw/<code:code>/", entrants.entrant_withdraw_view, name="organiser-entrant-withdraw"),
    path(
        f"{event}entrants/reinstate/<code:code>/", entrants.entrant_reinstate_view, name="organiser-entrant-reinstate"
    ),
    path(f"{event}entrants/bye/<code:code>/", entrants.entrant_bye_view, name="organiser-entrant-bye"),
    path(f"{event}entrants/code/<code:code>/", entrants.entrant_code_replace_view, name="organiser-entrant-code"),
    path(f"{event}pair/", rounds.pairing_page, name="organiser-pair"),
    path(f"{event}final/", rounds.stage_start_view, name="organiser-stage-start"),
    path(f"{event}final/next/", rounds.stage_advance_view, name="organiser-stage-advance"),
    path(f"{event}rounds/<num:number>/", rounds.round_console, name="organiser-round"),
    path(f"{event}rounds/<num:number>/repair/", rounds.round_repair_view, name="organiser-round-repair"),
    path(f"{event}rounds/<num:number>/release/", rounds.round_release_view, name="organiser-round-release"),
    path(f"{event}rounds/<num:number>/swap/", rounds.round_swap_view, name="organiser-round-swap"),
    path(f"{event}rounds/<num:number>/clock/", rounds.round_clock_view, name="organiser-round-clock"),
    path(
        f"{event}rounds/<num:number>/tables/<num:table_number>/match-ruling/",
        rounds.match_ruling_view,
        name="organiser-match-ruling",
    ),
    path(
        f"{event}rounds/<num:number>/tables/<num:table_number>/token/",
        rounds.table_token_replace_view,
        name="organiser-table-token",
    ),
    path(
        f"{event}rounds/<num:number>/matches/<num:match_number>/lineup/",
        rounds.lineup_page,
        name="organiser-lineup",
    ),
]
