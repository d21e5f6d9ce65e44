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
                raw = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    raw = handle.read()
        except OSError as error:
            raise CommandError(f"无法读取 {file}：{error.strerror} / cannot read {file}") from None
        try:
            data = json.loads(raw) if raw.strip() else None
        except UnicodeDecodeError as error:
            raise CommandError(
                f"不是 UTF-8 文本（第 {error.start} 字节）/ not UTF-8 text at byte {error.start}"
            ) from None
        except json.JSONDecodeError as error:
            raise CommandError(f"不是有效的 JSON / not valid JSON: {error}") from None
        except RecursionError:
            raise CommandError("JSON 嵌套过深 / JSON nested too deeply") from None
        del raw  # a large archive: keep one copy in memory, not two
        try:
            event = import_archive(data, replace=replace, consume=True)
        except ArchiveError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"imported {event.slug}: {event.rounds.count()} rounds")
