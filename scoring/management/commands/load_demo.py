from django.core.management.base import BaseCommand

from scoring.events.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo events and demo users (idempotent: an existing demo event is left as it is)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="replace the demo events with fresh copies")

    def handle(self, *args, reset, **options):
        for slug, created in load_demo(reset=reset).items():
            self.stdout.write(f"demo event {slug}: {'loaded' if created else 'already present'}")
