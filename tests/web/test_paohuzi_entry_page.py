"""The referee's entry page for a board of a 跑胡子 event (tables of three): the game's fields
(winner or 黄庄, 王霸 per seat, 胡息, 红字数, 来源, 王钓, 省, 庄家) through the Django form, the live
score from the engine (the preview endpoint), the law's refusals beside the field they name,
confirmation by a second referee, the page read back from the stored deal. Expected scores are
the law's worked examples (shared/rules/games/examples.json)."""

import re

import pytest

from scoring.archive.database import import_archive
from scoring.models import Deal
from tests.archives import game_examples, paohuzi_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples("paohuzi")
BOARD = "/referee/t-phz/rounds/1/tables/1/boards/{board}/"
SEATS = ("E", "S", "W")


def expected(name):
    return EXAMPLES[name]["expected"]["scores"]


def form_data(name):
    """The page's fields for a worked example's deal, as a referee fills them in."""
    deal = EXAMPLES[name]["deal"]
    data = {"winner": deal["winner"] or "none"}
    for seat, count in deal["wangba"].items():
        data[f"wangba-{seat}"] = str(count)
    for key in ("huxi", "red", "source", "from", "wang", "xing", "dealer"):
        if deal.get(key) is not None:
            data[key] = str(deal[key])
    return data


@pytest.fixture
def referees(client):
    event = import_archive(paohuzi_archive(tables={1: (), 2: ()}))
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


def test_the_page_asks_the_games_fields_for_three_seats(client, referees):
    page = client.get(BOARD.format(board=1)).content.decode()
    for key in ("winner", "wangba", "huxi", "red", "source", "from", "wang", "xing", "dealer"):
        assert f'data-key="{key}"' in page
    assert 'name="wangba-W"' in page and 'name="wangba-N"' not in page and 'value="N"' not in page
    assert 'name="winner" value="none"' in page and "黄庄" in page  # nobody won: 黄庄, by its key H
    assert 'data-hotkey="h"' in page and 'data-needed="win"' in page
    assert 'name="wang" value="none" checked' in page  # the law's default, 王钓 none
    assert 'id="card-grid"' not in page and "js/entry.js" in page
    assert "黄庄按 H" in page  # this game's keys, not 斗地主's


@pytest.mark.parametrize("name", ["PHZ01", "PHZ03", "PHZ07", "PHZ09", "PHZ11", "PHZ13", "PHZ14", "PHZ19"])
def test_a_deal_entered_on_the_page_is_stored_with_the_laws_scores(client, referees, name):
    response = client.post(BOARD.format(board=1), form_data(name))
    assert response.status_code == 302, response.content.decode()[:2000]
    deal = Deal.objects.get(table__number=1, board=1)
    assert {seat: deal.scores[seat] for seat in SEATS} == expected(name) and deal.scores["N"] == 0
    assert deal.status == Deal.Status.DRAFT


def test_a_huang_with_the_untouched_defaults_is_a_huang(client, referees):
    """A 黄庄 posted with the page's untouched win fields (王钓 none, 0 省) is not refused for them."""
    data = {**form_data("PHZ13"), "wang": "none", "xing": "0"}
    assert client.post(BOARD.format(board=1), data).status_code == 302
    assert Deal.objects.get(board=1).game_data["winner"] is None


def test_the_preview_is_the_engines_score_and_the_tables_running_total(client, referees):
    client.post(BOARD.format(board=1), form_data("PHZ01"))
    answer = client.post(BOARD.format(board=2) + "preview/", form_data("PHZ07")).json()
    assert answer["problems"] == [] and answer["scores"] == expected("PHZ07")
    assert answer["totals"] == {seat: expected("PHZ01")[seat] + expected("PHZ07")[seat] for seat in SEATS}
    assert any("黑胡" in part for part in answer["breakdown"]["W"])
    low = client.post(BOARD.format(board=2) + "preview/", {**form_data("PHZ01"), "huxi": "14"}).json()
    assert low["scores"] is None
    assert [(p["code"], p["field"]) for p in low["problems"]] == [("huxi_below_minimum", "huxi")]
    nothing = client.post(BOARD.format(board=2) + "preview/", {"wangba-E": "1"}).json()
    assert [(p["code"], p["field"]) for p in nothing["problems"]] == [("missing_key", "winner")]


@pytest.mark.parametrize(
    ("name", "key"),
    [("PHZX2", "huxi"), ("PHZX3", "source"), ("PHZX4", "wang"), ("PHZX5", "xing"), ("PHZX6", "wangba"),
     ("PHZX7", "from"), ("PHZX10", "from")],
)  # fmt: skip
def test_an_impossible_deal_is_refused_with_the_laws_reason_beside_the_field(client, referees, name, key):
    response = client.post(BOARD.format(board=1), form_data(name))
    page = response.content.decode()
    assert response.status_code == 400 and not Deal.objects.exists()
    assert errors_beside(page, key), name
    assert EXAMPLES[name]["expected"]["error"]["code"] in {
        "huxi_below_minimum",
        "wangba_self_draw_only",
        "bad_wang",
        "bad_xing",
        "bad_wangba",
        "missing_key",
        "bad_from",
    }


def test_a_value_out_of_the_forms_bounds_is_named_beside_it(client, referees):
    for data in ({**form_data("PHZ01"), "wangba-E": "3"}, {**form_data("PHZ01"), "winner": "N"}, {"red": "x"}):
        assert client.post(BOARD.format(board=1), data).status_code == 400
    assert not Deal.objects.exists()


def test_a_second_referee_confirms_and_the_page_reads_the_deal_back(client, referees):
    client.post(BOARD.format(board=1), form_data("PHZ09"))
    client.post(BOARD.format(board=2), form_data("PHZ14"))
    deal = Deal.objects.get(board=1)
    client.force_login(referees["two"])
    page = client.get(BOARD.format(board=1)).content.decode()
    assert 'id="confirm"' in page and "胡牌者：南(S)" in page  # the history in the game's words
    assert client.post(BOARD.format(board=1) + "confirm/", {"version": deal.version}).status_code == 302
    assert Deal.objects.get(board=1).status == Deal.Status.CONFIRMED
    again = client.get(BOARD.format(board=1)).content.decode()
    assert 'name="winner" value="S" checked' in again and 'name="wangba-S" value="1"' in again
    assert 'name="wang" value="wangdiao" checked' in again
    huang = client.get(BOARD.format(board=2)).content.decode()
    assert 'name="winner" value="none" checked' in huang
    confirm_page = client.get("/referee/t-phz/rounds/1/tables/1/confirm/").content.decode()
    assert "黄庄" in confirm_page and ">N<" not in confirm_page


def test_the_chief_arbiter_adjusts_three_seats(client, referees):
    client.post(BOARD.format(board=1), form_data("PHZ01"))
    deal = Deal.objects.get(board=1)
    client.force_login(referees["organiser"])
    adjusted = {"adjusted-E": "3", "adjusted-S": "-3", "adjusted-W": "0"}
    response = client.post(
        BOARD.format(board=1), {**form_data("PHZ01"), **adjusted, "adjusted_reason": "争议", "version": deal.version}
    )
    assert response.status_code == 302
    assert Deal.objects.get(board=1).scores == {"N": 0, "E": 3, "S": -3, "W": 0}


def test_an_empty_wangba_means_nobody_holds_one(client, referees):
    """王霸 left empty is 0 for every seat (docs/games/paohuzi.md): never a field still to fill,
    its placeholder says 0, and a win saved without it is scored as nobody holding one."""
    page = client.get(BOARD.format(board=1)).content.decode()
    progress = re.search(r'id="fields-progress"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "胡牌者" in progress and "王霸" not in progress
    for seat in SEATS:
        assert re.search(rf'name="wangba-{seat}" value=""[^>]*placeholder="0"', page), seat
    assert 'data-key="wangba" data-kind="per_seat" data-needed="always" data-default="0"' in page
    data = {key: value for key, value in form_data("PHZ01").items() if not key.startswith("wangba")}
    answer = client.post(BOARD.format(board=1) + "preview/", data).json()
    assert answer["problems"] == [] and answer["scores"] == expected("PHZ01")
    assert client.post(BOARD.format(board=1), data).status_code == 302
    assert Deal.objects.get(board=1).game_data["wangba"] == dict.fromkeys(SEATS, 0)


def test_the_english_page_has_english_brackets_and_clock_words(client, referees):
    """ "History（2）" kept a full-width bracket in English, and the round clock read "round's time
    time" once time was up."""
    from django.utils import translation

    client.post(BOARD.format(board=1), form_data("PHZ01"))
    client.get("/language/en/?next=/")
    page = client.get(BOARD.format(board=1)).content.decode()
    assert "History (1)" in page and "（1）" not in page
    with translation.override("en"):
        assert f"{translation.gettext('本轮时间')} {translation.gettext('时间到')}" == "Round clock time is up"


def test_english_pages_have_no_chinese_punctuation_around_rulings(client, referees):
    """A call's kind and its ruling, the person who opened it, were joined by "：" and "（）" on
    English pages."""
    from scoring.models import RefereeCall, Table
    from scoring.rulings.calls import call_open, call_rule

    client.get("/language/en/?next=/")
    client.post(BOARD.format(board=1), form_data("PHZ01"))
    table = Table.objects.get(round__number=1, number=1)
    call = call_open(table=table, user=referees["one"], kind=RefereeCall.Kind.OTHER, board=1, facts="slow")
    call_rule(call=call, user=referees["organiser"], outcome="nothing", ruling="warned")
    for url in (BOARD.format(board=1), f"/referee/t-phz/rounds/1/calls/{call.pk}/", "/referee/t-phz/rounds/1/calls/"):
        page = client.get(url).content.decode()
        main = page.split("<main")[1]
        assert not re.search(r"[（）：、]", re.sub(r"<[^>]+>", "", main)), url
