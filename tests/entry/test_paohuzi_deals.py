"""Entering 跑胡子 deals at a table of three through the services every door uses: scored by the
event's game and stored whole (`Deal.game_data`) with North's column 0, changed conditionally,
confirmed by a second referee, an arbiter's adjusted score over three seats, blind double entry
compared key by key, the law's refusals by code, the preview's running totals. Expected scores
are the law's worked examples (shared/rules/games/examples.json)."""

import pytest

from scoring.entry.blind import blind_entry_submit
from scoring.entry.errors import EntryError
from scoring.entry.selectors import blind_differences, deal_preview
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Table
from tests.archives import game_examples, paohuzi_archive, paohuzi_deal
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples("paohuzi")
SEATS = ("E", "S", "W")


def expected(name):
    return EXAMPLES[name]["expected"]["scores"]


def deal_json(name):
    deal = paohuzi_deal(name, 1)
    deal.pop("board")
    return deal


@pytest.fixture
def setting():
    from scoring.archive.database import import_archive

    event = import_archive(paohuzi_archive(tables={1: (), 2: ()}))
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    return {
        "event": event,
        "table": table,
        "referee1": make_user("referee1", "referee", event),
        "referee2": make_user("referee2", "referee", event),
        "organiser": make_user("organiser", "organiser", event),
    }


def test_a_deal_is_stored_whole_with_three_seats_scored(setting):
    deal, created = deal_save(table=setting["table"], board=1, deal_json=deal_json("PHZ09"), user=setting["referee1"])
    stored = Deal.objects.get(pk=deal.pk)
    assert created and stored.scores == {"N": 0, **expected("PHZ09")}
    assert stored.game_data["winner"] == "S" and stored.game_data["wang"] == "wangdiao"
    changed, _ = deal_save(
        table=setting["table"], board=1, deal_json=deal_json("PHZ13"), user=setting["referee1"], expected_version=1
    )
    assert Deal.objects.get(pk=changed.pk).scores == {"N": 0, **expected("PHZ13")}
    confirmed = deal_confirm(deal=changed, user=setting["referee2"], expected_version=2)
    assert Deal.objects.get(pk=confirmed.pk).status == Deal.Status.CONFIRMED


@pytest.mark.parametrize("name", [n for n, e in EXAMPLES.items() if "error" in e["expected"]])
def test_an_impossible_deal_is_refused_with_the_laws_code(setting, name):
    with pytest.raises(EntryError) as refused:
        deal_save(table=setting["table"], board=1, deal_json=deal_json(name), user=setting["referee1"])
    assert refused.value.code == EXAMPLES[name]["expected"]["error"]["code"]
    assert not Deal.objects.exists()


def test_an_arbiters_adjusted_score_covers_the_three_seats(setting):
    adjusted = {"E": 5, "S": -5, "W": 0}
    settled = {"adjusted": adjusted, "adjusted_reason": "争议"}
    deal, _ = deal_save(table=setting["table"], board=2, deal_json=settled, user=setting["organiser"])
    assert Deal.objects.get(pk=deal.pk).scores == {"N": 0, **adjusted}
    with pytest.raises(EntryError):  # North is not a seat of the game
        deal_save(
            table=setting["table"], board=3, deal_json={"adjusted": {"N": 1, "E": -1, "S": 0, "W": 0}},
            user=setting["organiser"],
        )  # fmt: skip


def test_blind_entries_compare_the_deal_key_by_key(setting):
    event = setting["event"]
    event.double_entry = True
    event.save()
    table = Table.objects.select_related("round__event").get(pk=setting["table"].pk)
    blind_entry_submit(table=table, board=1, deal_json=deal_json("PHZ01"), user=setting["referee1"])
    outcome, deal = blind_entry_submit(table=table, board=1, deal_json=deal_json("PHZ01"), user=setting["referee2"])
    assert outcome == "confirmed" and {s: deal.scores[s] for s in SEATS} == expected("PHZ01")
    blind_entry_submit(table=table, board=2, deal_json=deal_json("PHZ06"), user=setting["referee1"])
    outcome, _ = blind_entry_submit(table=table, board=2, deal_json=deal_json("PHZ15"), user=setting["referee2"])
    assert outcome == "conflict"
    assert "from" in dict(blind_differences(table, 2))  # PHZ06's discarder E, PHZ15's W


def test_the_preview_is_the_engines_with_the_tables_running_totals(setting):
    table = setting["table"]
    deal_save(table=table, board=1, deal_json=deal_json("PHZ05"), user=setting["referee1"])
    preview = deal_preview(table, 2, deal_json("PHZ14"))
    assert preview["problems"] == [] and preview["scores"] == expected("PHZ14")
    assert preview["totals"] == {s: expected("PHZ05")[s] + expected("PHZ14")[s] for s in SEATS}
    refused = deal_preview(table, 2, deal_json("PHZX5"))
    assert refused["scores"] is None
    assert [(p["code"], p["field"]) for p in refused["problems"]] == [("bad_xing", "xing")]


def test_the_referee_api_takes_a_deal_of_a_table_of_three(client, setting):
    """shared/formats/referee-api.md: the deal JSON of the event's game, its three seats' scores."""
    import json

    from tests.referee_setup import board_url, token_header

    url = board_url(slug="t-phz", round_number=1, table=1, board=1)
    response = client.put(
        url, data=json.dumps(deal_json("PHZ07")), content_type="application/json", **token_header(setting["referee1"])
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert {seat: body["scores"][seat] for seat in SEATS} == expected("PHZ07")
    refused = client.put(
        board_url(slug="t-phz", round_number=1, table=1, board=2),
        data=json.dumps(deal_json("PHZX3")),
        content_type="application/json",
        **token_header(setting["referee1"]),
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "wangba_self_draw_only"
