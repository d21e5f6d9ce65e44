import sys

from django.core.management.base import BaseCommand

from scoring.scorefile import score_stream


class Command(BaseCommand):
    help = "Score deal JSON (deal-json.md): one object, or JSON Lines, from FILE or standard input."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default="-")

    def handle(self, *args, file, **options):
        out = sys.stdout
        write = out.write

        def emit(text):
            write(text)
            write("\n")

        if file == "-":
            status = score_stream(sys.stdin, emit)
        else:
            with open(file, encoding="utf-8") as handle:
                status = score_stream(handle, emit)
        out.flush()
        if status:
            sys.exit(status)
