"""The public board page (the traveller) shows confirmed deals only: a published result that a
referee has changed since is a draft until a second referee confirms it, and stays hidden."""

import pytest

from scoring.archive.database import import_archive
from scoring.entry.services import deal_save
from scoring.models import Deal, Round
from scoring.results.travellers import board_traveller
from tests.archives import four_pairs_two_rounds
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db
PAGE = "/events/t-pairs/rounds/1/boards/1/"


@pytest.fixture
def draft_at_table_two():
    event = import_archive(four_pairs_two_rounds())
    Round.objects.filter(event=event, number=1).update(status=Round.Status.PROVISIONAL)
    deal = Deal.objects.get(table__round__event=event, table__round__number=1, table__number=2, board=1)
    deal_save(
        table=deal.table,
        board=1,
        deal_json=example_deal("T2"),
        user=make_user("ref", "referee", event),
        expected_version=deal.version,
        reason="记错了",
    )
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.DRAFT
    return event


def test_the_traveller_leaves_out_a_draft_deal(draft_at_table_two):
    rnd = Round.objects.get(event=draft_at_table_two, number=1)
    assert [row["table"].number for row in board_traveller(draft_at_table_two, rnd, 1)] == [1]


def test_the_public_board_page_shows_the_confirmed_table_only(client, draft_at_table_two):
    response = client.get(PAGE)
    assert response.status_code == 200
    assert [row["table"].number for row in response.context["rows"]] == [1]


def test_a_board_with_only_draft_deals_is_not_shown_at_all(client, draft_at_table_two):
    Deal.objects.filter(table__round__event=draft_at_table_two, board=1).update(status=Deal.Status.DRAFT)
    assert client.get("/events/t-pairs/rounds/2/boards/1/").status_code == 404
