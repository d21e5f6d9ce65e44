import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.archive.database import import_archive, read_archive_json
from scoring.archive.format import ArchiveError
from scoring.messages import message_text


class Command(BaseCommand):
    help = "Import an event archive (huapai-event/1) from FILE or standard input; refused whole when invalid."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--replace", action="store_true", help="replace an existing event with the same slug")

    def handle(self, *args, file, replace, **options):
        try:
            if file == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    raw = handle.read()
        except OSError as error:
            raise CommandError(
                gettext("无法读取 %(file)s：%(reason)s") % {"file": file, "reason": error.strerror}
            ) from None
        try:
            data = read_archive_json(raw)
            del raw  # a large archive: keep one copy in memory, not two
            event = import_archive(data, replace=replace, consume=True)
        except ArchiveError as error:
            raise CommandError(message_text(error)) from None
        self.stdout.write(f"imported {event.slug}: {event.rounds.count()} rounds")
