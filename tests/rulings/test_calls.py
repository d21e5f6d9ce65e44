"""Calls at a table and their rulings (issue 23): opened before any result, ruled with a penalty
now or on entry, a redeal, a claim that fills the grid; the public list; bad input refused."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, DealHistory, Irregularity, RefereeCall, Round, Table
from scoring.results.penalties import penalty_list
from scoring.rulings.calls import call_open, call_rule, claim_fall, claim_values, penalty_apply
from tests.archives import EXAMPLES
from tests.conftest import scaled_examples
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db
T1 = EXAMPLES["T1"]["expected"]["scores"]


def table_one(event):
    return Table.objects.get(round__event=event, round__number=3, number=1)


def test_a_call_before_the_result_ruled_with_a_penalty_joins_the_deal_when_it_is_entered(event, people):
    table = table_one(event)
    call = call_open(table=table, user=people["referee1"], kind="revoke", board=1, seats="w", facts="W 藏了一张红桃")
    assert call.answered_at is not None and call.seats == "W" and not Deal.objects.filter(table=table, board=1).exists()
    call_rule(call=call, user=people["referee1"], outcome="penalty", ruling="藏牌罚 50", penalty_seat="W", penalty=-50)

    deal, created = deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee2"])
    assert created
    assert deal.penalties == {"W": -50}
    assert deal.scores["W"] == T1["W"] - 50 and deal.scores["N"] == T1["N"]
    irregularity = Irregularity.objects.get(deal=deal)
    assert (irregularity.call_id, irregularity.penalty, irregularity.kind) == (call.pk, -50, "revoke")
    # Applied once: a second board's deal and a later change do not add it again.
    again, _ = deal_save(
        table=table,
        board=1,
        deal_json={**example_deal("T1"), "penalties": {"W": -50}},
        user=people["referee1"],
        expected_version=deal.version,
        reason="",
    )
    assert again.penalties == {"W": -50}


def test_a_penalty_ruled_on_a_board_already_entered_is_a_new_version_in_its_history(event, people):
    table = table_one(event)
    deal, _ = deal_save(table=table, board=2, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    call = call_open(table=table, user=people["referee2"], kind="slow_play", board=2, seats="N")
    call_rule(
        call=call,
        user=people["referee2"],
        outcome="penalty",
        ruling="出牌迟缓，已警告两次",
        penalty_seat="N",
        penalty=-20,
    )
    deal.refresh_from_db()
    assert deal.version == 3 and deal.status == "draft"  # a penalty reopens the board for confirmation
    assert deal.scores["N"] == T1["N"] - 20
    last = DealHistory.objects.filter(table=table, board=2).order_by("-version").first()
    assert last.action == "ruling" and "出牌迟缓，已警告两次" in last.reason


def test_a_redeal_voids_the_first_result_and_the_redeals_result_replaces_it(event, people):
    table = table_one(event)
    first, _ = deal_save(table=table, board=3, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=first, user=people["referee2"], expected_version=first.version)
    call = call_open(table=table, user=people["referee1"], kind="wrong_card_count", board=3, seats="E", facts="E 14 张")
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=people["referee1"], outcome="redeal", ruling="")
    assert refused.value.code == "reason_required"
    call_rule(call=call, user=people["referee1"], outcome="redeal", ruling="其他人不同意抽牌，重新发牌")
    voided = Deal.objects.get(table=table, board=3)
    assert voided.status == "draft" and voided.confirmed_by is None
    redeal, _ = deal_save(
        table=table, board=3, deal_json=example_deal("T2"), user=people["referee1"], expected_version=voided.version
    )
    assert {"NS": redeal.ns_score, "EW": redeal.ew_score} == EXAMPLES["T2"]["expected"]["sides"]
    actions = list(
        DealHistory.objects.filter(table=table, board=3).order_by("version").values_list("action", flat=True)
    )
    assert actions == ["create", "confirm", "ruling", "change"]  # both deals and the ruling between them


def test_a_call_is_ruled_once(event, people):
    table = table_one(event)
    call = call_open(table=table, user=people["referee1"], kind="conduct", seats="S")
    call_rule(call=call, user=people["referee1"], outcome="nothing", ruling="口头警告")
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=people["referee2"], outcome="nothing", ruling="再次警告")
    assert refused.value.code == "already_ruled"
    assert RefereeCall.objects.get(pk=call.pk).ruling == "口头警告"


@pytest.mark.parametrize(
    ("ruling", "code"),
    [
        ({"outcome": "penalty", "ruling": "x", "penalty_seat": "W", "penalty": 0}, "bad_penalty"),
        ({"outcome": "penalty", "ruling": "x", "penalty_seat": "W", "penalty": 50}, "bad_penalty"),
        ({"outcome": "penalty", "ruling": "x", "penalty_seat": "W", "penalty": -100_001}, "bad_penalty"),
        ({"outcome": "penalty", "ruling": "x", "penalty_seat": "", "penalty": -50}, "unknown_seat"),
        ({"outcome": "drawn_back", "ruling": "x"}, "bad_outcome"),
        ({"outcome": "maybe", "ruling": "x"}, "bad_outcome"),
        ({"outcome": "nothing", "ruling": "x" * 501}, "bad_reason"),
    ],
)
def test_a_bad_ruling_is_refused_and_changes_nothing(event, people, ruling, code):
    call = call_open(table=table_one(event), user=people["referee1"], kind="revoke", board=1)
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=people["referee1"], **ruling)
    assert refused.value.code == code
    assert RefereeCall.objects.get(pk=call.pk).ruled_at is None and not Irregularity.objects.exists()


def test_only_the_events_officials_open_and_rule_calls(event, people):
    table = table_one(event)
    with pytest.raises(EntryError) as refused:
        call_open(table=table, user=people["outsider"], kind="revoke")
    assert refused.value.code == "forbidden"
    call = call_open(table=table, user=people["referee1"], kind="revoke")
    Round.objects.filter(pk=table.round_id).update(status="official")
    call.table.round.refresh_from_db()
    with pytest.raises(EntryError) as refused:
        call_rule(call=call, user=people["referee1"], outcome="nothing", ruling="无")
    assert refused.value.code == "round_official"


def test_an_accepted_claim_fills_the_grid_and_a_contested_one_records_the_ruled_fall(event, people):
    table = table_one(event)
    call = call_open(table=table, user=people["referee1"], kind="claim", board=4, seats="N", facts="N 第 9 墩摊牌")
    call_rule(
        call=call,
        user=people["referee1"],
        outcome="nothing",
        ruling="各方同意，按声称记录",
        claimant="N",
        claim_trick=9,
        claim_fall_by_seat={"N": "♥A ♥K sq", "E": "", "S": "C10", "W": "DJ"},
        claim_status="accepted",
    )
    call.refresh_from_db()
    assert call.claim_fall == {"N": ["HA", "HK", "SQ"], "S": ["C10"], "W": ["DJ"]}
    values, claim = claim_values(table, 4)
    assert claim == call
    assert values == {"card-HA": "N", "card-HK": "N", "card-SQ": "N", "card-C10": "S", "card-DJ": "W"}

    contested = call_open(table=table, user=people["referee2"], kind="claim", board=5, seats="E")
    with pytest.raises(EntryError) as refused:
        call_rule(
            call=contested,
            user=people["referee2"],
            outcome="nothing",
            ruling="x",
            claimant="E",
            claim_trick=14,
            claim_status="contested",
        )
    assert refused.value.code == "bad_claim"
    call_rule(
        call=contested,
        user=people["referee2"],
        outcome="nothing",
        ruling="W 还有 ♥Q 可以出，♥Q 归 W",
        claimant="E",
        claim_trick=11,
        claim_fall_by_seat={"E": "H2", "W": "HQ"},
        claim_status="contested",
    )
    assert RefereeCall.objects.get(pk=contested.pk).claim_status == "contested"
    assert claim_values(table, 5)[0] == {"card-H2": "E", "card-HQ": "W"}


@pytest.mark.parametrize("text", ["SA", "XX", "H2 H2", "♥A ♥A", "H" * 30])
def test_a_claimed_fall_of_non_point_or_repeated_cards_is_refused(text):
    with pytest.raises(EntryError) as refused:
        claim_fall({"N": text})
    assert refused.value.code == "bad_claim"


@settings(max_examples=scaled_examples(60), deadline=None)
@given(st.dictionaries(st.sampled_from("NESW"), st.text(max_size=60), max_size=4))
def test_any_typed_fall_is_either_point_cards_each_once_or_a_clear_refusal(typed):
    try:
        fall = claim_fall(typed)
    except EntryError as refused:
        assert refused.code == "bad_claim"
        return
    cards = [card for seat_cards in fall.values() for card in seat_cards]
    assert len(cards) == len(set(cards)) and set(fall) <= set("NESW")


def test_a_penalty_ruled_at_the_moment_the_deal_arrived_can_be_applied_once_by_hand(event, people):
    table = table_one(event)
    call = call_open(table=table, user=people["referee1"], kind="late_exposure", board=6, seats="E")
    call_rule(call=call, user=people["referee1"], outcome="penalty", ruling="亮牌超时", penalty_seat="E", penalty=-30)
    with pytest.raises(EntryError) as refused:
        penalty_apply(call=call, user=people["referee1"])
    assert refused.value.code == "no_deal"
    # The deal arrives without it (as if saved at the same moment the ruling was made).
    deal = Deal.objects.create(
        table=table, board=6, sequence=6, status="draft", entered_by=people["referee2"], game_data={"captured": {}}
    )
    penalty_apply(call=call, user=people["referee1"])
    deal.refresh_from_db()
    assert deal.penalties == {"E": -30}
    with pytest.raises(EntryError) as refused:
        penalty_apply(call=call, user=people["referee1"])
    assert refused.value.code == "already_ruled"


def test_the_public_list_shows_ruled_calls_of_published_rounds_only(event, people):
    table = table_one(event)
    call = call_open(
        table=table, user=people["referee1"], kind="lead_out_of_turn", board=1, seats="E", facts="E 抢先出牌"
    )
    call_rule(call=call, user=people["referee1"], outcome="nothing", ruling="未造成损害，不处罚")
    assert penalty_list(event) == []
    Round.objects.filter(pk=table.round_id).update(status="provisional")
    [row] = penalty_list(event)
    assert (row["table"], row["board"], row["seat"], row["ruling"], row["facts"]) == (
        1,
        1,
        "E",
        "未造成损害，不处罚",
        "E 抢先出牌",
    )
    assert row["outcome"] == "不处罚" and row["points"] == 0


def test_a_tables_call_without_a_board_is_ruled_with_the_board_the_referee_names(client, event, people):
    """The table link's "call a referee" need not say which board: the referee names it on the
    call's page when his ruling needs one (a penalty here), and the penalty joins that deal."""
    from scoring.table_entry.services import table_call

    table = table_one(event)
    deal, _ = deal_save(table=table, board=7, deal_json=example_deal("T1"), user=people["referee2"])
    call = table_call(table, {"kind": "revoke", "note": "W 垫牌可疑"})
    assert call.board is None
    with pytest.raises(EntryError) as refused:  # without a board a penalty has nowhere to go
        call_rule(call=call, user=people["referee1"], outcome="penalty", ruling="藏牌", penalty_seat="W", penalty=-50)
    assert refused.value.code == "bad_board"
    with pytest.raises(EntryError) as refused:  # a board outside the match
        call_rule(call=call, user=people["referee1"], outcome="nothing", ruling="x", board=17)
    assert refused.value.code == "not_found"

    client.force_login(people["referee1"])
    page = f"/referee/t-pairs/rounds/3/calls/{call.pk}/"
    assert 'name="board"' in client.get(page).content.decode()
    form = {"outcome": "penalty", "ruling": "藏牌成立", "penalty_seat": "W", "penalty": "50", "board": "7"}
    assert client.post(page, form).status_code == 302
    call.refresh_from_db()
    deal.refresh_from_db()
    assert call.board == 7 and call.ruled_at is not None
    assert deal.penalties == {"W": -50} and deal.scores["W"] == T1["W"] - 50
    assert Irregularity.objects.get(deal=deal).call_id == call.pk
    assert 'name="board"' not in client.get(page).content.decode()  # named once, for good
    other = call_open(table=table, user=people["referee1"], kind="conduct", board=2)
    with pytest.raises(EntryError) as refused:
        call_rule(call=other, user=people["referee1"], outcome="nothing", ruling="警告", board=3)
    assert refused.value.code == "bad_board"
