from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.events.accounts import token_for


class Command(BaseCommand):
    help = "Print USERNAME's API token, creating it if needed."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(gettext("没有用户 %(username)s") % {"username": username})
        self.stdout.write(token_for(user))
