import shutil
import sys
import tempfile

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.archive.database import import_archive
from scoring.archive.format import ArchiveError
from scoring.messages import message_text


class Command(BaseCommand):
    help = "Import an event archive (huapai-event/1) from FILE or standard input; refused whole when invalid."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--replace", action="store_true", help="replace an existing event with the same slug")

    def handle(self, *args, file, replace, **options):
        try:
            with self._archive(file) as handle:
                event = import_archive(handle, replace=replace)  # checked as it is read
        except OSError as error:
            raise CommandError(
                gettext("无法读取 %(file)s：%(reason)s") % {"file": file, "reason": error.strerror}
            ) from None
        except ArchiveError as error:
            raise CommandError(message_text(error)) from None
        self.stdout.write(f"imported {event.slug}: {event.rounds.count()} rounds")

    @staticmethod
    def _archive(file):
        """The archive as a binary file that can be read twice (standard input is copied to a
        temporary file first: an archive's keys may come in any order)."""
        if file != "-":
            return open(file, "rb")
        spooled = tempfile.TemporaryFile()  # noqa: SIM115 -- closed by the caller's with
        shutil.copyfileobj(sys.stdin.buffer, spooled)
        spooled.seek(0)
        return spooled
