"""An event's game (games law §0) from the organiser's console: chosen at creation with that
game's own options as data, the kind the law fixes (others refused in words), frozen with the
other result-deciding settings once a deal exists; the rules in force in words."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from scoring.archive.database import import_archive
from scoring.entry.services import deal_save
from scoring.events.setup import RESULT_FIELDS, EventError, event_update, grant_event_creation
from scoring.games import EVENT_GAMES, GAMES
from scoring.games.stored import event_rules
from scoring.models import Event, EventRole, Table
from tests.archives import DOUDIZHU, doudizhu_archive, doudizhu_deal
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

DOUDIZHU_EVENT = {
    "name": "蚌埠斗地主公开赛",
    "slug": "bengbu-ddz",
    "game": DOUDIZHU,
    "shown_game": DOUDIZHU,
    "kind": "individual",
    "sessions_per_round": 1,
    "correction_minutes": 30,
    "entry": "referees",
    "option_feidan_stack": "add",
    "option_feidan_reversal": "false",
    "option_tianzha_points": "30",
    "option_tianzun_points": "6",
    "option_deals_per_match": "8",
    "option_standings": "table_points",
}


@pytest.fixture
def director(client):
    user = get_user_model().objects.create(username="director")
    grant_event_creation(user)
    client.force_login(user)
    return user


def test_the_form_shows_the_chosen_games_own_options(client, director):
    page = client.get("/organiser/new/", {"game": DOUDIZHU}).content.decode()
    for name in ("feidan_stack", "feidan_reversal", "tianzha_points", "tianzun_points", "deals_per_match", "standings"):
        assert f'id="id_option_{name}"' in page
    assert 'id="id_first_exposure"' not in page and 'id="id_match_mode"' not in page
    huapai = client.get("/organiser/new/").content.decode()
    assert 'id="id_first_exposure"' in huapai and 'id="id_option_feidan_stack"' not in huapai
    assert client.get("/organiser/new/", {"game": "mahjong"}).status_code == 200  # the default game's form


def test_an_organiser_creates_a_doudizhu_event_with_its_options(client, director):
    response = client.post("/organiser/new/", DOUDIZHU_EVENT)
    assert response.status_code == 302
    event = Event.objects.get(slug="bengbu-ddz")
    assert event.game == DOUDIZHU and event.ruleset == DOUDIZHU and event.kind == "individual"
    assert event.match_mode == "boards" and event.match_length == 8
    assert event.options["standings"] == "table_points" and event.options["feidan_reversal"] is False
    assert EventRole.objects.filter(event=event, user=director, role="organiser").exists()
    rules = event_rules(event)
    assert rules.standings == "table_points" and rules.deals_per_match == 8
    console = client.get("/organiser/bengbu-ddz/").content.decode()
    assert "蚌埠斗地主 (bengbu-doudizhu)" in console and "每场 8 副" in console


def test_the_deals_a_table_plays_are_the_match_length(client, director):
    client.post("/organiser/new/", {**DOUDIZHU_EVENT, "option_deals_per_match": "4"})
    assert Event.objects.get(slug="bengbu-ddz").match_length == 4
    response = client.post("/organiser/new/", {**DOUDIZHU_EVENT, "slug": "x2", "option_deals_per_match": "1001"})
    assert response.status_code == 200 and not Event.objects.filter(slug="x2").exists()


def test_another_kind_than_the_law_fixes_is_refused_in_words(client, director):
    response = client.post("/organiser/new/", {**DOUDIZHU_EVENT, "kind": "pairs"})
    assert response.status_code == 200 and not Event.objects.exists()
    assert "蚌埠斗地主 只能是个人赛" in response.content.decode()


def test_choosing_another_game_shows_its_fields_and_saves_nothing(client, director):
    posted = {"name": "公开赛", "slug": "open", "game": DOUDIZHU, "shown_game": "huapai", "kind": "pairs"}
    response = client.post("/organiser/new/", posted)
    page = response.content.decode()
    assert response.status_code == 200 and not Event.objects.exists()
    assert 'id="id_option_deals_per_match"' in page and "公开赛" in page


def test_the_game_is_frozen_once_the_event_has_a_deal(client):
    assert "game" in RESULT_FIELDS
    event = import_archive(doudizhu_archive(tables={1: (), 2: ()}))
    organiser = make_user("organiser", "organiser", event)
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    deal = doudizhu_deal("DDZ01", 1)
    deal.pop("board")
    deal_save(table=table, board=1, deal_json=deal, user=organiser)
    event.game = "huapai"
    with pytest.raises(EventError) as refused:
        event_update(event, changed={"game"})
    assert refused.value.code == "has_results"
    client.force_login(organiser)
    page = client.get(f"/organiser/{event.slug}/edit/").content.decode()
    assert 'name="game"' in page and "disabled" in page.split('name="game"')[1].split(">")[0]
    assert Event.objects.get(pk=event.pk).game == DOUDIZHU


@pytest.mark.parametrize("game_id", list(EVENT_GAMES))
def test_every_games_form_is_valid_with_its_defaults(game_id):
    from scoring.web.organiser.event_form import EventForm

    game = GAMES[game_id]
    kind = game.event_kinds[0] if game.event_kinds else "pairs"
    form = EventForm(
        {
            "name": "赛",
            "slug": "s",
            "game": game_id,
            "kind": kind,
            "ruleset": game.default_ruleset,
            "game_threshold": 1000,
            "match_mode": "boards",
            "match_length": 8,
            "points_win": 2,
            "points_draw": 1,
            "points_loss": 0,
            "sessions_per_round": 1,
            "correction_minutes": 30,
            "entry": "referees",
        }
    )
    assert form.is_valid(), form.errors
    event = form.save(commit=False)
    assert event.game == game_id
    event_rules(event)  # the stored options read back as the game's rules


def test_players_enter_another_game_through_the_table_link(client, director):
    # The table link enters every game (its entry fields), so the players' mode is offered for
    # 蚌埠斗地主 as for 华牌 (tests/table_entry/test_table_api_games.py).
    response = client.post("/organiser/new/", {**DOUDIZHU_EVENT, "entry": "players"})
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.game == "bengbu-doudizhu" and event.entry == Event.Entry.PLAYERS


def test_the_form_offers_the_chosen_games_rule_sets_only(client, director):
    page = client.get("/organiser/new/").content.decode()
    rulesets = page.split('name="ruleset"')[1].split("</select>")[0]
    assert 'value="online-2deck"' in rulesets and 'value="bengbu-doudizhu"' not in rulesets


def test_every_game_of_the_sources_runs_events():
    # The sources' four games, and the conformance suite's test-only fifth (tests/conformance/).
    assert set(EVENT_GAMES) == set(GAMES) == {"huapai", "bengbu-doudizhu", "shengji", "paohuzi", "jiaodun"}


def test_a_game_whose_law_allows_no_kind_of_event_is_refused_by_the_event_and_the_archive(monkeypatch):
    """A game plugged in before its tables and matches are built (`event_kinds` empty) is scored by
    `score_deal` only: an event of it is refused in words, from the form's model and from an archive."""
    from scoring.archive.format import ArchiveError

    monkeypatch.setattr(type(GAMES["paohuzi"]), "event_kinds", ())
    event = Event(name="赛", slug="s", game="paohuzi", kind="individual")
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert "还不能举办" in str(refused.value.message_dict["game"])
    archive = doudizhu_archive()
    archive["event"]["game"] = "paohuzi"
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert "还不能举办" in str(refused.value)


@pytest.mark.parametrize("game_id", ["bengbu-doudizhu", "shengji", "paohuzi"])
def test_games_mode_is_refused_for_a_game_whose_match_has_no_ju(game_id):
    """Only 华牌's match is won by 局 (`Game.match_thresholds`): the event itself refuses games mode
    for another game, as the archive does and the console's form never offers, so no other path
    (the admin) stores an event whose pages would have no 局 to group its deals by."""
    game = GAMES[game_id]
    kind = game.event_kinds[0] if game.event_kinds else "pairs"
    event = Event(name="赛", slug="s", game=game_id, ruleset=game.default_ruleset, kind=kind, match_mode="games")
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert refused.value.message_dict["match_mode"] == [f"{game.name} 没有局制"]
    huapai = Event(name="赛", slug="h", game="huapai", ruleset="huapai", kind="pairs", match_mode="games")
    huapai.full_clean()  # 华牌's games mode stands


SHENGJI_EVENT = {
    "name": "升级双人赛",
    "slug": "sj-pairs",
    "game": "shengji",
    "shown_game": "shengji",
    "kind": "pairs",
    "sessions_per_round": 1,
    "correction_minutes": 30,
    "entry": "referees",
    "match_length": "30",
    "points_win": "2",
    "points_draw": "1",
    "points_loss": "0",
    "option_start_level": "2",
    "option_target": "13",
    "option_deals": "",
}


def test_an_organiser_creates_a_shengji_pairs_event_with_its_match_settings(client, director):
    page = client.get("/organiser/new/", {"game": "shengji"}).content.decode()
    for name in ("start_level", "target", "deals"):
        assert f'id="id_option_{name}"' in page
    assert 'id="id_match_length"' in page and "每桌每轮至多副数" in page
    assert 'id="id_first_exposure"' not in page and 'id="id_match_mode"' not in page
    response = client.post("/organiser/new/", SHENGJI_EVENT)
    assert response.status_code == 302
    event = Event.objects.get(slug="sj-pairs")
    assert event.game == "shengji" and event.kind == "pairs" and event.match_length == 30
    # §2.2 event options: from 2, first past K wins; the number of deals left empty is none (M2 only).
    assert event.options == {"start_level": 2, "target": 13, "deals": None}
    rules = event_rules(event)
    assert (rules.start_level, rules.target, rules.deals) == (2, 13, None)
    console = client.get("/organiser/sj-pairs/").content.decode()
    assert "升级 (shengji)" in console and "先升过第 13 级者胜" in console and "不限副数" in console


def test_a_shengji_match_of_n_deals_sets_the_match_length(client, director):
    client.post("/organiser/new/", {**SHENGJI_EVENT, "option_target": "", "option_deals": "12"})
    event = Event.objects.get(slug="sj-pairs")
    assert event.options["target"] is None and event.options["deals"] == 12 and event.match_length == 12


def test_a_shengji_match_that_cannot_end_or_a_wrong_kind_is_refused_in_words(client, director):
    never = client.post("/organiser/new/", {**SHENGJI_EVENT, "option_target": "", "option_deals": ""})
    assert never.status_code == 200 and not Event.objects.exists()
    assert "target 和 deals 不能都为 null" in never.content.decode()  # M4: at least one is set
    below = client.post("/organiser/new/", {**SHENGJI_EVENT, "option_start_level": "5", "option_target": "3"})
    assert below.status_code == 200 and not Event.objects.exists()
    individual = client.post("/organiser/new/", {**SHENGJI_EVENT, "kind": "individual"})
    assert individual.status_code == 200 and not Event.objects.exists()
    assert "升级 只能是双人赛" in individual.content.decode()


PAOHUZI_EVENT = {
    "name": "永州扯胡子公开赛",
    "slug": "yongzhou-phz",
    "game": "paohuzi",
    "shown_game": "paohuzi",
    "kind": "individual",
    "sessions_per_round": 1,
    "correction_minutes": 30,
    "entry": "referees",
    "option_min_huxi": "15",
    "option_tun_step": "3",
    "option_di": "1",
    "option_discard_pays": "discarder",
    "option_huang_per_wangba": "5",
    "option_deals_per_match": "9",
    "option_standings": "table_points",
}


def test_an_organiser_creates_a_paohuzi_event_of_individuals_with_its_options(client, director):
    response = client.post("/organiser/new/", PAOHUZI_EVENT)
    assert response.status_code == 302
    event = Event.objects.get(slug="yongzhou-phz")
    assert event.game == "paohuzi" and event.kind == "individual" and event.match_length == 9
    rules = event_rules(event)
    assert rules.deal.di == 1 and rules.deal.discard_pays == "discarder" and rules.event.standings == "table_points"
    console = client.get("/organiser/yongzhou-phz/").content.decode()
    assert "跑胡子 (paohuzi)" in console and "底 1 囤" in console and "放炮胡放炮者独付" in console
    refused = client.post("/organiser/new/", {**PAOHUZI_EVENT, "slug": "phz-pairs", "kind": "pairs"})
    assert refused.status_code == 200 and "跑胡子 只能是个人赛" in refused.content.decode()
    assert not Event.objects.filter(slug="phz-pairs").exists()
    # The players may score their own tables of three (the table link works for every game).
    players = client.post("/organiser/new/", {**PAOHUZI_EVENT, "slug": "phz-players", "entry": "players"})
    assert players.status_code == 302 and Event.objects.get(slug="phz-players").entry == "players"


def test_a_new_shengji_event_offers_forty_deals_a_table_a_round(client, director):
    """A match to pass K from A takes at least seven deals and commonly twenty to forty: a new
    升级 event starts from 40 (docs/games/shengji.md), not 华牌's 16."""
    page = client.get("/organiser/new/", {"game": "shengji"}).content.decode()
    assert re.search(r'name="match_length" value="40"', page)
    assert re.search(r'name="match_length" value="16"', client.get("/organiser/new/").content.decode())


def test_a_shengji_match_of_more_deals_than_a_round_may_hold_is_refused(client, director):
    refused = client.post("/organiser/new/", {**SHENGJI_EVENT, "option_target": "", "option_deals": "1000000"})
    assert refused.status_code == 200 and not Event.objects.filter(slug="sj-pairs").exists()


def test_every_game_is_named_in_english_on_english_pages():
    from django.utils import translation

    from scoring.models import game_choices

    with translation.override("en"):
        names = {game_id: str(label) for game_id, label in game_choices()}
    assert names == {
        "huapai": "Huapai",
        "bengbu-doudizhu": "Bengbu Dou Dizhu",
        "shengji": "Shengji",
        "paohuzi": "Paohuzi",
        "jiaodun": "Jiaodun",  # the conformance suite's fifth game, translated like the others
    }


def test_the_shengji_tie_breaks_name_the_level_difference(client, director):
    page = client.get("/organiser/new/", {"game": "shengji"}).content.decode()
    tiebreaks = page.split('name="tiebreak_1"')[1].split("</select>")[0]
    assert 'value="score_difference">级差<' in tiebreaks and "得分差" not in tiebreaks


def kind_choices(page):
    select = re.search(r'<select name="kind".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="(\w+)"', select)


def test_the_kind_offered_is_the_kind_the_games_law_allows(client, director):
    """A 跑胡子 event showed 类型 双人赛 and was saved as 个人赛: only the allowed kinds are offered,
    after choosing the game as when the page opens with it; 华牌 offers every kind."""
    assert kind_choices(client.get("/organiser/new/", {"game": "paohuzi"}).content.decode()) == ["individual"]
    posted = {"name": "公开赛", "game": "paohuzi", "shown_game": "huapai", "kind": "pairs"}
    switched = client.post("/organiser/new/", posted)
    assert kind_choices(switched.content.decode()) == ["individual"] and not Event.objects.exists()
    assert kind_choices(client.get("/organiser/new/").content.decode()) == ["pairs", "teams", "individual"]


def test_an_option_without_a_default_says_what_empty_means(client, director):
    """升级's 每场副数 has no default: not "默认：None" but what leaving it empty means."""
    page = client.get("/organiser/new/", {"game": "shengji"}).content.decode()
    assert "None" not in page
    assert "留空（默认）：不限副数" in page


def test_the_final_stage_is_offered_only_where_it_works(client):
    """淘汰赛 was offered to a 跑胡子 individual event, whose start was then refused: individuals
    (seated three a table) have no final stage, so the console offers none; pairs keep it."""
    from tests.archives import paohuzi_archive, shengji_archive

    individuals = import_archive(paohuzi_archive())
    pairs = import_archive(shengji_archive())
    client.force_login(make_user("boss", "organiser", individuals))
    page = client.get(f"/organiser/{individuals.slug}/").content.decode()
    assert 'id="stage-form"' not in page and "淘汰赛" not in page
    client.force_login(make_user("chief", "organiser", pairs))
    page = client.get(f"/organiser/{pairs.slug}/").content.decode()
    assert 'id="stage-form"' in page and "淘汰赛" in page


def test_a_game_without_penalty_points_is_not_offered_them_as_a_tie_break(client, director):
    """Issue 43 item 8: 升级's form offered 罚分 as a tie-break (the fourth by default), a figure that
    is always 0 in a game whose law has no penalty points. 华牌's form keeps it."""
    for game, offered in (("shengji", False), ("paohuzi", False), ("huapai", True)):
        page = client.get("/organiser/new/", {"game": game}).content.decode()
        selects = re.findall(r'<select name="tiebreak_\d".*?</select>', page, re.S)
        assert all(('value="penalties"' in select) is offered for select in selects), game
    page = client.get("/organiser/new/", {"game": "shengji"}).content.decode()
    chain = [
        re.search(r'<option value="(\w*)"[^>]*selected', select)
        for select in re.findall(r'<select name="tiebreak_\d".*?</select>', page, re.S)
    ]
    assert [found.group(1) for found in chain if found and found.group(1)] == [
        "match_points",
        "score_difference",
        "head_to_head",
    ]
