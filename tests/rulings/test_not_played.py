"""Boards not played (issue 23): recorded by a referee or as a call's outcome, scored under the
event's rule (no score, the other tables' average, the chief arbiter's adjusted score), in the
history and the standings, replaced later through the normal correction path."""

import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError
from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.events.setup import RESULT_FIELDS
from scoring.models import Deal, DealHistory, Event, Irregularity, Table
from scoring.results.penalties import penalty_list
from scoring.results.standings import event_standings
from scoring.rounds.publication import publication_checklist
from scoring.rulings.calls import call_open, call_rule
from scoring.rulings.not_played import board_not_played, not_played_text
from scoring.table_entry.services import table_deal_put
from scoring.web.organiser.event_form import EventForm
from tests.archives import EXAMPLES, deal, pairs_archive
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db
T1 = EXAMPLES["T1"]["expected"]["scores"]
T2 = EXAMPLES["T2"]["expected"]["scores"]


def set_rule(event, rule):
    event.extra = {**event.extra, "not_played": rule}
    event.save()


def table_of(event, number, round_number=3):
    return Table.objects.select_related("round__event").get(
        round__event=event, round__number=round_number, number=number
    )


def test_the_default_rule_scores_nothing_confirmed_at_once_with_the_ruling_in_the_history(event, people):
    table = table_of(event, 1)
    deal_, created = board_not_played(table=table, board=1, user=people["referee1"], reason="NS 迟到，未能开始")
    assert created and deal_.status == "confirmed" and deal_.confirmed_by == people["referee1"]
    assert deal_.scores == dict.fromkeys("NESW", 0) and deal_.adjusted == dict.fromkeys("NESW", 0)
    assert deal_.game_data["captured"] == {seat: [] for seat in "NESW"}
    assert deal_.extra["not_played"] == {"rule": "zero", "reason": "NS 迟到，未能开始"}
    assert str(not_played_text(deal_)) == "未打：无成绩（双方 0 分）"
    history = DealHistory.objects.get(table=table, board=1)
    assert history.action == "ruling" and history.reason == "NS 迟到，未能开始"
    assert history.after["not_played"]["rule"] == "zero"
    with pytest.raises(EntryError) as refused:
        board_not_played(table=table, board=2, user=people["referee1"], reason=" ")
    assert refused.value.code == "reason_required"
    with pytest.raises(EntryError) as refused:
        board_not_played(table=table, board=2, user=people["outsider"], reason="x")
    assert refused.value.code == "forbidden"


def test_a_penalty_ruled_on_the_board_is_added_to_its_not_played_score(event, people):
    table = table_of(event, 1)
    call = call_open(table=table, user=people["referee1"], kind="conduct", board=4, seats="E")
    call_rule(call=call, user=people["referee1"], outcome="penalty", ruling="不当言语", penalty_seat="E", penalty=-30)
    deal_, _ = board_not_played(table=table, board=4, user=people["referee1"], reason="未开始")
    assert deal_.scores == {"N": 0, "E": -30, "S": 0, "W": 0} and deal_.ew_penalty == -30
    assert Irregularity.objects.get(deal=deal_).call == call


def in_play_event(tables):
    """A pairs event whose round 1 is in play at `tables` tables; board 1 entered (T1 at odd
    tables with a penalty of −20 on N, T2 at even ones) everywhere but table 1."""
    codes = [f"P{i}" for i in range(1, 2 * tables + 1)]
    matches = [
        {
            "table": t,
            "ns": codes[2 * t - 2],
            "ew": codes[2 * t - 1],
            "deals": [] if t == 1 else [deal("T1", 1, penalties={"N": -20}) if t % 2 else deal("T2", 1)],
        }
        for t in range(1, tables + 1)
    ]
    archive = pairs_archive(codes, [{"number": 1, "status": "in_play", "matches": matches}], slug="np", length=2)
    return import_archive(archive)


def test_the_average_rule_takes_the_other_tables_side_scores_without_their_penalties(people):
    event = in_play_event(4)  # tables 2 and 4 played T2, table 3 T1 (with a penalty, left out)
    set_rule(event, "average")
    referee = make_user("np-referee", "referee", event)
    table = table_of(event, 1, round_number=1)
    deal_, _ = board_not_played(table=table, board=1, user=referee, reason="时间到")
    expected_ns = (2 * (T2["N"] + T2["S"]) + (T1["N"] + T1["S"])) / 3
    assert deal_.ns_score == round(expected_ns) or abs(deal_.ns_score - expected_ns) <= 0.5
    for seat in "NESW":
        assert abs(deal_.scores[seat] - (2 * T2[seat] + T1[seat]) / 3) < 1
    assert deal_.ns_score == deal_.scores["N"] + deal_.scores["S"]
    assert deal_.extra["not_played"]["tables"] == 3
    assert str(not_played_text(deal_)) == "未打：按其他 3 桌的平均分"


def test_the_average_falls_back_to_zero_with_a_visible_note_when_no_other_table_has_the_board(event, people):
    set_rule(event, "average")
    deal_, _ = board_not_played(table=table_of(event, 1), board=5, user=people["referee1"], reason="牌数错误")
    assert deal_.scores == dict.fromkeys("NESW", 0)
    assert deal_.extra["not_played"] == {"rule": "average", "reason": "牌数错误", "tables": 0}
    assert str(not_played_text(deal_)) == "未打：其他桌都没有这一副的成绩，按 0 分"


def test_an_average_that_has_gone_stale_is_named_before_publication_and_recorded_again(event, people):
    set_rule(event, "average")
    one, two = table_of(event, 1), table_of(event, 2)
    first, _ = board_not_played(table=one, board=1, user=people["referee1"], reason="未开始")
    played, _ = deal_save(table=two, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=played, user=people["referee2"], expected_version=played.version)
    warnings = [str(w) for w in publication_checklist(one.round)["warnings"]]
    assert any("1号桌第 1 副未打，按 0 桌的平均分计算，现在有 1 桌" in w for w in warnings)
    again, created = board_not_played(
        table=one, board=1, user=people["referee2"], reason="重算平均分", expected_version=first.version
    )
    assert not created and again.version == first.version + 1
    assert again.scores == T1 and again.extra["not_played"]["tables"] == 1


def test_the_adjusted_rule_waits_for_the_chief_arbiter_and_cannot_be_confirmed_before(event, people):
    set_rule(event, "adjusted")
    table = table_of(event, 1)
    deal_, _ = board_not_played(table=table, board=2, user=people["referee1"], reason="NS 未到")
    assert deal_.status == "draft" and deal_.extra["not_played"]["awaiting"] is True
    assert str(not_played_text(deal_)) == "未打：等裁判长给调整分"
    with pytest.raises(EntryError) as refused:
        deal_confirm(deal=deal_, user=people["referee2"], expected_version=deal_.version)
    assert refused.value.code == "awaiting_adjusted"
    blocking = [str(b) for b in publication_checklist(table.round)["blocking"]]
    assert "1号桌第 2 副未打：等裁判长给调整分" in blocking
    given = {"N": 30, "E": -30, "S": 30, "W": -30}
    adjusted, _ = deal_save(
        table=table,
        board=2,
        deal_json={"captured": {}, "adjusted": given, "adjusted_reason": "NS 未到，按 EW 责任"},
        user=people["organiser"],
        expected_version=deal_.version,
    )
    assert adjusted.scores == given and adjusted.extra["not_played"]["rule"] == "adjusted"
    assert "awaiting" not in adjusted.extra["not_played"]
    assert str(not_played_text(adjusted)) == "未打：裁判长的调整分"
    confirmed = deal_confirm(deal=adjusted, user=people["referee2"], expected_version=adjusted.version)
    assert confirmed.status == "confirmed"


def test_a_result_that_arrives_later_replaces_the_record_through_the_normal_correction_path(event, people):
    table = table_of(event, 1)
    record, _ = board_not_played(table=table, board=3, user=people["referee1"], reason="以为没打")
    with pytest.raises(EntryError) as refused:  # a change needs the version, as always
        deal_save(table=table, board=3, deal_json=example_deal("T1"), user=people["referee2"])
    assert refused.value.code == "version_required"
    played, created = deal_save(
        table=table,
        board=3,
        deal_json=example_deal("T1"),
        user=people["referee2"],
        expected_version=record.version,
        reason="实际打了，补录",
    )
    assert not created and played.scores == T1 and played.status == "draft"
    assert "not_played" not in Deal.objects.get(pk=played.pk).extra
    assert not_played_text(played) is None
    actions = list(DealHistory.objects.filter(table=table, board=3).values_list("action", flat=True))
    assert actions == ["ruling", "change"]


def test_the_players_cannot_replace_a_not_played_record_through_their_link(event, people):
    event.entry = Event.Entry.PLAYERS
    set_rule(event, "adjusted")  # a draft, which players could otherwise replace
    table = table_of(event, 1)
    record, _ = board_not_played(table=table, board=1, user=people["referee1"], reason="未开始")
    body = {**example_deal("T1"), "code": table.ns_entrant.access_code}
    with pytest.raises(EntryError) as refused:
        table_deal_put(table, 1, body, expected_version=record.version)
    assert refused.value.code == "not_played"


def test_a_wrong_card_count_ruled_not_played_records_the_board_and_the_public_sees_it(event, people):
    set_rule(event, "zero")
    table = table_of(event, 2)
    call = call_open(table=table, user=people["referee1"], kind="wrong_card_count", board=6, seats="S", facts="S 12 张")
    with pytest.raises(EntryError) as refused:
        no_board = call_open(table=table, user=people["referee1"], kind="wrong_card_count", seats="S")
        call_rule(call=no_board, user=people["referee1"], outcome="not_played", ruling="x")
    assert refused.value.code == "bad_board"
    claim = call_open(table=table, user=people["referee1"], kind="claim", board=6, seats="N")
    with pytest.raises(EntryError) as refused:
        call_rule(call=claim, user=people["referee1"], outcome="not_played", ruling="x")
    assert refused.value.code == "bad_outcome"
    call_rule(call=call, user=people["referee1"], outcome="not_played", ruling="其他人不同意抽牌，已无时间重新发牌")
    deal_ = Deal.objects.get(table=table, board=6)
    assert deal_.status == "confirmed" and deal_.extra["not_played"]["rule"] == "zero"
    assert "其他人不同意抽牌" in deal_.extra["not_played"]["reason"]
    table.round.status = "provisional"
    table.round.save()
    rows = [row for row in penalty_list(event) if row["board"] == 6]
    assert any(row["outcome"] == "这一副未打" for row in rows)
    assert any(str(row.get("not_played", "")) == "未打：无成绩（双方 0 分）" for row in rows)


def test_a_not_played_board_counts_in_the_standings_under_its_rule(event, people):
    set_rule(event, "average")
    one, two = table_of(event, 1), table_of(event, 2)
    for board in range(1, 17):
        played, _ = deal_save(table=two, board=board, deal_json=example_deal("T2"), user=people["referee1"])
        deal_confirm(deal=played, user=people["referee2"], expected_version=played.version)
    for board in range(1, 17):
        board_not_played(table=one, board=board, user=people["referee1"], reason="未开始")
    rows = {row.id: row for row in event_standings(event)}
    ns = one.ns_entrant.code
    before = {"A": 0, "B": 0, "C": 0, "D": 0}
    before[ns] = next(r for r in event_standings(event, after_round=2) if r.id == ns).total_score
    assert rows[ns].total_score == before[ns] + 16 * (T2["N"] + T2["S"])


def test_the_rule_the_clock_and_the_marks_travel_in_an_archive_and_bad_ones_are_refused(event, people):
    event.extra = {**event.extra, "not_played": "average", "round_minutes": 90, "late_penalty": -50}
    event.save()
    board_not_played(table=table_of(event, 1), board=2, user=people["referee1"], reason="未开始")
    archive = export_archive(event)
    assert (archive["event"]["not_played"], archive["event"]["round_minutes"]) == ("average", 90)
    exported = next(
        d
        for m in next(r for r in archive["rounds"] if r["number"] == 3)["matches"]
        if m.get("table") == 1
        for d in m["deals"]
    )
    assert exported["not_played"] == {"rule": "average", "reason": "未开始", "tables": 0}
    copy = import_archive({**archive, "event": {**archive["event"], "slug": "copy"}})
    assert copy.extra["not_played"] == "average" and copy.extra["late_penalty"] == -50
    again = Deal.objects.get(table__round__event=copy, table__round__number=3, table__number=1, board=2)
    assert again.extra["not_played"]["rule"] == "average" and again.scores == dict.fromkeys("NESW", 0)
    for key, value in (("not_played", "sometimes"), ("round_minutes", 601), ("late_penalty", 50)):
        with pytest.raises(ArchiveError):
            import_archive({**archive, "event": {**archive["event"], "slug": "bad", key: value}})
    played = deal("T1", 2, adjusted=dict.fromkeys("NESW", 0), not_played={"rule": "zero"})
    bad = copy_with_deal(archive, played)
    with pytest.raises(ArchiveError) as refused:
        import_archive(bad)
    assert "未打的一副没有分牌" in refused.value.message


def copy_with_deal(archive, replacement):
    changed = json.loads(json.dumps(archive))
    changed["event"]["slug"] = "bad-deal"
    for rnd in changed["rounds"]:
        for match in rnd["matches"]:
            if rnd["number"] == 3 and match.get("table") == 1:
                match["deals"] = [replacement]
    return changed


def test_the_organiser_sets_the_rule_and_the_clock_on_the_event_form(client, event, people):
    client.force_login(people["organiser"])
    page = client.get("/organiser/t-pairs/edit/").content.decode()
    assert 'name="not_played"' in page and 'name="round_minutes"' in page
    form = EventForm(instance=Event.objects.get(pk=event.pk), frozen=RESULT_FIELDS)
    data = {name: field.value() for name, field in ((n, form[n]) for n in form.fields) if field.value() is not None}
    data.update(not_played="adjusted", round_minutes="75", board_minutes="", late_penalty="－40")
    response = client.post("/organiser/t-pairs/edit/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert {k: event.extra.get(k) for k in ("not_played", "round_minutes", "board_minutes", "late_penalty")} == {
        "not_played": "adjusted",
        "round_minutes": 75,
        "board_minutes": None,
        "late_penalty": -40,
    }
    data.update(not_played="zero", round_minutes="0", late_penalty="")
    client.post("/organiser/t-pairs/edit/", data)
    event.refresh_from_db()
    assert not {"not_played", "round_minutes", "late_penalty"} & set(event.extra)
    data.update(round_minutes="601")
    assert client.post("/organiser/t-pairs/edit/", data).status_code == 200  # refused, the form again


def test_a_board_of_another_game_is_recorded_not_played_with_no_score():
    """The not-played rule belongs to the competition, not to 华牌: a 蚌埠斗地主 board not played
    (the default rule: no score) is a stored deal of that game, every seat 0, confirmed."""
    from scoring.archive.database import import_archive
    from scoring.rulings.not_played import board_not_played
    from tests.archives import doudizhu_archive
    from tests.referee_setup import make_user

    event = import_archive(doudizhu_archive(slug="t-ddz-np", tables={1: ("DDZ14",), 2: ()}))
    table = Table.objects.get(round__event=event, number=2)
    referee = make_user("ddz-ref", "referee", event)
    deal, created = board_not_played(table=table, board=1, user=referee, reason="牌数错误，不同意抽牌")
    assert created and deal.status == Deal.Status.CONFIRMED
    assert (deal.score_n, deal.score_e, deal.score_s, deal.score_w) == (0, 0, 0, 0)
    assert "captured" not in deal.game_data and deal.penalties == {}
