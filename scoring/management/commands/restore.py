"""`manage.py restore FILE`: a backup into a new database by default (a new SQLite file, or a new
PostgreSQL database), checked against its manifest; over the live database only with --force
(docs/deploying.md: the runbook)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.utils import timezone
from django.utils.translation import gettext

from scoring.backups import files
from scoring.backups.manifest import database_contents, differences
from scoring.backups.services import BackupRefused, after_restore, read_manifest, verify_checksum


class Command(BaseCommand):
    help = "Restore a backup into a new database (default), or over the live one with --force."

    def add_arguments(self, parser):
        parser.add_argument("file")
        target = parser.add_mutually_exclusive_group()
        target.add_argument("--into", help="SQLite: the new database file")
        target.add_argument("--database", help="PostgreSQL: the database to restore into (created if missing)")
        parser.add_argument("--force", action="store_true", help="restore over the live database (stop the site)")

    def handle(self, *args, file, into, database, force, **options):
        path = Path(file)
        try:
            verify_checksum(path)
            manifest = read_manifest(path)
        except (BackupRefused, OSError, ValueError) as problem:
            raise CommandError(gettext("备份文件无法使用：%(problem)s") % {"problem": problem}) from problem
        if manifest["vendor"] != connection.vendor:
            raise CommandError(gettext("这是 %(vendor)s 的备份") % {"vendor": manifest["vendor"]})
        stamp = timezone.now().strftime("%Y%m%d%H%M%S")
        live = connection.settings_dict["NAME"]
        if connection.vendor == "sqlite":
            if database:
                raise CommandError(gettext("SQLite 的备份用 --into 指定新文件"))
            target = Path(into or Path(live).with_name(f"restored-{stamp}.sqlite3")).resolve()
            is_live = target == Path(live).resolve()
            if (is_live or target.exists()) and not force:
                raise CommandError(gettext("%(target)s 已经存在：要覆盖请加 --force") % {"target": target})
            connections.close_all()
            files.restore_sqlite(path, target)
            name = str(target)
        else:
            if into:
                raise CommandError(gettext("PostgreSQL 的备份用 --database 指定数据库"))
            name = database or f"{live[:40]}_restored_{stamp}"
            is_live = name == live
            exists = files.postgres_database_exists(name)
            if (is_live or exists) and not force:
                raise CommandError(gettext("数据库 %(target)s 已经存在：要覆盖请加 --force") % {"target": name})
            if not exists:
                files.create_postgres_database(name)
            connections.close_all()
            files.restore_postgres(path, name, clean=exists)
        with files.scratch_default(name):
            problems = differences(manifest, database_contents())
            if not problems:
                after_restore()
        if problems:
            raise CommandError(gettext("恢复后的数据与备份清单不符：%(problems)s") % {"problems": "; ".join(problems)})
        self.stdout.write(f"restored {path.name} into {name}: row counts and standings as the manifest says")
        if not is_live:
            self.stdout.write("point DATABASE_URL at it (docs/deploying.md, the runbook) and start the site")
