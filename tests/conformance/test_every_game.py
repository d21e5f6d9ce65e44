"""The conformance suite: what the site promises for every registered game, asked of each in the
same way (tests/conformance/setting.py builds an event of any game from what the game says of
itself). A game joins it by being registered; the test-only fifth game (tests/conformance/jiaodun/)
passes it with nothing outside its own folder.

The figures compared are the engine's for the same deal: what is checked is that no channel, page
or file changes, loses or doubles them (the engine's own correctness is the law's worked examples',
tests/games/)."""

import io
import json
import re

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.engine.vocabulary import Kind
from scoring.entry.errors import EntryError
from scoring.entry.services import deal_save
from scoring.games.stored import event_rules
from scoring.models import Deal, Entrant, Player, Table
from scoring.web.referee import game_entry
from tests.conformance.setting import BOARDS, alone, build, deals_for, settings_of_every_game, side_codes
from tests.conftest import REPO
from tests.referee_setup import token_header
from tests.table_entry.test_table_api import Table_, error_code

pytestmark = pytest.mark.django_db

SETTINGS = settings_of_every_game()


def by_setting(test):
    return pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.id)(test)


def test_every_registered_game_is_in_the_suite_the_fifth_included():
    assert {setting.game_id for setting in SETTINGS} >= {"huapai", "bengbu-doudizhu", "shengji", "paohuzi", "jiaodun"}


def engine_scores(setting, event, deals):
    """Each deal's seat scores by the game's engine under the event's rules, in playing order; a
    game that carries a state scores each deal at its place in the table's match."""
    from scoring.games.stored import place_deal

    game, rules = setting.game, event_rules(event)
    found = []
    for position, deal in enumerate(deals):
        placed = place_deal(game, rules, dict(deal), [dict(before) for before in deals[:position]])
        found.append(game.score_stored(rules, placed)["scores"])
    return found


def api_url(event, table=1, board=1, suffix=""):
    return f"/api/events/{event.slug}/rounds/1/tables/{table}/boards/{board}{suffix}"


@by_setting
def test_a_referee_enters_through_the_api_and_a_second_confirms(setting, client):
    built = build(setting)
    event = built["event"]
    deals = deals_for(setting.game, BOARDS)
    expected = engine_scores(setting, event, deals)
    for board, deal in enumerate(deals, 1):
        put = client.put(
            api_url(event, board=board),
            data=json.dumps(deal, ensure_ascii=False),
            content_type="application/json",
            **token_header(built["referee1"]),
        )
        assert put.status_code == 201, put.content
        assert {seat: put.json()["scores"][seat] for seat in setting.game.seats} == expected[board - 1]
        confirm = client.post(
            api_url(event, board=board, suffix="/confirm"), HTTP_IF_MATCH="1", **token_header(built["referee2"])
        )
        assert confirm.status_code == 200 and confirm.json()["status"] == "confirmed", confirm.content
    stored = Deal.objects.filter(table=built["table"]).order_by("board")
    assert [{seat: d.scores[seat] for seat in setting.game.seats} for d in stored] == expected


@by_setting
def test_a_table_enters_on_its_link_and_another_side_verifies(setting):
    built = build(setting)
    table = built["table"]
    codes = side_codes(table)
    assert len(codes) >= 2 and set(codes) <= set(setting.game.sides)  # the game's sides, every one seated
    writer, checker = list(codes)[:2]
    phone = Table_(Client(enforce_csrf_checks=True), table)
    (deal,) = deals_for(setting.game, 1)
    first = phone.put(1, {**deal, "code": codes[writer]}, key="c-1")
    assert first.status_code == 201, first.content
    version = first.json()["version"]
    own = phone.verify(1, codes[writer], key="c-2", version=version)
    assert (own.status_code, error_code(own)) == (403, "same_side")
    verified = phone.verify(1, codes[checker], key="c-3", version=version)
    assert verified.status_code == 200 and verified.json()["status"] == "confirmed", verified.content
    state = phone.state().json()
    assert state["boards"][0]["status"] == "confirmed"
    assert set(state["signed_off"]) == set(codes)


@by_setting
def test_a_wrong_code_is_refused_and_writes_nothing(setting):
    built = build(setting)
    phone = Table_(Client(enforce_csrf_checks=True), built["table"])
    (deal,) = deals_for(setting.game, 1)
    refused = phone.put(1, {**deal, "code": "WRONG-CODE"}, key="w-1")
    assert (refused.status_code, error_code(refused)) == (403, "bad_code")
    assert not Deal.objects.filter(table=built["table"]).exists()


@by_setting
def test_a_penalty_is_refused_up_front_where_the_law_has_none(setting):
    built = build(setting)
    (deal,) = deals_for(setting.game, 1)
    if setting.game.takes_penalties:
        pytest.skip("this game's law has penalty points")
    seat = setting.game.seats[0]
    with pytest.raises(EntryError) as refused:
        deal_save(table=built["table"], board=1, deal_json={**deal, "penalties": {seat: -50}}, user=built["referee1"])
    assert refused.value.code == "no_penalties"
    assert not Deal.objects.filter(table=built["table"]).exists()


def official_event(setting):
    """The setting's event with every table's deals entered and the round official."""
    game = setting.game
    deals = {1: deals_for(game, BOARDS, seed=21), 2: deals_for(game, BOARDS, seed=22)}
    built = build(setting, deals_by_table=deals, status="official")
    return built, deals


@by_setting
def test_the_standings_count_every_deal_and_the_bye(setting, client):
    built, deals = official_event(setting)
    event = built["event"]
    response = client.get(f"/events/{event.slug}/standings/")
    assert response.status_code == 200
    page = response.content.decode()
    entrants = Entrant.objects.filter(event=event)
    assert entrants.count() == (2 * len(setting.game.seats) + 1 if setting.kind == Kind.INDIVIDUAL else 5)
    for entrant in entrants:
        assert f">{entrant.code}<" in page, entrant.code
    if setting.kind == Kind.INDIVIDUAL and alone(setting):
        # Each player's total is the sum of the engine's scores at their seat (a bye: 0).
        from scoring.results.standings_json import standings_json

        rows = {row["id"]: row for row in standings_json(event)["rows"]}
        for table_number, table_deals in deals.items():
            table = event.rounds.get(number=1).tables.get(number=table_number)
            seated = {
                seat: getattr(table, f"{name}_id")
                for seat, name in zip("NESW", ("north", "east", "south", "west"), strict=True)
            }
            totals = {seat: 0 for seat in setting.game.seats}
            for scores in engine_scores(setting, event, table_deals):
                for seat in setting.game.seats:
                    totals[seat] += scores[seat]
            for seat in setting.game.seats:
                code = Entrant.objects.get(event=event, memberships__player_id=seated[seat]).code
                assert rows[code]["total_score"] == totals[seat], (code, seat)
        bye = entrants.order_by("-code").first().code
        assert rows[bye]["total_score"] == 0 and rows[bye]["deals"] == 0


PAPERS = (
    "standings.xlsx",
    "results.xlsx",
    "standings.pdf",
    "rounds/1/results.pdf",
    "rounds/1/scoresheets.pdf",
    "rounds/1/travellers.pdf",
    "rounds/1/draw.pdf",
    "rounds/1/table-cards.pdf",
    "cross-table.pdf",
    "cross-table.xlsx",
)
# A cross table sets entrant against entrant; individuals meet several at a table, so an event of
# individuals has none (docs/competition.md): its addresses answer 404 there.
PAIRS_ONLY = ("cross-table.pdf", "cross-table.xlsx")


def _file_text(name, body):
    if name.endswith(".pdf"):
        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    workbook = load_workbook(io.BytesIO(body), read_only=True)
    return "\n".join(
        " ".join(str(cell) for cell in row if cell is not None)
        for sheet in workbook
        for row in sheet.iter_rows(values_only=True)
    )


@by_setting
@pytest.mark.parametrize("name", PAPERS)
def test_every_paper_is_made_and_names_the_players_at_their_seats(setting, name, client):
    built, _deals = official_event(setting)
    event = built["event"]
    client.force_login(built["organiser"])
    response = client.get(f"/events/{event.slug}/{name}")
    if name in PAIRS_ONLY and setting.kind == Kind.INDIVIDUAL:
        assert response.status_code == 404
        return
    assert response.status_code == 200, (name, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = _file_text(name, body)
    names = [entrant.name for entrant in Entrant.objects.filter(event=event)]
    assert any(person in text for person in names), name
    if "N" not in setting.game.seats:
        # A table without North: no paper gives it a column or a line (北, or the pairs' NS / EW).
        assert not re.search(r"(?<![A-Za-z])NS(?![A-Za-z])|北", text), name


@by_setting
def test_the_archive_round_trip_keeps_every_deal_and_figure(setting):
    built, _deals = official_event(setting)
    event = built["event"]
    first = export_archive(event)
    again = import_archive(json.loads(json.dumps(first)), replace=True)
    assert export_archive(again) == first
    assert Deal.objects.filter(table__round__event=again).count() == 2 * BOARDS


def _kept_in_english():
    """The Chinese words the English translation keeps on purpose (a game's terms of art, such as
    跑胡子's 胡息 and 王霸, read as they are said at the table): every run of Han characters in an
    English msgstr, and the language switch's 简体中文."""
    po = (REPO / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    kept = {"简体中文"}
    for text in re.findall(r'^msgstr "(.*)"$', po, re.M):
        kept.update(re.findall(r"[\u4e00-\u9fff]+", text))
    return kept


@by_setting
def test_the_public_pages_in_english_carry_no_chinese_but_names_and_terms_of_art(setting, client):
    built, _deals = official_event(setting)
    event = built["event"]
    names = {entrant.name for entrant in Entrant.objects.filter(event=event)} | {event.name}
    names |= {player.name for player in Player.objects.filter(event=event)}
    for path in ("standings/", "rounds/1/", "rounds/1/boards/1/"):
        with translation.override("en"):
            response = client.get(f"/events/{event.slug}/{path}", HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, path
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", response.content.decode(), flags=re.S)
        for known in names:
            text = text.replace(known, "")
        kept = _kept_in_english()
        han = [word for word in re.findall(r"[\u4e00-\u9fff]+", text) if word not in kept]
        assert han == [], (path, han[:10])


@by_setting
def test_the_chief_arbiter_adjusts_a_result_or_the_game_says_why_not(setting):
    built = build(setting)
    (deal,) = deals_for(setting.game, 1)
    adjusted = {seat: 10 * (index + 1) for index, seat in enumerate(setting.game.seats)}
    body = {**deal, "adjusted": adjusted, "adjusted_reason": "裁判长调整"}
    try:
        saved, created = deal_save(table=built["table"], board=1, deal_json=body, user=built["organiser"])
    except EntryError as refused:
        # A game whose match carries a state has no adjusted score (its points are corrected, or
        # the chief arbiter rules the match): refused in the game's words, nothing stored.
        assert setting.game.carries_state and refused.code == "bad_adjusted"
        assert str(refused.message) and not Deal.objects.filter(table=built["table"]).exists()
        return
    assert created and {seat: saved.scores[seat] for seat in setting.game.seats} == adjusted
    with pytest.raises(EntryError) as referee:
        deal_save(table=built["table"], board=2, deal_json=body, user=built["referee1"])
    assert referee.value.code == "forbidden"


@by_setting
def test_a_board_not_played_is_recorded_in_the_games_seats(setting):
    from scoring.rulings.not_played import board_not_played

    built = build(setting)
    try:
        deal, created = board_not_played(table=built["table"], board=1, user=built["organiser"], reason="时间到，未打")
    except EntryError as refused:
        # A match that carries a state cannot skip a deal (升级): said in words, nothing stored.
        assert setting.game.carries_state, refused.code
        assert not Deal.objects.filter(table=built["table"]).exists()
        return
    assert created
    assert set(setting.game.seats) <= set(deal.scores)
    assert all(deal.scores[seat] == 0 for seat in {"N", "E", "S", "W"} - set(setting.game.seats))


@by_setting
def test_a_dispute_goes_to_the_referees_and_every_side_then_signs_off(setting):
    from scoring.entry.services import deal_confirm

    built = build(setting)
    table = built["table"]
    codes = side_codes(table)
    writer, checker = list(codes)[:2]
    phone = Table_(Client(enforce_csrf_checks=True), table)
    deals = deals_for(setting.game, BOARDS)
    put = phone.put(1, {**deals[0], "code": codes[writer]}, key="d-1")
    assert put.status_code == 201, put.content
    disputed = phone.dispute(1, codes[checker], "分数不对", key="d-2", version=put.json()["version"])
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed", disputed.content
    again = phone.put(1, {**deals[0], "code": codes[writer]}, key="d-3", version=put.json()["version"])
    assert again.status_code in (403, 409), again.content  # players cannot change a disputed board
    # A referee settles it (confirms it as entered, with a reason).
    stored = Deal.objects.get(table=table, board=1)
    deal_confirm(deal=stored, user=built["referee1"], expected_version=stored.version, reason="核对后确认")
    assert Deal.objects.get(pk=stored.pk).status == Deal.Status.CONFIRMED
    for board in range(2, BOARDS + 1):
        entered = phone.put(board, {**deals[board - 1], "code": codes[writer]}, key=f"d-p{board}")
        assert entered.status_code == 201, entered.content
        checked = phone.verify(board, codes[checker], key=f"d-v{board}", version=entered.json()["version"])
        assert checked.status_code == 200, checked.content
    for number, (side, code) in enumerate(codes.items()):
        signed = phone.signoff(code, key=f"d-s{number}")
        assert signed.status_code == 200, (side, signed.content)
    assert all(phone.state().json()["signed_off"].values())


@by_setting
def test_the_board_page_is_one_template_one_script_and_one_form_for_every_game(setting, client):
    """Every game's board takes the one entry path (华牌's card grid is a widget among the fields):
    the same template and script, and the same form, which gives back the deal it was filled
    with. A deal stored at one table, read into the page's values and posted at another, is
    stored there alike."""
    built = build(setting)
    event = built["event"]
    tables = {table.number: table for table in Table.objects.filter(round__event=event)}
    assert len(tables) >= 2
    (deal,) = deals_for(setting.game, 1)
    stored, _created = deal_save(table=tables[1], board=1, deal_json=deal, user=built["referee1"])
    client.force_login(built["referee1"])
    url = f"/referee/{event.slug}/rounds/1/tables/{{table}}/boards/1/"
    page = client.get(url.format(table=1))
    assert page.status_code == 200
    assert page.templates[0].name == "referee/board.html"
    html = page.content.decode()
    assert "js/entry.js" in html and "entry_fields.js" not in html
    posted = client.post(url.format(table=2), game_entry.values_from_deal(event, stored))
    assert posted.status_code == 302, posted.content.decode()[:2000]
    again = Deal.objects.get(table=tables[2], board=1)
    assert (again.game_data, again.scores) == (stored.game_data, stored.scores)
