"""When backups are taken by themselves, by whom, which are kept, and what a failure does."""

import contextlib
import json
import logging
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from scoring.archive.database import import_archive
from scoring.backups import services
from scoring.events.closing import event_finish
from scoring.models import Backup
from tests.archives import deal, pairs_archive
from tests.backups.test_take_and_check import a_round_in_play
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def backup_dir(tmp_path):
    with override_settings(HUAPAI_BACKUP_DIR=tmp_path / "backups", HUAPAI_BACKUP_AUTOMATIC=True):
        yield tmp_path / "backups"


def test_every_interval_while_a_round_is_in_play_and_not_otherwise(backup_dir):
    assert services.backup_if_due() is None  # nothing in play, nothing published: nothing due
    a_round_in_play()
    first = services.backup_if_due()
    assert (first.reason, first.status) == ("interval", Backup.Status.OK)
    assert services.backup_if_due() is None
    later = services.backup_if_due(now=timezone.now() + timedelta(minutes=5, seconds=1))
    assert later.reason == "interval"
    assert Backup.objects.count() == 2


def test_two_workers_deciding_at_once_take_one_backup(backup_dir, monkeypatch):
    a_round_in_play()
    # Both workers read "due" within the same two seconds: without the decision's lock both would claim.
    meet = threading.Barrier(2, timeout=2)
    decide = services.due

    def due_together(now=None):
        found = decide(now)
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait()
        return found

    monkeypatch.setattr(services, "due", due_together)
    taken = []

    def worker():
        try:
            taken.append(services.backup_if_due())
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Backup.objects.count() == 1
    assert sorted(row is None for row in taken) == [False, True]


def test_closing_an_event_takes_a_backup_that_the_rotation_keeps(backup_dir):
    rounds = [
        {"number": 1, "status": "official", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1)]}]}
    ]
    event = import_archive(pairs_archive(["A", "B"], rounds, length=1))
    event_finish(event, user=make_user("org"))
    closed = Backup.objects.get()
    assert (closed.reason, closed.kept, closed.status) == ("close", True, Backup.Status.OK)
    assert services.due() == (None, False)  # the close is backed up: the warmer takes no other
    with override_settings(HUAPAI_BACKUP_KEEP=2):
        manual = [services.take_backup("manual") for _ in range(3)]  # proven: the newest proven is not the close
    kept = set(Backup.objects.values_list("pk", flat=True))
    assert kept == {closed.pk, manual[1].pk, manual[2].pk}
    assert not (backup_dir / manual[0].file).exists() and not (backup_dir / (manual[0].file + ".json")).exists()
    assert (backup_dir / closed.file).exists()


def lost_write(manifest):
    manifest["row_counts"]["scoring_deal"] += 1  # a write the file does not hold
    return "scoring_deal: 1 rows expected, 0 restored"


def other_standings(manifest):
    manifest["events"][0]["standings_sha256"] = "0" * 64  # standings the restored rows do not give
    return "standings differ"


@pytest.mark.parametrize("tamper", [lost_write, other_standings])
def test_a_manifest_the_restore_does_not_match_fails_the_check_and_says_why(backup_dir, caplog, tamper):
    a_round_in_play()
    row = services.take_backup("manual", check=False)
    assert row.status == Backup.Status.UNCHECKED
    manifest_file = backup_dir / (row.file + ".json")
    manifest = json.loads(manifest_file.read_text())
    words = tamper(manifest)
    manifest_file.write_text(json.dumps(manifest))
    with caplog.at_level(logging.ERROR, logger="scoring.backups.services"):
        services.check_backup(row)
    assert row.status == Backup.Status.FAILED
    assert words in row.message
    assert words in caplog.text
    with pytest.raises(CommandError, match="最新的备份验证失败"):
        call_command("backups")


def test_a_file_that_changed_after_it_was_taken_fails_the_check(backup_dir):
    a_round_in_play()
    row = services.take_backup("manual", check=False)
    with open(backup_dir / row.file, "r+b") as stream:
        stream.seek(200)
        stream.write(b"\xff\x00\xff")
    assert services.check_backup(row).status == Backup.Status.FAILED
    assert "sha256" in row.message


def test_the_backup_command_exits_non_zero_when_its_check_fails(backup_dir, monkeypatch):
    a_round_in_play()
    monkeypatch.setattr(services, "restored_differences", lambda path: ["scoring_deal: 3 rows expected, 2 restored"])
    with pytest.raises(CommandError, match="scoring_deal"):
        call_command("backup", reason="drill")
    call_command("backup", reason="drill", no_check=True)  # unchecked: nothing failed
    call_command("backups")
    with override_settings(HUAPAI_BACKUP_MINUTES=0), pytest.raises(CommandError, match="超过间隔"):
        Backup.objects.update(taken_at=timezone.now() - timedelta(minutes=2))
        call_command("backups")


def a_round_played_out():
    rounds = [
        {"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1)]}]}
    ]
    return import_archive(pairs_archive(["A", "B"], rounds, length=1))


def test_publishing_and_making_official_each_take_a_kept_backup(backup_dir):
    from scoring.rounds.publication import round_make_official, round_publish

    event = a_round_played_out()
    rnd = event.rounds.get()
    user = make_user("org")
    round_publish(rnd, user=user)
    round_make_official(rnd, user=user, now=timezone.now() + timedelta(hours=1))
    assert list(Backup.objects.order_by("taken_at").values_list("reason", "kept", "status")) == [
        ("publish", True, "ok"),
        ("official", True, "ok"),
    ]


def test_with_the_warmer_in_the_background_its_next_pass_takes_the_publications_backup(backup_dir):
    from scoring.cache.warmup import Warmer
    from scoring.rounds.publication import round_publish

    event = a_round_played_out()
    with override_settings(HUAPAI_WARM_IN_BACKGROUND=True):
        round_publish(event.rounds.get(), user=make_user("org"))
        assert not Backup.objects.exists()  # not in the organiser's request
        Warmer().run_pass()
    backup = Backup.objects.get()
    assert (backup.reason, backup.kept, backup.status) == ("publish", True, "ok")
