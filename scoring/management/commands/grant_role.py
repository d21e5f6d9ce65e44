from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.events.accounts import role_grant
from scoring.models import Event, EventRole


class Command(BaseCommand):
    help = "Give USERNAME the referee or organiser role for an event (creating the user if needed)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("role", choices=[choice.value for choice in EventRole.Role])
        parser.add_argument("--event", required=True, help="event slug")

    def handle(self, *args, username, role, event, **options):
        found = Event.objects.filter(slug=event).first()
        if found is None:
            raise CommandError(gettext("没有赛事 %(slug)s") % {"slug": event})
        user, created = role_grant(username=username, role=role, event=found)
        self.stdout.write(f"{user.username}: {role} of {found.slug}{' (new user, set a password)' if created else ''}")
