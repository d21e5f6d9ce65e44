"""Plausibility flags for referees: shown, not blocking, cleared with a word."""

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from scoring.archive.database import import_archive
from scoring.models import Entrant, FlagCleared, Table
from scoring.table_entry.flags import round_flags
from tests.archives import EXAMPLES, deal, pairs_archive, team_match
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


def players_event(length=3):
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=length)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def example_with_name(predicate):
    return next(name for name, e in EXAMPLES.items() if predicate(e))


def send(client, table, path, body, key, device="phone-1", version=None):
    headers = {"Idempotency-Key": key, "X-Table-Device": device}
    if version:
        headers["If-Match"] = str(version)
    method = client.put if path.count("/") == 1 else client.post
    return method(f"/t/{table.token}/{path}", json.dumps(body), content_type="application/json", headers=headers)


def body(name, code):
    source = dict(EXAMPLES[name]["deal"])
    source.pop("ruleset", None)
    return {**source, "code": code}


def test_a_quick_verification_from_the_entering_phone_is_flagged_and_cleared_with_a_word(client):
    event = players_event()
    table = Table.objects.get()
    a, b = (Entrant.objects.get(code=c).access_code for c in "AB")
    version = send(client, table, "boards/1", body("T1", a), "k1").json()["version"]
    send(client, table, "boards/1/verify", {"code": b}, "k2", version=version)  # same phone, at once
    version = send(client, table, "boards/2", body("T2", a), "k3").json()["version"]
    # Board 2: verified on the other side's own phone, a minute later.
    later = timezone.now() + timedelta(minutes=1)  # history is append-only: the clock moves instead
    with mock.patch("django.utils.timezone.now", return_value=later):
        send(client, table, "boards/2/verify", {"code": b}, "k4", device="phone-2", version=version)
    flags = round_flags(table.round)
    assert sorted(flags[(table.id, 1)]) == ["quick_verify", "same_phone"]
    assert (table.id, 2) not in flags
    referee = make_user("ref", "referee", event)
    client.force_login(referee)
    page = client.get("/referee/t-pairs/rounds/1/tables/1/boards/1/").content.decode()
    assert 'id="flags"' in page and "同一手机录入并确认" in page
    assert "⚑1" in client.get("/referee/t-pairs/rounds/1/").content.decode()
    refused = client.post("/referee/t-pairs/rounds/1/tables/1/boards/1/flag/", {"kind": "same_phone", "word": ""})
    assert refused.status_code == 302 and not FlagCleared.objects.exists()
    client.post(
        "/referee/t-pairs/rounds/1/tables/1/boards/1/flag/", {"kind": "same_phone", "word": "问过：两家同看一部手机"}
    )
    assert round_flags(table.round)[(table.id, 1)] == ["quick_verify"]
    assert FlagCleared.objects.get().word == "问过：两家同看一部手机"


def test_a_grand_slam_and_all_hearts_are_flagged():
    slam = example_with_name(lambda e: any(len(c) == 16 for c in e["deal"]["captured"].values()))
    hearts = example_with_name(
        lambda e: any(
            sum(card.startswith("H") for card in c) == 13 and len(c) < 16 for c in e["deal"]["captured"].values()
        )
    )
    rounds = [
        {
            "number": 1,
            "status": "in_play",
            "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [deal(slam, 1), deal(hearts, 2), deal("T1", 3)]}],
        }
    ]
    event = import_archive(pairs_archive(["A", "B"], rounds, length=3))
    table = Table.objects.get(round__event=event)
    flags = round_flags(table.round)
    assert flags == {(table.id, 1): ["grand_slam"], (table.id, 2): ["all_hearts"]}


def test_the_two_tables_of_a_team_match_disagreeing_on_a_dealt_holder_are_flagged():
    first = deal("T1", 1, holders={"SQ": "N"})
    second = deal("T1", 1, holders={"SQ": "E"})
    event = import_archive(team_match([first], [second], boards=1))
    tables = list(Table.objects.filter(round__event=event).order_by("number"))
    flags = round_flags(tables[0].round)
    assert {place for place, kinds in flags.items() if "holders_differ" in kinds} == {(t.id, 1) for t in tables}
