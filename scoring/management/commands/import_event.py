import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.archive import import_archive
from scoring.archive_format import ArchiveError


class Command(BaseCommand):
    help = "Import an event archive (huapai-event/1) from FILE or standard input; refused whole when invalid."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--replace", action="store_true", help="replace an existing event with the same slug")

    def handle(self, *args, file, replace, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            raise CommandError(str(error)) from None
        try:
            data = json.loads(text) if text.strip() else None
            del text  # a large archive: keep one copy in memory, not two
            event = import_archive(data, replace=replace, consume=True)
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError):
                raise CommandError(f"不是有效的 JSON / not valid JSON: {error}") from None
            if isinstance(error, ArchiveError):
                raise CommandError(str(error)) from None
            raise
        self.stdout.write(f"imported {event.slug}: {event.rounds.count()} rounds")
