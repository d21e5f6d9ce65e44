from django.core.management.base import BaseCommand

from scoring.events.demo import DEMO_SLUG, load_demo


class Command(BaseCommand):
    help = "Load the demo event and demo users (idempotent: an existing demo event is left as it is)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="replace the demo event with a fresh copy")

    def handle(self, *args, reset, **options):
        created = load_demo(reset=reset)
        self.stdout.write(f"demo event {DEMO_SLUG}: {'loaded' if created else 'already present'}")
