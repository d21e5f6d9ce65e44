"""Every ruling that changes a result is traceable from the public pages back to the call that
started it (issue 23, "Done means"): a penalty, an adjusted score, a redeal, a board not played
and an appeal's change, ruled after the round was published, each named on the public list of
changes with a link to its call's row on the penalties-and-rulings page, and on the board's own
page; the appeal's row links its call and its change."""

import pytest
from django.test import Client
from django.utils import timezone
from lxml import html

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import DealHistory, Round, Table
from scoring.rulings.appeals import appeal_decide, appeal_lodge
from scoring.rulings.calls import call_open, call_rule
from tests.archives import EXAMPLES
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db
T1 = EXAMPLES["T1"]["expected"]["scores"]  # N −210, E 60, S −60, W −20
T2 = EXAMPLES["T2"]["expected"]["scores"]  # N 90, E −80, S −160, W −100


def page(path):
    response = Client().get(path)
    assert response.status_code == 200, path
    return html.fromstring(response.content.decode())


def text(element):
    return " ".join(element.text_content().split())


def ruled(table, user, board, kind, outcome, ruling, **more):
    call = call_open(
        table=table, user=user, kind=kind, board=board, seats=more.pop("seats", ""), facts=more.pop("facts")
    )
    return call_rule(call=call, user=user, outcome=outcome, ruling=ruling, **more)


@pytest.fixture
def rulings(event, people):
    """Round 3, table 1: boards 1–6 entered (T1) and confirmed, the round published; then, within
    the correction period, a ruling on each board that changes its result."""
    referee, organiser = people["referee1"], people["organiser"]
    event.extra = {**event.extra, "not_played": "zero"}
    event.save()
    table = Table.objects.select_related("round__event", "ns_entrant", "ew_entrant").get(
        round__event=event, round__number=3, number=1
    )
    for board in range(1, 7):
        deal, _ = deal_save(table=table, board=board, deal_json=example_deal("T1"), user=referee)
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    Round.objects.filter(pk=table.round_id).update(status="provisional", published_at=timezone.now())
    table.round.refresh_from_db()

    found = {}
    found["penalty"] = ruled(
        table,
        referee,
        1,
        "revoke",
        "penalty",
        "藏牌成立，罚 W 50",
        seats="W",
        facts="W 第 4 墩有红心垫了方块",
        penalty_seat="W",
        penalty=-50,
    )
    found["adjusted"] = ruled(
        table, referee, 2, "conduct", "adjusted", "牌被对方看到，请裁判长给调整分", seats="E", facts="E 把牌亮给了对家"
    )
    deal = table.deals.get(board=2)
    adjusted = {"N": -100, "E": 100, "S": -100, "W": 100}
    deal_save(
        table=table,
        board=2,
        deal_json={**deal.as_deal_json(), "adjusted": adjusted, "adjusted_reason": "按裁决调整"},
        user=organiser,
        expected_version=deal.version,
        reason="裁判长的调整分",
    )
    found["redeal"] = ruled(
        table,
        referee,
        3,
        "wrong_card_count",
        "redeal",
        "其他人不同意抽牌，重新发牌",
        seats="E",
        facts="E 14 张，S 12 张",
    )
    voided = table.deals.get(board=3)
    deal_save(
        table=table,
        board=3,
        deal_json=example_deal("T2"),
        user=referee,
        expected_version=voided.version,
        reason="重新发牌后的结果",
    )
    found["not_played"] = ruled(
        table, referee, 4, "wrong_card_count", "not_played", "来不及重新发牌，记为未打", seats="N", facts="N 只有 12 张"
    )
    found["appealed"] = ruled(
        table, referee, 5, "lead_out_of_turn", "nothing", "未轮到出牌，不处罚", seats="S", facts="S 在 N 之前出了牌"
    )
    appeal = appeal_lodge(
        table=table,
        statement="S 出牌让对方得利，应罚",
        board=5,
        entrant=table.ew_entrant,
        user=referee,
        call=found["appealed"],
    )
    deal = table.deals.get(board=5)
    deal_save(
        table=table,
        board=5,
        deal_json={**deal.as_deal_json(), "penalties": {"S": -30}},
        user=organiser,
        expected_version=deal.version,
        reason="申诉委员会：罚 S 30",
    )
    appeal_decide(appeal=appeal, user=organiser, status="changed", decision="未轮到出牌得利，罚 S 30")
    found["appeal"] = appeal
    for board in (1, 3):  # the referee's changes went back to draft: a second referee confirms them
        deal = table.deals.get(board=board)
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return event, table, found


def test_each_ruling_after_publication_names_its_call_on_the_public_list_of_changes(rulings):
    event, table, found = rulings
    changes = page(f"/events/{event.slug}/changes/")
    penalties = page(f"/events/{event.slug}/penalties/")
    rows = {}
    for row in DealHistory.objects.filter(table=table).exclude(call=None, appeal=None):
        rows.setdefault(row.board, []).append(row)
    # Each board's ruling is one history row that names its call (the appeal's names the appeal).
    assert {board: [r.call_id for r in found_rows] for board, found_rows in rows.items()} == {
        1: [found["penalty"].pk],
        2: [found["adjusted"].pk],
        3: [found["redeal"].pk],
        4: [found["not_played"].pk],
        5: [None],
    }
    assert rows[5][0].appeal_id == found["appeal"].pk

    for name, board in (("penalty", 1), ("adjusted", 2), ("redeal", 3), ("not_played", 4)):
        call = found[name]
        [change] = rows[board]
        [row] = changes.xpath(f'//tr[@id="change-{change.pk}"]')
        [link] = row.xpath('.//a[contains(@href, "#call-")]')
        assert link.get("href") == f"/events/{event.slug}/penalties/#call-{call.pk}", name
        assert call.get_kind_display() in text(link), name
        # The link's target is the call's row, with its facts and its ruling.
        [target] = penalties.xpath(f'//tr[@id="call-{call.pk}"]')
        assert call.note in text(target) and call.ruling in text(target), name

    # The appeal's change names the appeal and the ruling it was against; the appeal's row links
    # both back: the call's row and the change.
    appeal = found["appeal"]
    [change] = rows[5]
    [row] = changes.xpath(f'//tr[@id="change-{change.pk}"]')
    hrefs = [a.get("href") for a in row.xpath(".//a")]
    assert f"/events/{event.slug}/penalties/#appeal-{appeal.pk}" in hrefs
    assert f"/events/{event.slug}/penalties/#call-{found['appealed'].pk}" in hrefs
    [appeal_row] = penalties.xpath(f'//tr[@id="appeal-{appeal.pk}"]')
    hrefs = [a.get("href") for a in appeal_row.xpath(".//a")]
    assert f"#call-{found['appealed'].pk}" in hrefs
    assert f"/events/{event.slug}/changes/#change-{change.pk}" in hrefs
    assert penalties.xpath(f'//tr[@id="call-{found["appealed"].pk}"]')
    # The correction's figures, by hand: T1 with S −30.
    assert f"{T1['N']} / {T1['E']} / {T1['S'] - 30} / {T1['W']}" in text(appeal_row)


def test_the_boards_own_page_lists_its_rulings_and_changes_back_to_the_call(rulings):
    event, _table, found = rulings
    for name, board in (("penalty", 1), ("adjusted", 2), ("redeal", 3), ("not_played", 4)):
        call = found[name]
        board_page = page(f"/events/{event.slug}/rounds/3/boards/{board}/")
        [section] = board_page.xpath('//section[@id="board-rulings"]')
        hrefs = [a.get("href") for a in section.xpath(".//a")]
        # The ruling's row on the penalties page, from the list of rulings and from the change.
        assert hrefs.count(f"/events/{event.slug}/penalties/#call-{call.pk}") == 2, name
        assert call.ruling in text(section), name
    # The figures each change left, by hand: the adjusted score; the redeal's T2 after T1 voided.
    board_two = text(page(f"/events/{event.slug}/rounds/3/boards/2/").xpath('//section[@id="board-rulings"]')[0])
    assert f"{T1['N']} / {T1['E']} / {T1['S']} / {T1['W']} → -100 / 100 / -100 / 100" in board_two
    board_three = text(page(f"/events/{event.slug}/rounds/3/boards/3/").xpath('//section[@id="board-rulings"]')[0])
    assert f"→ {T2['N']} / {T2['E']} / {T2['S']} / {T2['W']}" in board_three
    assert "重新发牌后的结果" in board_three and "其他人不同意抽牌，重新发牌" in board_three
    board_four = text(page(f"/events/{event.slug}/rounds/3/boards/4/").xpath('//section[@id="board-rulings"]')[0])
    assert "未打：无成绩（双方 0 分）" in board_four and "→ 0 / 0 / 0 / 0" in board_four
    # A board without rulings has no such section.
    assert not page(f"/events/{event.slug}/rounds/3/boards/6/").xpath('//section[@id="board-rulings"]')


def test_an_irregularity_recorded_on_the_board_reads_by_its_name_in_the_history(rulings):
    _event, _table, found = rulings
    [row] = DealHistory.objects.filter(call=found["penalty"])
    assert row.reason == "藏牌：藏牌成立，罚 W 50"  # the kind's name, not its code
