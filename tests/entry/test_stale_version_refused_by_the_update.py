"""The conditional UPDATE itself refuses a stale version (`filter(pk=…, version=…)`), not only
the check before it: a writer holding an old copy of the deal — read before another writer's
change committed — changes nothing. Deterministic: the old copy is passed to the service."""

import copy

import pytest

from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, DealHistory, Table
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def moved_on(event, people):
    """A deal at version 2, and a copy of it as read at version 1."""
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    deal, _ = deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    old_copy = copy.copy(deal)
    deal_save(
        table=table, board=1, deal_json=example_deal("T2"), user=people["referee2"], expected_version=1, existing=deal
    )
    return table, old_copy


def test_a_change_from_a_copy_read_before_another_change_is_refused_and_changes_nothing(moved_on, people):
    table, old_copy = moved_on
    with pytest.raises(EntryError) as caught:
        deal_save(
            table=table,
            board=1,
            deal_json=example_deal("T7"),
            user=people["referee1"],
            expected_version=1,
            existing=old_copy,  # the version check before the UPDATE sees 1 = 1 and lets it through
        )
    assert caught.value.code == "stale_version"
    stored = Deal.objects.get(pk=old_copy.pk)
    t2 = {seat: sorted(cards) for seat, cards in example_deal("T2")["captured"].items()}
    assert stored.version == 2 and {seat: sorted(cards) for seat, cards in stored.game_data["captured"].items()} == t2
    assert DealHistory.objects.filter(table=table, board=1).count() == 2


def test_a_confirmation_of_a_copy_read_before_a_change_is_refused_and_confirms_nothing(moved_on, people):
    _table, old_copy = moved_on
    with pytest.raises(EntryError) as caught:
        deal_confirm(deal=old_copy, user=people["organiser"], expected_version=1)
    assert caught.value.code == "stale_version"
    stored = Deal.objects.get(pk=old_copy.pk)
    assert (stored.version, stored.status, stored.confirmed_by) == (2, Deal.Status.DRAFT, None)
