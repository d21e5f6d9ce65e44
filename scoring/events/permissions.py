"""Who may do what: organisers (and superusers) everything for their event; referees
enter, confirm and record irregularities until a round is official; the public reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.models import EventRole, Round

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Deal, Event
    from scoring.models.EventRole import Role


def roles(user: User, event: Event) -> set[Role | str]:
    if not user or not user.is_authenticated:
        return set()
    if user.is_superuser:
        return {EventRole.Role.ORGANISER, EventRole.Role.REFEREE}
    cached = getattr(user, "_event_roles", None)
    if cached is None:
        cached = {}
        user._event_roles = cached
    if event.id not in cached:
        cached[event.id] = set(EventRole.objects.filter(user=user, event=event).values_list("role", flat=True))
    return cached[event.id]


def remember_roles(user: User, event: Event, found: set[Role]) -> None:
    """Record roles already read (with the event, in one query) so `roles` asks no more."""
    if user and user.is_authenticated and not user.is_superuser:
        cached = getattr(user, "_event_roles", None)
        if cached is None:
            cached = user._event_roles = {}
        cached[event.id] = set(found)


def is_organiser(user: User, event: Event) -> bool:
    return EventRole.Role.ORGANISER in roles(user, event)


def is_official(user: User, event: Event) -> bool:
    """Referee or organiser of the event: may see the entry pages."""
    return bool(roles(user, event))


def may_enter(user: User, event: Event, rnd: Round) -> bool:
    """May create or change deals of this round (official rounds: organisers only)."""
    if is_organiser(user, event):
        return True
    return EventRole.Role.REFEREE in roles(user, event) and rnd.status != Round.Status.OFFICIAL


def may_confirm(user: User, deal: Deal) -> bool:
    """The second-referee rule, in one place for the API and the pages: a deal may be
    confirmed by anyone who may enter it except the last person who entered or changed it."""
    if deal.entered_by_id == user.id:
        return False
    return may_enter(user, deal.table.round.event, deal.table.round)


def organises_any_event(user: User) -> bool:
    """Whether `user` organises some event (and may so replace it from an archive)."""
    return bool(
        user.is_authenticated
        and (user.is_superuser or EventRole.objects.filter(user=user, role=EventRole.Role.ORGANISER).exists())
    )


def consoles_used(user: User) -> set[str]:
    """Which consoles have something for `user`, as {"organiser", "referee"} or part of it:
    the organiser console for events to organise or the right to create one; the referees'
    desk for some event role (an organiser referees too), or every event for a superuser.
    One query of the roles held (every signed-in page's header asks), and the right to create
    events only for someone who organises nothing."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return {"organiser", "referee"}
    held = set(EventRole.objects.filter(user=user).values_list("role", flat=True).distinct())
    used = {"referee"} if held else set()
    if EventRole.Role.ORGANISER in held or user.has_perm("scoring.add_event"):
        used.add("organiser")
    return used


def uses_organiser_console(user: User) -> bool:
    return "organiser" in consoles_used(user)


def first_page_after_login(user: User) -> str:
    """The URL name a user lands on after signing in: the organiser console for those who
    organise or create events (a new director finds "create event" there), else the desk."""
    return "organiser-home" if uses_organiser_console(user) else "referee-home"
