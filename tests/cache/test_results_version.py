"""The results version that keys cached standings: base plus shard rows (scoring.cache.announce_results_changed)."""

import json

import pytest
from django.db import transaction

from scoring.cache import announce_results_changed
from scoring.cache.versions import current_version
from scoring.models import ResultsCounter
from tests.referee_setup import board_url, example_deal, token_header

pytestmark = pytest.mark.django_db


def test_every_write_on_any_shard_moves_the_version_and_only_public_ones_the_public_version(event):
    results, public = current_version(event), current_version(event, public=True)
    seen = {results}
    for shard in (0, 5, 5, ResultsCounter.SHARDS + 5, 15):
        with transaction.atomic():
            announce_results_changed(event, public=False, shard=shard)
        version = current_version(event)
        assert version not in seen
        seen.add(version)
    assert current_version(event, public=True) == public
    announce_results_changed(event, public=True, shard=3)
    assert current_version(event, public=True) == public + 1
    assert current_version(event) == results + 6
    assert ResultsCounter.objects.filter(event=event).count() == 4  # shards 0, 3, 5, 15


def test_a_deal_entered_through_the_api_moves_the_version(client, people, event):
    before = current_version(event)
    response = client.put(
        board_url(),
        data=json.dumps(example_deal("T1")),
        content_type="application/json",
        **token_header(people["referee1"]),
    )
    assert response.status_code == 201
    assert current_version(event) == before + 1
