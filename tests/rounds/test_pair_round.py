"""`pair_round` and hand swaps against the database."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.archive.database import import_archive
from scoring.engine.pairing import PairingError
from scoring.models import Deal, PairingLog, Round, Table
from scoring.rounds.creation import round_pair, round_swap_entrants
from tests.archives import four_pairs_two_rounds

pytestmark = pytest.mark.django_db


def test_swiss_pairs_the_next_round_without_rematches_and_logs_it():
    event = import_archive(four_pairs_two_rounds())
    rnd = round_pair(event, "swiss")[0]
    assert rnd.number == 3 and rnd.status == Round.Status.SCHEDULED
    pairs = {frozenset((t.ns_entrant.code, t.ew_entrant.code)) for t in rnd.tables.all()}
    # Already met: A–B, C–D, A–C, D–B. The only new pairing left is A–D and B–C.
    assert pairs == {frozenset("AD"), frozenset("BC")}
    leaders = rnd.tables.get(number=1)
    assert {leaders.ns_entrant.code, leaders.ew_entrant.code} == {"B", "C"}  # B leads, table 1
    assert PairingLog.objects.filter(round=rnd, action="pair:swiss").exists()
    table = rnd.tables.get(number=1)
    assert table.north == table.ns_entrant.memberships.first().player


def test_swiss_refuses_while_a_round_is_unfinished():
    event = import_archive(four_pairs_two_rounds())
    Deal.objects.filter(table__round__number=2).update(status="draft")
    with pytest.raises(PairingError, match="第2轮"):
        round_pair(event, "swiss")
    assert event.rounds.count() == 2


def test_swiss_refuses_while_a_deal_is_disputed_too():
    event = import_archive(four_pairs_two_rounds())
    Deal.objects.filter(table__round__number=1, table__number=1).update(status=Deal.Status.DISPUTED)
    with pytest.raises(PairingError, match="第1轮"):
        round_pair(event, "swiss")
    assert event.rounds.count() == 2


def test_counted_and_uncounted_deals_divide_the_deals_between_them():
    import_archive(four_pairs_two_rounds())
    Deal.objects.filter(table__number=1).update(status=Deal.Status.DRAFT)
    Deal.objects.filter(table__number=2, table__round__number=2).update(status=Deal.Status.DISPUTED)
    counted = set(Deal.objects.counted().values_list("pk", flat=True))
    uncounted = set(Deal.objects.uncounted().values_list("pk", flat=True))
    assert counted and uncounted and not counted & uncounted
    assert counted | uncounted == set(Deal.objects.values_list("pk", flat=True))
    assert all(status != Deal.Status.CONFIRMED for status in Deal.objects.uncounted().values_list("status", flat=True))


def test_round_robin_pairs_ahead_even_when_results_are_missing():
    event = import_archive(four_pairs_two_rounds())
    Deal.objects.filter(table__round__number=2).delete()
    rnd = round_pair(event, "roundrobin")[0]
    assert rnd.number == 3 and rnd.tables.count() == 2


def test_the_command_pairs_and_reports_a_refusal_clearly():
    import_archive(four_pairs_two_rounds())
    out = StringIO()
    call_command("pair_round", "t-pairs", "--method", "random", "--seed", "7", stdout=out)
    assert "round 3: 2 tables" in out.getvalue()
    with pytest.raises(CommandError, match="未完成"):
        call_command("pair_round", "t-pairs", "--method", "swiss")


def test_an_organiser_can_swap_two_pairs_before_the_round_starts_and_it_is_logged():
    event = import_archive(four_pairs_two_rounds())
    rnd = round_pair(event, "swiss")[0]
    before = {t.number: (t.ns_entrant.code, t.ew_entrant.code) for t in rnd.tables.all()}
    round_swap_entrants(rnd, "A", "B")
    after = {t.number: (t.ns_entrant.code, t.ew_entrant.code) for t in Table.objects.filter(round=rnd)}
    swap = {"A": "B", "B": "A"}
    assert after == {n: tuple(swap.get(c, c) for c in pair) for n, pair in before.items()}
    (log,) = PairingLog.objects.filter(round=rnd, action="swap")
    assert set(log.detail["swapped"]) == {"A", "B"}


def test_a_swap_is_refused_once_the_round_has_started():
    event = import_archive(four_pairs_two_rounds())
    rnd = event.rounds.get(number=2)
    with pytest.raises(PairingError):
        round_swap_entrants(rnd, "A", "B")


def test_the_swap_form_on_the_round_page_is_for_organisers(client, event, people):
    rnd = event.rounds.get(number=3)
    before = {t.number: (t.ns_entrant.code, t.ew_entrant.code) for t in rnd.tables.all()}
    client.force_login(people["referee1"])
    assert client.post("/organiser/t-pairs/rounds/3/swap/", {"first": "A", "second": "B"}).status_code == 403
    client.force_login(people["organiser"])
    client.post("/organiser/t-pairs/rounds/3/swap/", {"first": "A", "second": "B"})
    swap = {"A": "B", "B": "A"}
    after = {t.number: (t.ns_entrant.code, t.ew_entrant.code) for t in rnd.tables.all()}
    assert after == {n: tuple(swap.get(c, c) for c in pair) for n, pair in before.items()}
    assert PairingLog.objects.filter(round=rnd, action="swap").count() == 1


def test_pairing_a_round_number_another_request_has_just_created_is_refused_in_words(monkeypatch):
    """Two organisers pairing at once on PostgreSQL both read "round 3 is next" before either
    commits; the second must be told, not shown a server error, and no round is doubled."""
    event = import_archive(four_pairs_two_rounds())
    round_pair(event, "swiss")
    # The second request read the next number before the first one committed.
    monkeypatch.setattr("scoring.rounds.creation.next_round_number", lambda event: 3)
    with pytest.raises(PairingError) as refusal:
        round_pair(event, "swiss")
    assert refusal.value.code == "changed_meanwhile"
    assert list(event.rounds.order_by("number").values_list("number", flat=True)) == [1, 2, 3]


def test_a_swap_after_the_draw_is_released_shows_on_the_public_draw():
    """The released draw is a public page, cached by the public version: a swap must move it."""
    from django.test import Client

    from scoring.rounds.creation import round_release_draw

    event = import_archive(four_pairs_two_rounds())
    rnd = round_pair(event, "swiss")[0]
    round_release_draw(rnd)
    url = f"/events/{event.slug}/rounds/{rnd.number}/draw/"
    before = Client().get(url).content.decode()
    first, second = (rnd.tables.get(number=n).ns_entrant.code for n in (1, 2))
    round_swap_entrants(Round.objects.get(pk=rnd.pk), first, second)
    after = Client().get(url).content.decode()
    assert after != before
    table = Table.objects.get(round=rnd, number=1)
    assert table.ns_entrant.code == second
