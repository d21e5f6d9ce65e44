"""The chief arbiter's ruling on a 升级 match that did not finish (a target level nobody passed
when time was called): who may rule and on what, the ruling stored with its reason in the board
history and announced, the standings, pages and papers taking it, the round publishable and the
grids counting the deals the match had; calling time on 升级 records nothing and refuses nothing.

The match worked here by hand from §2.3: 40 from A (NS on 台上, S2: NS up two, to 3), 80 (S3: NS up
one, to 4), 110 (S4: the sides swap, EW on 台上 at A) — NS 4, EW 1 after three deals, the target
(13) far off."""

import io
import subprocess

import pytest
from django.utils import translation
from openpyxl import load_workbook

from scoring.archive.database import import_archive
from scoring.cache.versions import current_version
from scoring.entry.errors import EntryError
from scoring.entry.selectors import deal_preview
from scoring.entry.services import deal_confirm, deal_save
from scoring.events.rulebook import rules_text
from scoring.exports.files import results_xlsx, round_results_pdf
from scoring.models import ClockEntry, Deal, DealHistory, Round, Table
from scoring.results.records import entrant_record
from scoring.results.round_results import round_results
from scoring.results.standings import event_standings
from scoring.rounds.publication import changes_since_publication, publication_checklist, round_publish
from scoring.rulings.clock import clock_act
from scoring.rulings.match_ruling import rule_match
from scoring.table_entry.grid import table_rows
from scoring.table_entry.services import boards_needed
from tests.archives import shengji_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

TO_THE_TARGET = {"start_level": 1, "target": 13, "deals": None}
MATCH = [{"declarer": "NS", "points": 40}, {"points": 80}, {"points": 110}]


@pytest.fixture
def hall():
    """A 升级 event of two tables, 40 deals at most a round, played to passing K; table 1 has
    played MATCH (confirmed), table 2 one deal (NS up two)."""
    event = import_archive(shengji_archive(table_one=[], table_two=[], options=TO_THE_TARGET, boards=40))
    event.extra = {**event.extra, "round_minutes": 90}
    event.save(update_fields=["extra"])
    referee, second = make_user("referee1", "referee", event), make_user("referee2", "referee", event)
    chief = make_user("chief", "organiser", event)
    tables = {t.number: t for t in Table.objects.select_related("round__event").filter(round__event=event)}
    for number, deals in ((1, MATCH), (2, MATCH[:1])):
        for board, deal in enumerate(deals, start=1):
            saved, _created = deal_save(table=tables[number], board=board, deal_json=deal, user=referee)
            deal_confirm(deal=saved, user=second, expected_version=saved.version)
    return event, tables, referee, chief


def fresh(table):
    return Table.objects.select_related("round__event").get(pk=table.pk)


def test_only_the_chief_arbiter_rules_with_a_reason_on_a_match_not_over(hall):
    _event, tables, referee, chief = hall
    with pytest.raises(EntryError) as forbidden:
        rule_match(table=tables[1], user=referee, outcome="as_it_stands", reason="时间到")
    assert forbidden.value.code == "forbidden"
    for outcome, reason in (("as_it_stands", "  "), ("nobody", "时间到"), ("N", "时间到")):
        with pytest.raises(EntryError) as bad:
            rule_match(table=tables[1], user=chief, outcome=outcome, reason=reason)
        assert bad.value.code == "bad_ruling"
    # A deal not confirmed could still change the match: confirm first.
    _draft, _ = deal_save(table=tables[2], board=2, deal_json={"points": 40}, user=referee)
    with pytest.raises(EntryError) as unconfirmed:
        rule_match(table=tables[2], user=chief, outcome="draw", reason="时间到")
    assert unconfirmed.value.code == "unconfirmed" and "2" in unconfirmed.value.message
    assert fresh(tables[1]).match_ruling is None and fresh(tables[2]).match_ruling is None


def test_a_match_that_ended_by_itself_is_not_ruled_on():
    event = import_archive(shengji_archive(options={"start_level": 1, "target": None, "deals": 4}))
    chief = make_user("chief", "organiser", event)
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    with pytest.raises(EntryError) as finished:
        rule_match(table=table, user=chief, outcome="draw", reason="时间到")
    assert finished.value.code == "match_finished"


def test_the_ruling_is_stored_in_the_history_and_announced(hall):
    event, tables, _referee, chief = hall
    before = current_version(event, public=False)
    ruling = rule_match(table=tables[1], user=chief, outcome="as_it_stands", reason="时间到，按规程第 5 条")
    assert ruling == {"outcome": "as_it_stands", "reason": "时间到，按规程第 5 条", "deals": 3}
    assert fresh(tables[1]).match_ruling == ruling
    assert current_version(event, public=False) != before  # the caches' one announcement
    row = DealHistory.objects.filter(table=tables[1]).order_by("-id").first()
    assert (row.board, row.action, row.user) == (3, DealHistory.Action.RULING, chief)
    assert row.before["match_ruling"] is None and row.after["match_ruling"] == ruling
    assert "按当时级数 南北(NS) 胜" in row.reason and "时间到，按规程第 5 条" in row.reason


@pytest.mark.parametrize(
    ("outcome", "ns_points", "words"),
    [
        ("as_it_stands", 2, "按当时级数 南北(NS) 胜"),  # NS at 4 against A: the levels decide
        ("draw", 1, "判为平局"),
        ("EW", 0, "按赛事规程判 东西(EW) 胜"),  # the regulations may name the lower side
    ],
)
def test_the_standings_and_the_round_page_take_the_ruled_outcome(hall, outcome, ns_points, words):
    event, tables, _referee, chief = hall
    rule_match(table=tables[1], user=chief, outcome=outcome, reason="时间到")
    rows = {row.id: row for row in event_standings(event)}
    assert rows["A"].match_points == ns_points and rows["B"].match_points == 2 - ns_points
    assert (rows["A"].score_difference, rows["B"].score_difference) == (3, -3)  # the levels still count
    rnd = Round.objects.get(event=event)
    (row, _other) = round_results(event, rnd)["tables"]
    assert (row["ns_points"], row["ew_points"]) == (ns_points, 2 - ns_points)
    assert words in row["match_words"] and "理由：时间到" in row["match_words"]


def test_once_ruled_the_round_publishes_and_the_remaining_deals_are_not_expected(hall):
    event, tables, referee, chief = hall
    rnd = Round.objects.get(event=event)
    blocking = [str(text) for text in publication_checklist(rnd)["blocking"]]
    assert any("1号桌比赛未结束" in text and "裁判长裁定" in text for text in blocking)
    assert not any("缺少第" in text for text in blocking)  # not "deals 4–40 missing"
    assert table_rows(rnd)[tables[1].pk]["boards"] == 4  # the deals played and the next, not 40
    rule_match(table=tables[1], user=chief, outcome="as_it_stands", reason="时间到")
    rule_match(table=tables[2], user=chief, outcome="draw", reason="时间到，规程：未完成按平局")
    assert publication_checklist(rnd)["blocking"] == []
    rows = table_rows(rnd)
    # The referees' grid, its "still to confirm" count and the phones: the deals the match had.
    assert (rows[tables[1].pk]["boards"], rows[tables[1].pk]["todo"], len(rows[tables[1].pk]["cells"])) == (3, 0, 3)
    assert (rows[tables[2].pk]["boards"], rows[tables[2].pk]["todo"]) == (1, 0)
    assert boards_needed(fresh(tables[1])) == 3
    # A deal after the ruling is refused in words that say 副.
    with pytest.raises(EntryError) as after:
        deal_save(table=fresh(tables[1]), board=4, deal_json={"points": 40}, user=referee)
    assert after.value.code == "match_ruled" and "第 4 副" in after.value.message
    round_publish(rnd, user=chief)
    record = entrant_record(event, "A")
    (match,) = record["matches"]
    assert match["points"] == 2 and "按当时级数 南北(NS) 胜" in match["match_words"]


def test_calling_time_on_a_shengji_round_records_nothing_and_refuses_nothing(hall):
    event, _tables, _referee, chief = hall
    rnd = Round.objects.get(event=event)
    clock_act(rnd=rnd, user=chief, action="start")
    _clock, recorded = clock_act(rnd=rnd, user=chief, action="call_time", finish_in_play=False)
    assert recorded == 0 and ClockEntry.objects.filter(round=rnd, action="call_time").exists()
    assert Deal.objects.filter(table__round=rnd).count() == 4  # the deals played, nothing invented


def test_the_chief_arbiter_rules_from_the_rounds_console(client, hall):
    event, tables, referee, chief = hall
    console = f"/organiser/{event.slug}/rounds/1/"
    client.force_login(chief)
    page = client.get(console).content.decode()
    assert 'id="match-rulings"' in page and "match-ruling" in page
    client.force_login(referee)
    assert client.post(console + "tables/1/match-ruling/", {"outcome": "draw", "reason": "时间到"}).status_code == 403
    client.force_login(chief)
    answer = client.post(console + "tables/1/match-ruling/", {"outcome": "as_it_stands", "reason": "时间到"})
    assert answer.status_code == 302 and fresh(tables[1]).match_ruling["outcome"] == "as_it_stands"
    client.post(console + "tables/2/match-ruling/", {"outcome": "draw", "reason": ""})  # refused: no reason
    assert fresh(tables[2]).match_ruling is None
    page = client.get(console).content.decode()
    assert "裁判长裁定：按当时级数 南北(NS) 胜（理由：时间到）" in page


def test_the_round_results_paper_says_how_the_match_was_ruled(hall, tmp_path):
    event, tables, _referee, chief = hall
    rule_match(table=tables[1], user=chief, outcome="EW", reason="规程第5条")
    out = tmp_path / "round.pdf"
    with out.open("wb") as paper:
        round_results_pdf(event, Round.objects.get(event=event)).write(paper)
    text = "".join(
        subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout.split()
    )
    assert "裁判长裁定：按赛事规程判东西(EW)胜（理由：规程第5条）" in text


def test_the_results_workbook_states_the_ruling_after_the_tables_deals(hall):
    event, tables, _referee, chief = hall
    rule_match(table=tables[1], user=chief, outcome="draw", reason="规程第5条")
    out = io.BytesIO()
    results_xlsx(event, False).write(out)
    rows = [row for row in load_workbook(io.BytesIO(out.getvalue())).worksheets[0].iter_rows(values_only=True)]
    ruled = [row for row in rows if row[2] == "裁定"]
    assert len(ruled) == 1 and ruled[0][:2] == (1, 1)
    assert any("裁判长裁定：判为平局（理由：规程第5条）" in str(cell) for cell in ruled[0])
    assert rows.index(ruled[0]) == 4  # after the header and table 1's three deals


def test_the_results_workbook_in_english_names_the_ruling_row_in_english(hall):
    """Issue 43 (its acceptance test): the row after a ruled table's deals said 裁定 in English too."""
    event, tables, _referee, chief = hall
    rule_match(table=tables[1], user=chief, outcome="draw", reason="rule 5")
    out = io.BytesIO()
    with translation.override("en"):
        results_xlsx(event, False).write(out)
    rows = [row for row in load_workbook(io.BytesIO(out.getvalue())).worksheets[0].iter_rows(values_only=True)]
    (ruled,) = [row for row in rows if row[2] == "Ruling"]
    assert not any("裁" in str(cell) for cell in ruled), ruled
    assert any("chief arbiter" in str(cell).lower() and "rule 5" in str(cell) for cell in ruled), ruled


def test_a_ruling_changed_after_publication_is_on_the_public_list_of_changes(client, hall):
    event, tables, _referee, chief = hall
    rnd = Round.objects.get(event=event)
    rule_match(table=tables[1], user=chief, outcome="as_it_stands", reason="时间到")
    rule_match(table=tables[2], user=chief, outcome="draw", reason="时间到")
    round_publish(rnd, user=chief)
    public = current_version(event, public=True)
    rule_match(table=tables[1], user=chief, outcome="draw", reason="申诉委员会：按规程第5条判平局")
    assert current_version(event, public=True) != public  # a published result moved: the public pages follow
    (change,) = changes_since_publication(event)
    assert change.action == DealHistory.Action.RULING and change.before["match_ruling"]["outcome"] == "as_it_stands"
    assert "判为平局" in change.reason and "规程第5条" in change.reason
    assert {row.id: row.match_points for row in event_standings(event)}["A"] == 1
    page = client.get(f"/events/{event.slug}/changes/")
    assert page.status_code == 200 and "规程第5条" in page.content.decode()
    round_page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "裁判长裁定：判为平局（理由：申诉委员会：按规程第5条判平局）" in round_page


def test_the_entry_page_and_the_rules_in_force_say_the_chief_arbiter_rules(hall):
    event, tables, _referee, chief = hall
    assert "时间到未结束由裁判长裁定" in rules_text(event)
    rule_match(table=tables[1], user=chief, outcome="as_it_stands", reason="时间到")
    lines = deal_preview(fresh(tables[1]), 3, {"points": 110})["match"]
    assert lines[-1].endswith("裁判长裁定：按当时级数 南北(NS) 胜（理由：时间到）")
