"""A deal's write is checked against its round as it was read (who may write, whether a reason
is needed), then checked again inside the write's transaction
(`scoring.entry.versioned.check_round_unchanged`). A round published or made official in
between refuses the write with `round_changed`, and nothing is written."""

import pytest

from scoring.entry.errors import EntryError
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, DealHistory, Event, Round, Table
from scoring.rounds.publication import round_make_official, round_publish
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db


def table_of_round_three(event, number=1):
    return Table.objects.select_related("round__event").get(round__event=event, round__number=3, number=number)


def play_round_three(event, people):
    """Every board of round 3 entered and confirmed (one board a table)."""
    Event.objects.filter(pk=event.pk).update(match_length=1, correction_minutes=0)
    for number in (1, 2):
        deal, _created = deal_save(
            table=table_of_round_three(event, number), board=1, deal_json=example_deal("T1"), user=people["referee1"]
        )
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    return Round.objects.get(event=event, number=3)


def stored(event):
    return (
        list(Deal.objects.filter(table__round__event=event).order_by("pk").values_list("pk", "version", "ns_score")),
        DealHistory.objects.filter(event=event).count(),
    )


def test_a_write_read_before_publication_is_refused_once_the_round_is_published(event, people):
    """Read while in play a correction needs no reason; published, it does (it is listed
    publicly). The round published in between refuses the write that gave none."""
    rnd = play_round_three(event, people)
    table = table_of_round_three(event)  # read while the round is in play
    assert not table.round.is_published
    deal = Deal.objects.get(table=table, board=1)
    round_publish(rnd, user=people["organiser"])  # meanwhile
    before = stored(event)
    with pytest.raises(EntryError) as refused:
        deal_save(
            table=table,
            board=1,
            deal_json=example_deal("T2"),
            user=people["referee1"],
            expected_version=deal.version,
            existing=deal,
        )
    assert refused.value.code == "round_changed"
    assert stored(event) == before


def test_a_referees_write_read_before_make_official_is_refused(event, people):
    """Once official only an organiser changes a round: a referee's write read before is refused."""
    rnd = play_round_three(event, people)
    round_publish(rnd, user=people["organiser"])
    table = table_of_round_three(event)  # read while provisional
    deal = Deal.objects.get(table=table, board=1)
    round_make_official(Round.objects.get(pk=rnd.pk), user=people["organiser"])  # meanwhile
    before = stored(event)
    with pytest.raises(EntryError) as refused:
        deal_save(
            table=table,
            board=1,
            deal_json=example_deal("T2"),
            user=people["referee1"],
            expected_version=deal.version,
            reason="更正",
            existing=deal,
        )
    assert refused.value.code == "round_changed"
    assert stored(event) == before


def test_a_write_read_in_the_rounds_current_state_goes_through(event, people):
    """The re-check refuses only a change of state: the same write, read afresh, is saved."""
    rnd = play_round_three(event, people)
    round_publish(rnd, user=people["organiser"])
    table = table_of_round_three(event)
    deal = Deal.objects.get(table=table, board=1)
    version = deal.version
    saved, _created = deal_save(
        table=table,
        board=1,
        deal_json=example_deal("T2"),
        user=people["referee1"],
        expected_version=deal.version,
        reason="记分表抄错",
        existing=deal,
    )
    assert Deal.objects.get(pk=saved.pk).version == version + 1
