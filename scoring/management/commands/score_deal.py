import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.engine.scorefile import score_stream


class Command(BaseCommand):
    help = "Score deal JSON (deal-json.md): one object, or JSON Lines, from FILE or standard input."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-")

    def handle(self, *args, file, **options):
        out = sys.stdout.buffer
        write = out.write

        def emit(data):
            write(data)
            write(b"\n")

        if file == "-":
            status = score_stream(sys.stdin.buffer, emit)
        else:
            try:
                handle = open(file, "rb")  # noqa: SIM115 — closed below; bytes: see scorefile
            except OSError as error:
                raise CommandError(
                    gettext("无法读取 %(file)s：%(reason)s") % {"file": file, "reason": error.strerror}
                ) from None
            with handle:
                status = score_stream(handle, emit)
        out.flush()
        if status:
            sys.exit(status)
