"""Who enters blind in a double-entry event: one rule (scoring.entry.selectors.enters_blind),
read by the entry page for what it shows and for which service a POST goes to."""

import pytest

from scoring.entry.selectors import enters_blind
from scoring.entry.services import deal_save
from scoring.models import BlindEntry, Deal, Event, Table
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db

BOARD_PAGE = "/referee/{slug}/rounds/3/tables/1/boards/1/"


def test_referees_enter_blind_only_in_an_event_with_double_entry_and_organisers_never(event, people):
    assert not enters_blind(people["referee1"], event)
    event.double_entry = True
    assert enters_blind(people["referee1"], event)
    assert not enters_blind(people["organiser"], event)


def test_a_blind_referee_sees_an_empty_grid_and_the_organiser_the_stored_deal(client, event, people):
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["organiser"])
    Event.objects.filter(pk=event.pk).update(double_entry=True)
    client.force_login(people["referee1"])
    blind = client.get(BOARD_PAGE.format(slug=event.slug)).content.decode()
    client.force_login(people["organiser"])
    open_page = client.get(BOARD_PAGE.format(slug=event.slug)).content.decode()
    assert " checked>" not in blind  # no card of the stored deal is shown
    assert open_page.count(" checked>") == 16


def test_a_blind_referee_posting_the_form_makes_a_blind_entry_not_a_deal(client, event, people):
    Event.objects.filter(pk=event.pk).update(double_entry=True)
    client.force_login(people["referee1"])
    data = {f"card-{card}": seat for seat, cards in example_deal("T1")["captured"].items() for card in cards}
    response = client.post(BOARD_PAGE.format(slug=event.slug), data)
    assert response.status_code == 302
    assert BlindEntry.objects.filter(user=people["referee1"]).count() == 1
    assert not Deal.objects.filter(table__round__event=event, table__round__number=3).exists()
