"""The restore drill (issue 41): a players' round in progress, a backup taken, the data destroyed,
restored over the live database — every write acknowledged before the backup is back, the
standings are equal, and the tables' links and the entrants' codes still work. It runs on the
pass's database: SQLite, and PostgreSQL in make test's PostgreSQL pass (DATABASE_URL)."""

import json

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from scoring.archive.database import import_archive
from scoring.backups import services
from scoring.cache.versions import current_version
from scoring.models import Backup, Deal, DealHistory, Entrant, Event, Table
from scoring.results.standings import standings_computed
from tests.archives import EXAMPLES, deal, pairs_archive

pytestmark = pytest.mark.django_db(transaction=True)


def an_event_in_round_two():
    """Round 1 official (A–B, C–D), round 2 in play (A–C, D–B) entered by the players."""
    rounds = [
        {
            "number": 1,
            "status": "official",
            "matches": [
                {"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1), deal("T2", 2)]},
                {"table": 2, "ns": "C", "ew": "D", "deals": [deal("T7", 1), deal("T1", 2)]},
            ],
        },
        {
            "number": 2,
            "status": "in_play",
            "matches": [
                {"table": 1, "ns": "A", "ew": "C", "deals": []},
                {"table": 2, "ns": "D", "ew": "B", "deals": []},
            ],
        },
    ]
    archive = pairs_archive(["A", "B", "C", "D"], rounds, length=2)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def put(client, table, board, name, code, key):
    body = {**{k: v for k, v in EXAMPLES[name]["deal"].items() if k != "ruleset"}, "code": code}
    return client.put(
        f"/t/{table.token}/boards/{board}",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": key},
    )


def verify(client, table, board, code, key):
    version = client.get(f"/t/{table.token}/boards/{board}").json()["version"]
    return client.post(
        f"/t/{table.token}/boards/{board}/verify",
        data=json.dumps({"code": code}),
        content_type="application/json",
        headers={"Idempotency-Key": key, "If-Match": f'"{version}"'},
    )


def deals_as_stored():
    return sorted(
        Deal.objects.values_list("table__round__number", "table__number", "board", "status", "score_n", "score_e")
    )


@pytest.fixture
def backup_dir(tmp_path):
    with override_settings(HUAPAI_BACKUP_DIR=tmp_path / "backups"):
        yield tmp_path / "backups"


def test_restore_drill_mid_round(backup_dir):
    event = an_event_in_round_two()
    code = dict(Entrant.objects.filter(event=event).values_list("code", "access_code"))
    one, two = (Table.objects.get(round__event=event, round__number=2, number=n) for n in (1, 2))
    phone = Client(enforce_csrf_checks=True)
    # Acknowledged writes before the backup: an entry verified by the other side, another entry.
    assert put(phone, one, 1, "T1", code["A"], "a-1").status_code == 201
    assert verify(phone, one, 1, code["C"], "c-1").status_code == 200
    assert put(phone, two, 1, "T2", code["D"], "d-1").status_code == 201
    before = deals_as_stored()
    history = DealHistory.objects.count()
    standings = standings_computed(event)
    versions = (current_version(event), current_version(event, public=True))

    row = services.take_backup("drill")
    assert row.status == Backup.Status.OK, row.message

    # After the backup's moment: a write the backup cannot hold.
    assert put(phone, one, 2, "T2", code["A"], "a-2").status_code == 201
    # The data destroyed.
    call_command("flush", interactive=False)
    assert not Deal.objects.exists() and not Event.objects.exists()

    with pytest.raises(Exception, match="--force"):
        call_command("restore", str(backup_dir / row.file), **_live_target())
    call_command("restore", str(backup_dir / row.file), force=True, **_live_target())

    event = Event.objects.get(slug=event.slug)
    assert deals_as_stored() == before  # every acknowledged write up to the backup, nothing after
    assert DealHistory.objects.count() == history
    assert standings_computed(event) == standings
    # Versions start afresh: the cache's keys for the lost writes' versions are never met again.
    assert not {current_version(event), current_version(event, public=True)} & set(versions)
    # The table links and the codes still work: the state, a verification, a new entry.
    one, two = (Table.objects.get(round__event=event, round__number=2, number=n) for n in (1, 2))
    state = phone.get(f"/t/{one.token}/state")
    assert state.status_code == 200
    assert [b["status"] for b in state.json()["boards"]][:1] != ["empty"]
    assert verify(phone, two, 1, code["B"], "b-1").status_code == 200
    assert put(phone, one, 2, "T2", code["A"], "a-2-again").status_code == 201
    assert put(phone, one, 2, "T2", "WRONGCOD", "x-1").status_code != 201


def _live_target():
    from django.db import connection

    if connection.vendor == "sqlite":
        return {"into": str(connection.settings_dict["NAME"])}
    return {"database": connection.settings_dict["NAME"]}


def test_restore_goes_into_a_new_database_by_default_and_leaves_the_live_one_alone(backup_dir):
    import io
    from pathlib import Path

    from django.db import connection

    from scoring.backups import files

    event = an_event_in_round_two()
    row = services.take_backup("manual")
    Deal.objects.filter(table__round__event=event).delete()  # the live database moves on
    out = io.StringIO()
    call_command("restore", str(backup_dir / row.file), stdout=out)
    name = out.getvalue().split(" into ", 1)[1].split(":", 1)[0]
    try:
        assert name != str(connection.settings_dict["NAME"])
        assert not Deal.objects.exists()  # the live database is as it was
        with files.scratch_default(name):
            assert Deal.objects.count() == 4 and Event.objects.get().slug == event.slug
    finally:
        if connection.vendor == "sqlite":
            for leftover in Path(name).parent.glob(Path(name).name + "*"):
                leftover.unlink()
        else:
            files.drop_postgres_database(name)
