import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.engine.scorefile import run_command


class Command(BaseCommand):
    help = "Score deal JSON (deal-json.md): one object, or JSON Lines, from FILE or standard input."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-")

    def handle(self, *args, file, **options):
        try:
            status = run_command(file)
        except OSError as error:
            raise CommandError(
                gettext("无法读取 %(file)s：%(reason)s") % {"file": file, "reason": error.strerror}
            ) from None
        if status:
            sys.exit(status)
