"""Entering another game's deals (蚌埠斗地主) through the services every door uses: the deal
scored by the event's game and stored whole (`Deal.game_data`) by the hot path's insert and
the conditional update, its scores on the seat columns, its history, confirmation, an
arbiter's adjusted score, blind double entry; the law's refusals; no penalty points where the
law has none. Expected scores are the law's worked examples (shared/rules/games/examples.json)."""

import pytest

from scoring.entry.blind import blind_entry_submit
from scoring.entry.errors import EntryError
from scoring.entry.selectors import blind_differences, deal_preview, snapshot
from scoring.entry.services import deal_confirm, deal_save, irregularity_record
from scoring.models import Deal, DealHistory, Table
from tests.archives import DOUDIZHU, doudizhu_archive, doudizhu_deal, game_examples
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(DOUDIZHU)


def expected(name):
    return EXAMPLES[name]["expected"]["scores"]


def deal_json(name):
    deal = doudizhu_deal(name, 1)
    deal.pop("board")
    return deal


@pytest.fixture
def setting():
    from scoring.archive.database import import_archive

    event = import_archive(doudizhu_archive(tables={1: (), 2: ()}))
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    return {
        "event": event,
        "table": table,
        "referee1": make_user("referee1", "referee", event),
        "referee2": make_user("referee2", "referee", event),
        "organiser": make_user("organiser", "organiser", event),
    }


def test_a_deal_is_scored_by_the_events_game_and_stored_whole(setting):
    deal, created = deal_save(table=setting["table"], board=1, deal_json=deal_json("DDZ14"), user=setting["referee1"])
    assert created and deal.status == Deal.Status.DRAFT
    stored = Deal.objects.get(pk=deal.pk)  # as the insert wrote it
    assert stored.scores == expected("DDZ14")
    assert stored.game_data["landlord"] == "W" and stored.game_data["bid"] == "grab"
    assert stored.game_data["feidan"] == {"W": 1} and "captured" not in stored.game_data
    history = DealHistory.objects.get(deal=stored)
    assert {key: history.after[key] for key in stored.game_data} == stored.game_data
    assert history.after["scores"] == expected("DDZ14")
    assert {key: snapshot(stored)[key] for key in stored.game_data} == stored.game_data


def test_a_change_rewrites_the_deal_and_its_scores_conditionally(setting):
    table = setting["table"]
    deal_save(table=table, board=2, deal_json=deal_json("DDZ18"), user=setting["referee1"])
    changed, created = deal_save(
        table=table, board=2, deal_json=deal_json("DDZ19"), user=setting["referee1"], expected_version=1, reason=""
    )
    assert not created and changed.version == 2
    stored = Deal.objects.get(pk=changed.pk)
    assert stored.scores == expected("DDZ19") and stored.game_data["first_out"] == "N"
    before = DealHistory.objects.filter(deal=stored).order_by("id").last().before
    assert before["scores"] == expected("DDZ18")
    with pytest.raises(EntryError) as stale:
        deal_save(table=table, board=2, deal_json=deal_json("DDZ18"), user=setting["referee1"], expected_version=1)
    assert stale.value.code == "stale_version"


def test_a_second_referee_confirms_it(setting):
    deal, _ = deal_save(table=setting["table"], board=1, deal_json=deal_json("DDZ26"), user=setting["referee1"])
    with pytest.raises(EntryError) as own:
        deal_confirm(deal=deal, user=setting["referee1"], expected_version=1)
    assert own.value.code == "self_confirmation"
    confirmed = deal_confirm(deal=deal, user=setting["referee2"], expected_version=1)
    assert Deal.objects.get(pk=confirmed.pk).status == Deal.Status.CONFIRMED


@pytest.mark.parametrize("name", [n for n, e in EXAMPLES.items() if "error" in e["expected"] and n != "DDZX11"])
def test_an_impossible_deal_is_refused_with_the_laws_code(setting, name):
    with pytest.raises(EntryError) as refused:
        deal_save(table=setting["table"], board=1, deal_json=deal_json(name), user=setting["referee1"])
    assert refused.value.code == EXAMPLES[name]["expected"]["error"]["code"]
    assert not Deal.objects.exists()


def test_an_arbiters_adjusted_score_replaces_the_engines(setting):
    adjusted = {"N": 5, "E": -5, "S": 0, "W": 0}
    deal, _ = deal_save(
        table=setting["table"],
        board=3,
        deal_json={"adjusted": adjusted, "adjusted_reason": "出牌争议"},
        user=setting["organiser"],
    )
    stored = Deal.objects.get(pk=deal.pk)
    assert stored.scores == adjusted and stored.adjusted == adjusted and stored.game_data == {}


def test_the_law_has_no_penalty_points(setting):
    deal, _ = deal_save(table=setting["table"], board=1, deal_json=deal_json("DDZ01"), user=setting["referee1"])
    with pytest.raises(EntryError) as refused:
        irregularity_record(
            deal=deal, user=setting["referee2"], seat="N", kind="slow_play", ruling="慢", penalty=-10,
            expected_version=1,
        )  # fmt: skip
    assert refused.value.code == "no_penalties" and "蚌埠斗地主" in refused.value.message
    ruled = irregularity_record(
        deal=deal, user=setting["referee2"], seat="N", kind="slow_play", ruling="警告", penalty=0, expected_version=1
    )
    assert Deal.objects.get(pk=ruled.pk).scores == expected("DDZ01")


def test_blind_entries_compare_the_deal_key_by_key(setting):
    event = setting["event"]
    event.double_entry = True
    event.save()
    table = Table.objects.select_related("round__event").get(pk=setting["table"].pk)
    first = blind_entry_submit(table=table, board=1, deal_json=deal_json("DDZ22"), user=setting["referee1"])
    assert first == ("waiting", None)
    outcome, deal = blind_entry_submit(table=table, board=1, deal_json=deal_json("DDZ22"), user=setting["referee2"])
    assert outcome == "confirmed" and deal.scores == expected("DDZ22") and deal.game_data["feidan"] == {"N": 1, "W": 1}
    blind_entry_submit(table=table, board=2, deal_json=deal_json("DDZ03"), user=setting["referee1"])
    outcome, _ = blind_entry_submit(table=table, board=2, deal_json=deal_json("DDZ07"), user=setting["referee2"])
    assert outcome == "conflict"
    differing = dict(blind_differences(table, 2))
    assert set(differing) == {"landlord", "bid", "first_out"}
    assert differing["landlord"] == {"referee1": "E", "referee2": "W"}


def test_the_preview_is_the_engines_with_the_tables_running_totals(setting):
    table = setting["table"]
    deal_save(table=table, board=1, deal_json=deal_json("DDZ01"), user=setting["referee1"])
    preview = deal_preview(table, 2, deal_json("DDZ14"))
    assert preview["problems"] == [] and preview["scores"] == expected("DDZ14")
    assert preview["totals"] == {s: expected("DDZ01")[s] + expected("DDZ14")[s] for s in "NESW"}
    refused = deal_preview(table, 2, {"landlord": "N", "bid": 4, "first_out": "N"})
    assert refused["scores"] is None and [p["code"] for p in refused["problems"]] == ["bad_bid"]
    assert refused["problems"][0]["field"] == "bid"
