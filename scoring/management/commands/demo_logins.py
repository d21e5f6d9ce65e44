from django.core.management.base import BaseCommand

from scoring.events.demo import DEMO_USERS


class Command(BaseCommand):
    help = "Print the demo logins."

    def handle(self, *args, **options):
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {role:<10} {username} / {password}")
