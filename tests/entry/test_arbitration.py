"""Blind double entry, team holder agreement, the publication checklist, changes after publication."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.entry.blind import blind_entry_submit
from scoring.entry.selectors import blind_differences
from scoring.entry.services import deal_save
from scoring.models import Deal, Event, Round, Table
from scoring.rounds.publication import PublicationError, publication_checklist, round_publish
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


def table_one(event, number=3):
    return Table.objects.get(round__event=event, round__number=number, number=1)


def test_identical_blind_entries_confirm_the_deal(event, people):
    Event.objects.filter(pk=event.pk).update(double_entry=True)
    table = table_one(event)
    first = blind_entry_submit(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    assert first == ("waiting", None)
    outcome, deal = blind_entry_submit(table=table, board=1, deal_json=example_deal("T1"), user=people["referee2"])
    assert outcome == "confirmed"
    assert (
        deal.status == "confirmed" and deal.entered_by == people["referee1"] and deal.confirmed_by == people["referee2"]
    )


def test_differing_blind_entries_show_the_differing_cells(event, people):
    table = table_one(event)
    blind_entry_submit(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    other = example_deal("T1")
    other["captured"]["N"].remove("H7")
    other["captured"]["E"].append("H7")
    outcome, deal = blind_entry_submit(table=table, board=1, deal_json=other, user=people["referee2"])
    assert outcome == "conflict" and deal is None
    assert blind_differences(table, 1) == [("captured H7", {"referee1": "N", "referee2": "E"})]
    assert "1号桌第 1 副两名裁判录入不一致" in map(str, publication_checklist(table.round)["blocking"])


def test_the_checklist_names_missing_and_unconfirmed_boards(event, people):
    Event.objects.filter(pk=event.pk).update(match_length=3)
    event.refresh_from_db()
    table = table_one(event)
    deal_save(table=table, board=2, deal_json=example_deal("T1"), user=people["referee1"])
    checklist = publication_checklist(table.round)
    assert "1号桌缺少第 1、3 副" in map(str, checklist["blocking"])
    assert "1号桌第 2 副未确认" in map(str, checklist["blocking"])
    assert "2号桌缺少第 1–3 副" in map(str, checklist["blocking"])
    with pytest.raises(PublicationError):
        round_publish(table.round, user=people["organiser"])
    assert Round.objects.get(pk=table.round.pk).status == "in_play"


def test_team_matches_flag_holders_that_differ_between_the_two_tables(people):
    from scoring.archive.database import import_archive
    from tests.archives import deal, team_match

    t1 = deal("T1", 1, holders={"SQ": "N"})
    t2 = deal("T1", 1, holders={"SQ": "E"})
    archive = team_match([t1], [t2], slug="teams", status="in_play")
    event = import_archive(archive)
    warnings = publication_checklist(event.rounds.get())["warnings"]
    assert list(map(str, warnings)) == ["1/2号桌第 1 副：♠Q 的持牌人不一致（N / E）"]


def test_changes_after_publication_are_listed_publicly_with_before_after_and_why(client, event, people):
    rnd = Round.objects.get(event=event, number=2)
    Round.objects.filter(pk=rnd.pk).update(status="official", published_at=timezone.now() - timedelta(hours=1))
    deal = Deal.objects.get(table__round=rnd, table__number=1)
    deal_save(
        table=deal.table,
        board=1,
        deal_json=example_deal("T1"),
        user=people["organiser"],
        expected_version=deal.version,
        reason="记分表抄错",
    )
    response = client.get(f"/events/{event.slug}/changes/")
    rows = response.context["changes"]
    assert len(rows) == 1
    assert rows[0].before["sides"] == {"NS": -70, "EW": -180} and rows[0].after["sides"] == {"NS": -270, "EW": 40}
    assert "记分表抄错" in response.text


def test_production_settings_pass_the_deploy_check():
    import os
    import subprocess
    import sys

    from tests.conftest import REPO

    env = dict(os.environ, DEBUG="0", SECRET_KEY="x" * 60 + "production-test-key", ALLOWED_HOSTS="huapai.example.org")
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests, never in production
    completed = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "no issues" in completed.stdout


def test_production_refuses_the_development_secret_key():
    import os
    import subprocess
    import sys

    from tests.conftest import REPO

    env = dict(os.environ, DEBUG="0", ALLOWED_HOSTS="huapai.example.org")
    env.pop("SECRET_KEY", None)
    completed = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )
    assert completed.returncode != 0 and "SECRET_KEY" in completed.stderr


def test_the_round_dashboard_shows_each_boards_state_and_what_is_left(client, event, people):
    Event.objects.filter(pk=event.pk).update(match_length=2)
    table = table_one(event)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    client.force_login(people["referee2"])
    response = client.get("/referee/t-pairs/rounds/3/")
    rows = {row["number"]: list(row["cells"]) for row in response.context["rows"]}
    assert rows == {1: ["draft", "missing"], 2: ["missing", "missing"]}
    assert response.context["todo"] == 4
    # Boards mode: 局 totals decide nothing and are neither computed nor shown.
    assert response.context["rows"][0]["games"] == []
