"""One list of a deal's result columns (`Deal.RESULT_COLUMNS`): a change writes every one of
them and the exports read every one; `updated_at`, which nothing read, is gone."""

import pytest

from scoring.entry.services import deal_save
from scoring.models import Deal, Table
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db

# A deal's identity and workflow, not its result.
NOT_RESULT = {
    *("id", "table_id", "board", "sequence", "extra"),
    *("status", "version", "entered_by_id", "entered_side", "confirmed_by_id"),
}


def test_every_column_of_a_deal_is_either_identity_workflow_or_a_result_column():
    columns = {f.attname for f in Deal._meta.concrete_fields}
    assert columns - NOT_RESULT == set(Deal.RESULT_COLUMNS), "add the new column to Deal.RESULT_COLUMNS or NOT_RESULT"
    assert "updated_at" not in columns


def test_a_change_writes_every_result_column_as_a_new_entry_would(event, people):
    first, second = (Table.objects.get(round__event=event, round__number=3, number=n) for n in (1, 2))
    deal, _ = deal_save(table=first, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    deal_save(
        table=first, board=1, deal_json=example_deal("T7"), user=people["referee2"], expected_version=1, existing=deal
    )
    fresh, _ = deal_save(table=second, board=1, deal_json=example_deal("T7"), user=people["referee1"])
    changed = Deal.objects.values(*Deal.RESULT_COLUMNS).get(table=first, board=1)
    assert changed == Deal.objects.values(*Deal.RESULT_COLUMNS).get(pk=fresh.pk)
