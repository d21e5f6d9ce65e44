"""Importing and exporting whole events: round trip, refusal of bad archives, the commands."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError
from scoring.models import Deal, Event, Player
from scoring.results.standings_json import standings_json
from tests.archives import deal, four_pairs_two_rounds
from tests.conftest import REPO

pytestmark = pytest.mark.django_db

DEMO = json.loads((REPO / "fixtures" / "demo-event.json").read_text(encoding="utf-8"))


def standings_of(slug, *args):
    out = StringIO()
    call_command("standings", slug, "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_the_standings_command_prints_the_documented_json():
    import_archive(four_pairs_two_rounds())
    document = standings_of("t-pairs")
    assert document["event"] == "t-pairs" and document["kind"] == "pairs" and document["rounds"] == 2
    assert document["rows"][0] == {
        "rank": 1,
        "id": "B",
        "match_points": 4,
        "score_difference": 620,
        "total_score": 80,
        "penalties": 0,
        "played": 2,
    }
    after_one = standings_of("t-pairs", "--after-round", "1")
    assert after_one["rounds"] == 1
    assert {r["id"]: r["played"] for r in after_one["rows"]} == {"A": 1, "B": 1, "C": 1, "D": 1}


def test_re_importing_an_export_gives_identical_standings():
    event = import_archive(copy.deepcopy(DEMO))
    exported = export_archive(event)
    exported["event"]["slug"] = "demo-copy"
    copy_event = import_archive(json.loads(json.dumps(exported)))
    original, again = standings_json(event), standings_json(copy_event)
    assert again["rows"] == original["rows"]
    assert again["rounds"] == original["rounds"] == 4


def test_export_preserves_extra_keys_and_round_status():
    archive = four_pairs_two_rounds()
    archive["event"]["sponsor"] = "山西华牌协会"
    archive["players"][0]["gender"] = "女"
    archive["rounds"][1]["status"] = "provisional"
    archive["rounds"][0]["matches"][0]["deals"][0]["note"] = "裁判到场"
    exported = export_archive(import_archive(archive))
    assert exported["event"]["sponsor"] == "山西华牌协会"
    assert exported["players"][0]["gender"] == "女"
    assert [r["status"] for r in exported["rounds"]] == ["official", "provisional"]
    assert exported["rounds"][0]["matches"][0]["deals"][0]["note"] == "裁判到场"


def test_round_status_defaults_to_in_play_when_a_match_has_no_results():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["matches"][1]["deals"] = []
    event = import_archive(archive)
    assert list(event.rounds.values_list("status", flat=True)) == ["official", "in_play"]


def bad(archive_change):
    archive = four_pairs_two_rounds()
    archive_change(archive)
    return archive


BAD_ARCHIVES = [
    ("unknown pair", lambda a: a["rounds"][0]["matches"][0].update(ns="Z"), "Z"),
    (
        "invalid deal",
        lambda a: a["rounds"][1]["matches"][1]["deals"][0]["captured"]["N"].append("SQ"),
        "第2轮 2号桌 第1副：♠Q 记了 2 次",
    ),
    (
        "missing card",
        lambda a: a["rounds"][0]["matches"][1]["deals"][0]["captured"]["N"].remove("H9"),
        "第1轮 2号桌 第1副：♥9 未分配",
    ),
    (
        "board twice",
        lambda a: a["rounds"][0]["matches"][0]["deals"].append(deal("T2", 1)),
        "第1轮 1号桌 第1副",
    ),
    (
        "player in two seats",
        lambda a: a["pairs"][1]["players"].__setitem__(0, a["pairs"][0]["players"][0]),
        "同时坐在两方",
    ),
    ("pair twice in a round", lambda a: a["rounds"][0]["matches"][1].update(ns="A"), "A"),
    ("table twice", lambda a: a["rounds"][0]["matches"][1].update(table=1), "1号桌重复"),
    ("bad format", lambda a: a.update(format="other/2"), "format"),
    ("unknown player in pair", lambda a: a["pairs"][0]["players"].__setitem__(1, "nobody"), "nobody"),
]


@pytest.mark.parametrize(("name", "change", "named"), BAD_ARCHIVES, ids=[b[0] for b in BAD_ARCHIVES])
def test_a_bad_archive_is_refused_whole_naming_the_fault(name, change, named):
    with pytest.raises(ArchiveError) as caught:
        import_archive(bad(change))
    assert named in str(caught.value)
    assert not Event.objects.exists()
    assert not Player.objects.exists()
    assert not Deal.objects.exists()


def test_a_deal_after_the_last_game_is_refused():
    from tests.archives import one_match

    archive = one_match([deal("T14", 1), deal("T1", 2)], mode="games", length=1)
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    assert "第1轮 1号桌 第2副" in str(caught.value)
    assert not Event.objects.exists()


def test_the_import_command_refuses_a_bad_file_with_the_message(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad(BAD_ARCHIVES[1][1]), ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError, match="♠Q 记了 2 次"):
        call_command("import_event", str(path))
    assert not Event.objects.exists()


def test_import_and_export_commands_round_trip(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(four_pairs_two_rounds(), ensure_ascii=False), encoding="utf-8")
    call_command("import_event", str(path), stdout=StringIO())
    out = StringIO()
    call_command("export_event", "t-pairs", stdout=out)
    exported = json.loads(out.getvalue())
    assert exported["format"] == "huapai-event/1"
    assert [p["id"] for p in exported["pairs"]] == ["A", "B", "C", "D"]
    assert exported["rounds"][0]["matches"][0]["deals"][0]["captured"]["N"] == ["HA", "HK", "H8", "H7", "SQ"]


def test_adjusted_scores_replace_the_computed_ones_and_penalties_still_count():
    archive = four_pairs_two_rounds()
    archive["rounds"][0]["matches"][0]["deals"][0].update(
        adjusted={"N": -100, "E": 0, "S": 0, "W": 0}, adjusted_reason="牌序错乱", penalties={"E": -50}
    )
    event = import_archive(archive)
    stored = Deal.objects.get(table__round__number=1, table__number=1)
    assert stored.scores == {"N": -100, "E": -50, "S": 0, "W": 0}
    rows = {r["id"]: r for r in standings_json(event)["rows"]}
    # A (NS) −100 against B (EW) −50 in round 1: B wins by 50.
    assert rows["B"]["penalties"] == -50
    assert rows["A"]["score_difference"] == -50 + 110


def test_an_adjusted_deal_may_have_no_cards_but_its_penalties_are_checked():
    archive = four_pairs_two_rounds()
    deal = archive["rounds"][0]["matches"][0]["deals"][0]
    for key in ("captured", "holders", "exposed"):
        deal.pop(key, None)
    deal.update(adjusted={"N": 30, "E": 0, "S": 0, "W": -30}, adjusted_reason="未打完", penalties={"s": -20})
    import_archive(archive)
    stored = Deal.objects.get(table__round__number=1, table__number=1)
    assert stored.scores == {"N": 30, "E": 0, "S": -20, "W": -30} and stored.penalties == {"S": -20}
    deal["penalties"] = {"S": 20}
    with pytest.raises(ArchiveError, match="bad_penalty"):
        import_archive(dict(archive, event={**archive["event"], "slug": "t-pairs-2"}))


def test_planned_rounds_the_chief_arbiter_and_closing_travel_with_a_back_up():
    archive = four_pairs_two_rounds()
    archive["event"].update(planned_rounds=2, chief_arbiter="王裁判", finished_at="2026-11-29T18:00:00+08:00")
    event = import_archive(archive)
    assert (event.planned_rounds, event.chief_arbiter, event.is_finished) == (2, "王裁判", True)
    exported = export_archive(event)
    assert exported["event"]["planned_rounds"] == 2 and exported["event"]["chief_arbiter"] == "王裁判"
    again = import_archive(dict(exported, event={**exported["event"], "slug": "copy"}))
    assert again.finished_at == event.finished_at


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("planned_rounds", 0),
        ("planned_rounds", 201),
        ("planned_rounds", "3"),
        ("finished_at", "yesterday"),
        ("chief_arbiter", "x" * 101),
    ],
)
def test_a_bad_plan_or_closing_time_is_refused_by_name(key, value):
    from scoring.archive.format import ArchiveError

    archive = four_pairs_two_rounds()
    archive["event"][key] = value
    with pytest.raises(ArchiveError, match=key):
        import_archive(archive)
