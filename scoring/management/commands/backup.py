"""`manage.py backup`: a backup now, proven by restoring it (scoring.backups)."""

import re

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.backups.services import take_backup
from scoring.models import Backup

REASON = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")  # it is part of the file's name


class Command(BaseCommand):
    help = "Back up the database now; restore it into a scratch database and compare (exit 1 if that fails)."

    def add_arguments(self, parser):
        parser.add_argument("--reason", default="manual", help="a word for the list (a-z, 0-9, -)")
        parser.add_argument("--no-check", action="store_true", dest="no_check", help="do not restore it to check it")

    def handle(self, *args, reason, no_check, **options):
        if not REASON.match(reason):
            raise CommandError(gettext("备份原因只能用小写字母、数字和 -（最多 40 个）"))
        row = take_backup(reason, check=not no_check)
        if row.status == Backup.Status.FAILED:
            raise CommandError(gettext("备份失败：%(message)s") % {"message": row.message})
        self.stdout.write(f"{row.file} {row.size} bytes sha256 {row.checksum} {row.status}")
