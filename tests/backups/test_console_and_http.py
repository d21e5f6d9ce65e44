"""The console's backup line, and no backup file reachable over HTTP."""

import re
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from scoring.backups import services
from scoring.models import Backup
from tests.backups.test_take_and_check import a_round_in_play
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


def backup_line(client):
    page = client.get("/organiser/").content.decode()
    return re.search(r'<p id="backup-state".*?</p>', page, re.S).group(0)


def test_the_console_shows_the_last_proven_backup_and_is_red_when_it_is_overdue_in_play(admin_client):
    a_round_in_play()
    assert "backup-alarm" in backup_line(admin_client)  # a round in play and no backup at all
    Backup.objects.create(reason="interval", file="a.sqlite3", status=Backup.Status.OK)
    line = backup_line(admin_client)
    assert "最近一次验证成功的备份" in line and "0 分钟前" in line and "backup-alarm" not in line
    Backup.objects.update(taken_at=timezone.now() - timedelta(minutes=7))
    line = backup_line(admin_client)
    assert "backup-alarm" in line and "7 分钟前" in line and "备份已超时" in line


def test_a_failed_newest_backup_is_a_red_line_in_play(admin_client):
    a_round_in_play()
    Backup.objects.create(reason="interval", file="a.sqlite3", status=Backup.Status.OK)
    Backup.objects.create(reason="interval", file="b.sqlite3", status=Backup.Status.FAILED)
    line = backup_line(admin_client)
    assert "backup-alarm" in line and "验证失败" in line


def test_no_backup_file_is_served_over_http(client, tmp_path):
    # The shipped default folder (the test settings send other tests' backups elsewhere).
    with override_settings(HUAPAI_BACKUP_DIR=Path(settings.VAR_DIR) / "backups"):
        folder = services.backup_dir()
    probe = folder / f"probe-{uuid.uuid4().hex}.sqlite3"
    probe.write_bytes(b"SQLite format 3\x00 secret")
    try:
        relative = probe.relative_to(settings.BASE_DIR)
        for address in (f"/{relative}", f"/static/{probe.name}", f"/static/../{relative}", f"/backups/{probe.name}"):
            response = client.get(address)
            assert response.status_code == 404, address
            assert b"secret" not in b"".join(getattr(response, "streaming_content", [response.content]))
    finally:
        probe.unlink()
    # nginx serves only its aliases and roots: none of them holds the backups' folder.
    for conf in (REPO / "deploy" / "nginx").glob("*.conf"):
        for served in re.findall(r"^\s*(?:alias|root)\s+([^;]+);", conf.read_text(), re.M):
            deployed = Path("/srv/huapai") / folder.relative_to(settings.BASE_DIR)
            assert not str(deployed).startswith(served.rstrip("/")), (conf.name, served)


def test_a_backup_folder_under_what_is_served_is_refused(tmp_path):
    for served in (Path(settings.STATIC_ROOT) / "backups", Path(settings.STATICFILES_DIRS[0]) / "b"):
        with override_settings(HUAPAI_BACKUP_DIR=served), pytest.raises(services.BackupRefused):
            services.backup_dir()
