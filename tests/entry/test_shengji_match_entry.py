"""A 升级 match at a table entered through the services every door uses, one deal at a time:
each deal is placed in the table's match by the engine (the state the match reached, never
typed), agrees with the match function over the whole list, a deal after the match ended is
refused, an earlier change carries through the later deals (or is refused whole when a later
deal can no longer stand), and the standings take the table's winner and levels from the match.

Expected values are the law's worked examples (shared/rules/games/examples.json, read at test
time: SJ01, SJM2, SJM3, SJM4) or worked here from §2.3 S2–S5 by hand."""

import pytest

from scoring.archive.database import import_archive
from scoring.entry.errors import EntryError
from scoring.entry.selectors import deal_preview
from scoring.entry.services import RETHREADED, deal_confirm, deal_save
from scoring.games.shengji import shengji_match
from scoring.models import Deal, DealHistory, Table
from scoring.results.standings import event_standings
from tests.archives import SHENGJI, game_examples, shengji_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(SHENGJI)


def entered(deal):
    """A worked example's deal as a referee enters it: no "game", no state (the match has it)."""
    return {key: value for key, value in deal.items() if key not in ("game", "state")}


def setting(options=None):
    event = import_archive(shengji_archive(table_one=[], table_two=[], options=options))
    table = Table.objects.select_related("round__event").get(round__event=event, number=1)
    return event, table, make_user("referee1", "referee", event), make_user("referee2", "referee", event)


def stored_match(table, options):
    return shengji_match([d.game_data for d in Deal.objects.filter(table=table).order_by("board")], options)


def test_a_whole_match_entered_deal_by_deal_agrees_with_the_match_function():
    options = EXAMPLES["SJM2"]["match_options"]
    event, table, referee, second = setting({"start_level": 1, **options})
    deals = EXAMPLES["SJM2"]["match"]
    for board, deal in enumerate(deals, start=1):
        saved, created = deal_save(table=table, board=board, deal_json=entered(deal), user=referee)
        assert created
        # After each deal the table's stored deals are the match the engine plays from the list.
        assert stored_match(table, options) == shengji_match(deals[:board], options)
        deal_confirm(deal=saved, user=second, expected_version=1)
    first = Deal.objects.get(table=table, board=1)
    assert first.scores == EXAMPLES["SJ01"]["expected"]["scores"]  # 40 from A: NS up two
    expected = EXAMPLES["SJM2"]["expected"]
    result = stored_match(table, options)
    assert result["state"] == expected["state"] and result["winner"] == expected["winner"] and result["finished"]
    # Board 3 (110: S4) was played from NS on 台上 at 4 (S2 then S3 from A): the state it carries.
    assert Deal.objects.get(table=table, board=3).game_data["state"] == {"declarer": "NS", "levels": {"NS": 4, "EW": 1}}
    standings = {row.id: row for row in event_standings(event)}
    # NS (A) win 2–0 on 场分; the level difference, the first tie-break, is 5 − 1 = 4.
    assert (standings["A"].match_points, standings["A"].score_difference) == (2, 4)
    assert (standings["B"].match_points, standings["B"].score_difference) == (0, -4)


def test_a_later_deal_needs_the_earlier_ones_and_ignores_a_typed_state():
    _event, table, referee, _second = setting()
    with pytest.raises(EntryError) as missing:
        deal_save(table=table, board=2, deal_json={"points": 80}, user=referee)
    assert missing.value.code == "earlier_missing"
    deal_save(table=table, board=1, deal_json={"declarer": "NS", "points": 40}, user=referee)
    # A state typed that is not the one the match reached is the law's state_mismatch (M1).
    wrong = {"points": 80, "state": {"declarer": "EW", "levels": {"NS": 1, "EW": 1}}}
    with pytest.raises(EntryError) as mismatch:
        deal_save(table=table, board=2, deal_json=wrong, user=referee)
    assert mismatch.value.code == "state_mismatch"
    # A 台上 that is not the state's is the law's declarer_mismatch (V2).
    with pytest.raises(EntryError) as declarer:
        deal_save(table=table, board=2, deal_json={"declarer": "EW", "points": 80}, user=referee)
    assert declarer.value.code == "declarer_mismatch"


def test_a_deal_after_the_match_ended_is_refused():
    # SJM3/SJM4: from Q, EW defend with 20 points: Q + 2 = 14, past K, the match is over.
    options = EXAMPLES["SJM4"]["match_options"]
    _event, table, referee, _second = setting({"target": 13, "deals": None, **options})
    first, after = EXAMPLES["SJM4"]["match"]
    deal_save(table=table, board=1, deal_json=entered(first), user=referee)
    stored = Deal.objects.get(table=table, board=1)
    assert stored.game_data == {"declarer": "EW", "points": 20, "options": {"start_level": 12}}
    with pytest.raises(EntryError) as over:
        deal_save(table=table, board=2, deal_json=entered(after), user=referee)
    assert over.value.code == EXAMPLES["SJM4"]["expected"]["error"]["code"]


def test_an_earlier_change_carries_through_the_later_deals():
    _event, table, referee, second = setting()
    for board, points in enumerate((40, 80, 110, 135), start=1):
        deal_json = {"declarer": "NS", "points": points} if board == 1 else {"points": points}
        saved, _ = deal_save(table=table, board=board, deal_json=deal_json, user=referee)
        deal_confirm(deal=saved, user=second, expected_version=1)
    # Board 2 becomes 130 (S5): EW go up to 台上 at 2. Board 3 (110, S4) then gives 台上 back to
    # NS at 3, and board 4 (135, S5) to EW, up one to 3: NS 3, EW 3.
    deal_save(table=table, board=2, deal_json={"points": 130}, user=referee, expected_version=2)
    third, fourth = Deal.objects.get(table=table, board=3), Deal.objects.get(table=table, board=4)
    assert third.game_data["state"] == {"declarer": "EW", "levels": {"NS": 3, "EW": 2}}
    assert fourth.game_data["state"] == {"declarer": "NS", "levels": {"NS": 3, "EW": 2}}
    assert fourth.scores == {"N": 0, "E": 1, "S": 0, "W": 1}
    assert fourth.status == Deal.Status.CONFIRMED  # its own entry (the points) did not change
    assert DealHistory.objects.filter(deal=fourth, reason=RETHREADED).count() == 1
    assert stored_match(table, {"target": None, "deals": 4})["state"]["levels"] == {"NS": 3, "EW": 3}


def test_a_change_that_a_later_deal_cannot_survive_is_refused_whole():
    # From Q (12), target K: EW 60 (S3: 13, not past K), then 60 (S3: 14, past K: EW win).
    _event, table, referee, _second = setting({"start_level": 12, "target": 13, "deals": None})
    deal_save(table=table, board=1, deal_json={"declarer": "EW", "points": 60}, user=referee)
    deal_save(table=table, board=2, deal_json={"points": 60}, user=referee)
    # 20 on board 1 (S2) takes EW to 14 at once: board 2 would be after the match's end.
    with pytest.raises(EntryError) as refused:
        deal_save(table=table, board=1, deal_json={"declarer": "EW", "points": 20}, user=referee, expected_version=1)
    assert refused.value.code == "later_deal_refused"
    assert Deal.objects.get(table=table, board=1).game_data["points"] == 60  # nothing changed


def test_the_preview_shows_the_level_state_before_and_after_and_the_progress():
    _event, table, referee, _second = setting()
    deal_save(table=table, board=1, deal_json={"declarer": "NS", "points": 40}, user=referee)
    preview = deal_preview(table, 2, {"points": 80})
    assert preview["scores"] == {"N": 1, "E": 0, "S": 1, "W": 0}  # S3: 台上 NS up one
    before, after, progress = preview["match"]
    assert "NS 打3" in before and "EW 打A" in before
    assert "NS 打4" in after and "2" in progress
    refused = deal_preview(table, 2, {"points": 47})
    assert refused["scores"] is None and [p["field"] for p in refused["problems"]] == ["points"]
    assert refused["problems"][0]["code"] == "bad_points"


def test_an_adjusted_score_is_refused_the_points_are_corrected():
    event, table, _referee, _second = setting()
    organiser = make_user("organiser", "organiser", event)
    with pytest.raises(EntryError) as refused:
        deal_save(
            table=table,
            board=1,
            deal_json={"declarer": "NS", "points": 40, "adjusted": {"N": 1, "E": 0, "S": 1, "W": 0}},
            user=organiser,
        )
    assert refused.value.code == "bad_adjusted"


def test_a_board_cannot_be_recorded_not_played_a_match_skips_no_deal():
    from scoring.rulings.not_played import board_not_played

    _event, table, referee, _second = setting()
    with pytest.raises(EntryError) as refused:
        board_not_played(table=table, board=1, user=referee, reason="没打")
    assert refused.value.code == "bad_adjusted"  # 升级 has no adjusted score: the points are corrected
    assert not Deal.objects.filter(table=table).exists()


def test_a_deal_placed_while_an_earlier_one_is_corrected_takes_the_state_the_match_reaches(monkeypatch):
    """Board 2 is placed (outside the transaction) from board 1 as 40 points; before it is written
    a referee corrects board 1 to 110. Worked by hand from §2.3: 110 is S4, NS step down and EW go
    on 台上 at A with no level gained, so board 2 is played from EW on 台上, NS 1, EW 1 — not from
    NS at 3 — and the stored match counts both deals."""
    import scoring.entry.services as services

    _event, table, referee, second = setting()
    first, _ = deal_save(table=table, board=1, deal_json={"declarer": "NS", "points": 40}, user=referee)
    real_score = services.score_at_table
    corrected = []

    def score_then_correct_board_one(table_, deal_json, adjusted, board=None):
        scored = real_score(table_, deal_json, adjusted, board)
        if board == 2 and not corrected:
            corrected.append(True)
            deal_save(
                table=table, board=1, deal_json={"declarer": "NS", "points": 110}, user=second,
                expected_version=first.version,
            )  # fmt: skip
        return scored

    monkeypatch.setattr(services, "score_at_table", score_then_correct_board_one)
    deal_save(table=table, board=2, deal_json={"points": 60}, user=referee)
    stored = Deal.objects.get(table=table, board=2).game_data
    assert stored["state"] == {"declarer": "EW", "levels": {"NS": 1, "EW": 1}}
    assert stored_match(table, {"start_level": 1, "target": None, "deals": 4})["deals_played"] == 2
