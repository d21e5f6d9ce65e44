"""`manage.py backups`: the backups and their checks; exit 1 when the newest failed, or none was
taken within the interval while a round is in play (for a monitor's cron line)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext

from scoring.backups.services import backup_state
from scoring.models import Backup


class Command(BaseCommand):
    help = "List the backups with their checks; exit 1 if the newest failed or is overdue while a round is in play."

    def handle(self, *args, **options):
        for row in Backup.objects.order_by("-taken_at", "-id"):
            taken = timezone.localtime(row.taken_at).strftime("%Y-%m-%d %H:%M:%S")
            kept = " kept" if row.kept else ""
            line = f"{taken}  {row.status:<9} {row.reason}{kept}  {row.file or '-'}  {row.size} bytes"
            self.stdout.write(line + (f"  {row.message}" if row.message else ""))
        state = backup_state()
        if state["failed"]:
            raise CommandError(gettext("最新的备份验证失败"))
        if state["in_play"] and state["overdue"]:
            raise CommandError(gettext("有轮次进行中，但最新的备份已超过间隔时间"))
