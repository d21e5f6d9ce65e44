"""The referee's entry page for a board of a 蚌埠斗地主 event: the game's fields through a Django
form, the live score from the engine (the preview endpoint), the law's refusals beside the field
they name, confirmation by a second referee, history in the game's words; 华牌's page unchanged.
Expected scores are the law's worked examples, read from shared/rules/games/examples.json."""

import re

import pytest

from scoring.archive.database import import_archive
from scoring.models import Deal
from tests.archives import DOUDIZHU, doudizhu_archive, game_examples
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(DOUDIZHU)
BOARD = "/referee/t-ddz/rounds/1/tables/1/boards/{board}/"


def expected(name):
    return EXAMPLES[name]["expected"]["scores"]


def form_data(name):
    """The page's fields for a worked example's deal, as a referee fills them in."""
    deal = EXAMPLES[name]["deal"]
    data = {}
    for key in ("landlord", "first_out", "tianzun"):
        if deal.get(key):
            data[key] = deal[key]
    if "bid" in deal:
        data["bid"] = str(deal["bid"])
    if deal.get("open"):
        data["open"] = "on"
    if deal.get("tianzha"):
        data["tianzha"] = deal["tianzha"]
    for seat, count in (deal.get("feidan") or {}).items():
        data[f"feidan-{seat}"] = str(count)
    return data


@pytest.fixture
def referees(client):
    event = import_archive(doudizhu_archive(tables={1: (), 2: ()}))
    people = {
        "one": make_user("referee1", "referee", event),
        "two": make_user("referee2", "referee", event),
        "organiser": make_user("organiser", "organiser", event),
    }
    client.force_login(people["one"])
    return people


def errors_beside(page, key):
    found = re.search(rf'data-errors-for="{key}"[^>]*>(.*?)</div>', page, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)).strip() if found else None


def test_the_page_asks_the_games_fields_not_the_card_grid(client, referees):
    page = client.get(BOARD.format(board=1)).content.decode()
    for key in ("tianzha", "tianzun", "landlord", "bid", "open", "first_out", "feidan"):
        assert f'data-key="{key}"' in page
    assert 'name="feidan-W"' in page and 'value="grab"' in page
    assert 'id="card-grid"' not in page and "js/entry.js" in page
    assert "蚌埠斗地主 (bengbu-doudizhu)" in page  # the rules in force, in words


@pytest.mark.parametrize("name", ["DDZ14", "DDZ19", "DDZ22", "DDZ29", "DDZ13"])
def test_a_deal_entered_on_the_page_is_stored_with_the_laws_scores(client, referees, name):
    response = client.post(BOARD.format(board=1), form_data(name))
    assert response.status_code == 302
    deal = Deal.objects.get(table__number=1, board=1)
    assert deal.scores == expected(name) and deal.status == Deal.Status.DRAFT


def test_the_preview_is_the_engines_score_and_the_tables_running_total(client, referees):
    client.post(BOARD.format(board=1), form_data("DDZ01"))
    answer = client.post(BOARD.format(board=2) + "preview/", form_data("DDZ18")).json()
    assert answer["problems"] == [] and answer["scores"] == expected("DDZ18")
    assert answer["totals"] == {seat: expected("DDZ01")[seat] + expected("DDZ18")[seat] for seat in "NESW"}
    assert any("飞弹" in part for part in answer["breakdown"]["E"])
    refused = client.post(BOARD.format(board=2) + "preview/", {**form_data("DDZ01"), "feidan-S": "4"}).json()
    assert refused["scores"] is None
    assert [(p["code"], p["field"]) for p in refused["problems"]] == [("bad_feidan", "feidan")]


def test_an_impossible_deal_is_refused_with_the_laws_reason_beside_the_field(client, referees):
    response = client.post(BOARD.format(board=1), {**form_data("DDZ01"), "feidan-S": "4"})
    page = response.content.decode()
    assert response.status_code == 400 and not Deal.objects.exists()
    assert "农民" in errors_beside(page, "feidan") and "0 到 3" in errors_beside(page, "feidan")
    assert errors_beside(page, "landlord") == ""
    closed_grab = {"landlord": "E", "bid": "grab", "first_out": "E"}
    stored = client.post(BOARD.format(board=1), closed_grab)  # 搶牌 is 明打 without saying so (V6)
    assert stored.status_code == 302 and Deal.objects.get(board=1).scores == {"N": -9, "E": 27, "S": -9, "W": -9}
    missing = client.post(BOARD.format(board=2), {"landlord": "N", "bid": "2"}).content.decode()
    assert "first_out" in errors_beside(missing, "first_out")


def test_a_value_out_of_the_forms_bounds_is_named_beside_it(client, referees):
    for data in ({**form_data("DDZ01"), "feidan-N": "99"}, {**form_data("DDZ01"), "bid": "7"}, {"landlord": "X"}):
        response = client.post(BOARD.format(board=1), data)
        assert response.status_code == 400
    assert not Deal.objects.exists()
    answer = client.post(BOARD.format(board=1) + "preview/", {**form_data("DDZ01"), "feidan-N": "99"}).json()
    assert answer["problems"][0]["code"] == "bad_form" and answer["problems"][0]["field"] == "feidan-N"


def test_a_second_referee_confirms_and_the_history_reads_in_the_games_words(client, referees):
    client.post(BOARD.format(board=1), form_data("DDZ22"))
    deal = Deal.objects.get(board=1)
    client.force_login(referees["two"])
    page = client.get(BOARD.format(board=1)).content.decode()
    assert 'id="confirm"' in page
    assert "地主：北(N)" in page  # the history's version in the game's words
    response = client.post(BOARD.format(board=1) + "confirm/", {"version": deal.version})
    assert response.status_code == 302
    assert Deal.objects.get(board=1).status == Deal.Status.CONFIRMED
    again = client.get(BOARD.format(board=1)).content.decode()
    assert 'name="landlord" value="N" checked' in again and 'name="feidan-W" value="1"' in again


def test_a_penalty_is_refused_and_the_chief_arbiter_adjusts_instead(client, referees):
    client.post(BOARD.format(board=1), form_data("DDZ01"))
    deal = Deal.objects.get(board=1)
    client.post(
        BOARD.format(board=1) + "irregularity/",
        {"version": deal.version, "seat": "N", "kind": "slow_play", "penalty": "10", "ruling": "慢"},
    )
    assert Deal.objects.get(board=1).scores == expected("DDZ01")
    client.force_login(referees["organiser"])
    adjusted = {"adjusted-N": "3", "adjusted-E": "-3", "adjusted-S": "0", "adjusted-W": "0"}
    client.post(
        BOARD.format(board=1), {**form_data("DDZ01"), **adjusted, "adjusted_reason": "争议", "version": deal.version}
    )
    assert Deal.objects.get(board=1).scores == {"N": 3, "E": -3, "S": 0, "W": 0}
