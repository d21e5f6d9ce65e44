"""Each role × each write: only organisers and the event's referees write; the public reads published rounds."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.entry.services import deal_save
from scoring.models import Deal, Round
from tests.referee_setup import PASSWORD, board_url, example_deal, token_header

pytestmark = pytest.mark.django_db

PAGE = "/referee/t-pairs/rounds/3/tables/1/boards/1/"
FORM = {f"card-{card}": seat for seat, cards in example_deal("T1")["captured"].items() for card in cards}


def as_user(client, people, who):
    if who != "anonymous":
        client.force_login(people[who])
    return client


@pytest.fixture
def entered(event, people):
    """Board 1 of table 1 in round 3, entered by referee1."""
    from scoring.models import Table

    table = Table.objects.get(round__event=event, round__number=3, number=1)
    deal, _ = deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    return deal


WRITERS = {
    "referee1": True,
    "referee2": True,
    "organiser": True,
    "outsider": False,
    "other_referee": False,
    "anonymous": False,
}


@pytest.mark.parametrize(("who", "allowed"), WRITERS.items())
def test_saving_a_deal_from_the_entry_page(client, people, who, allowed):
    response = as_user(client, people, who).post(PAGE, FORM)
    created = Deal.objects.filter(table__round__number=3, table__round__event__slug="t-pairs").exists()
    assert created is allowed
    if who == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif not allowed:
        assert response.status_code == 403


@pytest.mark.parametrize(("who", "allowed"), WRITERS.items())
def test_confirming_a_deal(client, people, entered, who, allowed):
    response = as_user(client, people, who).post(PAGE + "confirm/", {"version": entered.version})
    entered.refresh_from_db()
    confirmed = entered.status == "confirmed"
    # referee1 entered it, so referee1 may not confirm it.
    assert confirmed is (allowed and who != "referee1")
    if who in ("outsider", "other_referee"):
        assert response.status_code == 403


@pytest.mark.parametrize(("who", "allowed"), WRITERS.items())
def test_recording_an_irregularity(client, people, entered, who, allowed):
    data = {"version": entered.version, "seat": "N", "kind": "slow_play", "penalty": "50", "ruling": "警告后仍迟缓"}
    as_user(client, people, who).post(PAGE + "irregularity/", data)
    entered.refresh_from_db()
    assert (entered.penalties == {"N": -50}) is allowed
    if allowed:
        assert entered.score_n == -210 - 50


@pytest.mark.parametrize("who", ["referee1", "organiser", "outsider", "anonymous"])
def test_the_live_preview_is_for_officials_only(client, people, who):
    response = as_user(client, people, who).post(PAGE + "preview/", FORM)
    if who in ("referee1", "organiser"):
        assert response.status_code == 200
        assert response.json()["scores"] == {"N": -210, "E": 60, "S": -60, "W": -20}
    else:
        assert response.status_code in (302, 403)


@pytest.mark.parametrize(("who", "allowed"), [("organiser", True), ("referee1", False), ("outsider", False)])
def test_publishing_and_pairing_are_for_organisers(client, people, event, who, allowed):
    from scoring.models import Event

    Event.objects.filter(pk=event.pk).update(match_length=1)  # the archive plays one board a match
    Deal.objects.filter(table__round__event=event).update(status="confirmed")
    rnd = Round.objects.get(event=event, number=2)
    Round.objects.filter(pk=rnd.pk).update(status="in_play")
    as_user(client, people, who).post("/referee/t-pairs/rounds/2/publish/")
    assert (Round.objects.get(pk=rnd.pk).status == "provisional") is allowed
    before = event.rounds.count()
    codes = list(event.entrants.values_list("code", flat=True))
    as_user(client, people, who).post(
        "/organiser/t-pairs/pair/", {"method": "roundrobin", "first_table": 1, "present": codes}
    )
    assert (event.rounds.count() == before + 1) is allowed


def test_the_api_token_of_a_referee_of_another_event_cannot_write(client, people):
    response = client.put(
        board_url(),
        data=json.dumps(example_deal()),
        content_type="application/json",
        **token_header(people["other_referee"]),
    )
    assert response.status_code == 403


def test_the_public_never_sees_an_unpublished_round(client, event, people, entered):
    Deal.objects.filter(pk=entered.pk).update(status="confirmed")
    entrant = client.get("/events/t-pairs/entrants/A/")
    assert [m["round"] for m in entrant.context["matches"]] == [1, 2]  # round 3 is scheduled
    standings = client.get("/events/t-pairs/standings/?after=3")
    assert standings.status_code == 404


def test_repeated_failed_logins_are_throttled_even_with_the_right_password(client, people):
    answers = [client.post("/accounts/login/", {"username": "referee1", "password": "wrong"}) for _ in range(5)]
    # Four wrong passwords are answered as such; the fifth locks the (username, address) out.
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 429]
    assert "15" in answers[-1].content.decode()
    blocked = client.post("/accounts/login/", {"username": "referee1", "password": PASSWORD})
    assert blocked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_good_login_works_and_clears_the_failures(client, people):
    client.post("/accounts/login/", {"username": "referee2", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "referee2", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(people["referee2"].pk)


def test_the_entry_page_refuses_a_post_without_csrf(people):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(people["referee1"])
    assert browser.post(PAGE, FORM).status_code == 403
    assert not Deal.objects.filter(table__round__number=3, table__round__event__slug="t-pairs").exists()


def test_a_provisional_round_becomes_official_only_after_the_correction_period(client, people, event):
    from scoring.rounds.publication import PublicationError, round_make_official

    rnd = Round.objects.get(event=event, number=2)
    Round.objects.filter(pk=rnd.pk).update(status="provisional", published_at=timezone.now())
    with pytest.raises(PublicationError, match="更正期"):
        round_make_official(rnd, user=people["organiser"])
    later = timezone.now() + timedelta(minutes=event.correction_minutes + 1)
    assert round_make_official(rnd, user=people["organiser"], now=later).status == "official"


def test_organisers_edit_only_their_own_events_in_the_admin(client, people, event):
    from scoring.models import Event

    client.force_login(people["organiser"])
    listing = client.get("/admin/scoring/event/")
    assert listing.status_code == 200
    assert [e.slug for e in listing.context["cl"].queryset] == ["t-pairs"]
    other = Event.objects.get(slug="other")
    assert client.get(f"/admin/scoring/event/{other.pk}/change/").status_code in (302, 404)
    assert client.get(f"/admin/scoring/event/{event.pk}/change/").status_code == 200
    client.force_login(people["referee1"])
    assert client.get("/admin/scoring/event/").status_code == 302  # not staff: sent to the admin login


def test_appeals_are_only_read_in_the_admin(client, people, event):
    """Appeals are lodged and decided on the site's pages (scoring.rulings.appeals), where a
    decision is checked against the correction made; the admin is no second path."""
    client.force_login(people["organiser"])
    assert client.get("/admin/scoring/appeal/").status_code == 200
    response = client.post(
        "/admin/scoring/appeal/add/",
        {"event": event.pk, "filed_by": "A 对", "statement": "对第 1 副的罚分有异议", "status": "upheld"},
    )
    assert response.status_code == 403
