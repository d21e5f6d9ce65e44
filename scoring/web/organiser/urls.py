"""The organiser's console: an event from creation to official results and exports."""

from django.urls import path

from scoring.web.organiser import views as organiser

event = "organiser/<name:slug>/"
urlpatterns = [
    path("organiser/", organiser.console_home, name="organiser-home"),
    path("organiser/new/", organiser.event_new, name="organiser-event-new"),
    path("organiser/slug-suggestion/", organiser.slug_suggestion, name="organiser-slug-suggestion"),
    path("organiser/import/", organiser.archive_upload, name="organiser-archive-import"),
    path("organiser/organisers/", organiser.organisers_page, name="organiser-organisers"),
    path("organiser/organisers/<num:user_id>/revoke/", organiser.organiser_revoke, name="organiser-organisers-revoke"),
    path(event, organiser.event_console, name="organiser-event"),
    path(f"{event}edit/", organiser.event_edit, name="organiser-event-edit"),
    path(f"{event}archive.json", organiser.archive_download, name="organiser-archive"),
    path(f"{event}staff/", organiser.staff_page, name="organiser-staff"),
    path(f"{event}staff/<num:user_id>/password/", organiser.staff_password, name="organiser-staff-password"),
    path(f"{event}staff/roles/<num:role_id>/revoke/", organiser.staff_revoke, name="organiser-staff-revoke"),
    path(f"{event}entrants/", organiser.entrants_page, name="organiser-entrants"),
    path(f"{event}entrants/import/", organiser.entrants_import_page, name="organiser-entrants-import"),
    path(f"{event}entrants/import/confirm/", organiser.entrants_import_confirm, name="organiser-entrants-confirm"),
    # An entrant's number may hold a `/` (see scoring.web.converters): it is the last part of the address.
    path(f"{event}entrants/edit/<code:code>/", organiser.entrant_edit, name="organiser-entrant"),
    path(f"{event}entrants/withdraw/<code:code>/", organiser.entrant_withdraw_view, name="organiser-entrant-withdraw"),
    path(
        f"{event}entrants/reinstate/<code:code>/", organiser.entrant_reinstate_view, name="organiser-entrant-reinstate"
    ),
    path(f"{event}entrants/bye/<code:code>/", organiser.entrant_bye_view, name="organiser-entrant-bye"),
    path(f"{event}pair/", organiser.pairing_page, name="organiser-pair"),
    path(f"{event}final/", organiser.stage_start_view, name="organiser-stage-start"),
    path(f"{event}final/next/", organiser.stage_advance_view, name="organiser-stage-advance"),
    path(f"{event}rounds/<num:number>/", organiser.round_console, name="organiser-round"),
    path(f"{event}rounds/<num:number>/repair/", organiser.round_repair_view, name="organiser-round-repair"),
    path(f"{event}rounds/<num:number>/release/", organiser.round_release_view, name="organiser-round-release"),
    path(f"{event}rounds/<num:number>/swap/", organiser.round_swap_view, name="organiser-round-swap"),
    path(
        f"{event}rounds/<num:number>/matches/<num:match_number>/lineup/",
        organiser.lineup_page,
        name="organiser-lineup",
    ),
]
