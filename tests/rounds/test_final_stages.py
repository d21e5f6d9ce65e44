"""Final stages (issue 11): a knockout with semi-finals, final and third place, or a final
round robin of the top N, from the main part's standings, with its public page."""

import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.engine import brackets
from scoring.engine.pairing import PairingError
from scoring.engine.standings import Format, MatchResult, TableResult
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Event, Match, Round, Table
from scoring.results.standings import event_standings
from scoring.rounds.creation import round_pair
from scoring.rounds.final_stage import final_stage_start, knockout_advance, stage_summary
from scoring.rounds.publication import round_make_official, round_publish

POINT_CARDS = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2", "SQ", "DJ", "C10"]


def grand_slam(seat):
    """Every point card to one seat: 满贯, a big positive score for that seat's side."""
    return {"captured": {s: (POINT_CARDS if s == seat else []) for s in "NESW"}}


# --- pure ------------------------------------------------------------------------------------


def test_bracket_positions_keep_the_top_seeds_apart_until_the_final():
    assert brackets.bracket_positions(4) == [1, 4, 2, 3]
    assert brackets.bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_the_first_knockout_round_seats_the_higher_seed_ns():
    tables, label = brackets.knockout_first_round(["s1", "s2", "s3", "s4"])
    assert tables == [("s1", "s4"), ("s2", "s3")] and label == "semi_final"
    tables, label = brackets.knockout_first_round([f"s{n}" for n in range(1, 9)])
    assert tables == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")] and label == "quarter_final"
    with pytest.raises(PairingError):
        brackets.knockout_first_round(["a", "b", "c"])


def played(home, away, home_total, away_total):
    table = TableResult(ns=home, ew=away, ns_total=home_total, ew_total=away_total, deal_count=1)
    return MatchResult(round=1, home=home, away=away, tables=[table])


def test_a_knockout_match_goes_on_match_points_then_difference_then_seed():
    fmt = Format(length=1)
    seeds = {"a": 1, "b": 2}
    assert brackets.match_outcome(fmt, played("a", "b", -50, 300), seeds).winner == "b"
    tied = brackets.match_outcome(fmt, played("b", "a", 100, 100), seeds)
    assert (tied.winner, tied.decided_by) == ("a", "seed")


def test_semi_finals_lead_to_a_final_and_a_match_for_third_place():
    seeds = {c: n for n, c in enumerate(["s1", "s2", "s3", "s4"], start=1)}
    semis = [played("s1", "s4", -100, 200), played("s2", "s3", 300, 0)]
    assert brackets.knockout_next_round(Format(length=1), semis, seeds) == [
        ("s2", "s4", "final"),
        ("s1", "s3", "third_place"),
    ]


def test_quarter_finals_lead_to_semi_finals_in_bracket_order():
    seeds = {f"s{n}": n for n in range(1, 9)}
    quarters = [
        played("s1", "s8", 10, 0),
        played("s4", "s5", 0, 10),
        played("s2", "s7", 10, 0),
        played("s3", "s6", 10, 0),
    ]
    assert brackets.knockout_next_round(Format(length=1), quarters, seeds) == [
        ("s1", "s5", "semi_final"),
        ("s2", "s3", "semi_final"),
    ]


def test_a_final_round_robin_meets_everyone_once():
    rounds = brackets.final_round_robin(["a", "b", "c", "d", "e"])
    meetings = [frozenset(pair) for r in rounds for pair in r if None not in pair]
    assert len(rounds) == 5 and len(meetings) == len(set(meetings)) == 10


# --- through the database ---------------------------------------------------------------------------


def play(rnd, people, winners):
    """Enter and confirm board 1 of every table: `winners[table number]` is "NS" or "EW"."""
    for table in Table.objects.filter(round=rnd).order_by("number"):
        deal, _ = deal_save(
            table=table,
            board=1,
            deal_json=grand_slam("N" if winners.get(table.number, "NS") == "NS" else "E"),
            user=people["referee1"],
        )
        deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)


def publish(rnd, people):
    round_publish(rnd, user=people["organiser"])
    Event.objects.filter(pk=rnd.event_id).update(correction_minutes=0)
    rnd.refresh_from_db()
    round_make_official(rnd, user=people["organiser"])


@pytest.fixture
def swiss_done(event, people):
    """t-pairs with one board a match and round 3 played and official."""
    Event.objects.filter(pk=event.pk).update(match_length=1)
    event.refresh_from_db()
    rnd = event.rounds.get(number=3)
    play(rnd, people, {})
    publish(rnd, people)
    return event


@pytest.mark.django_db
def test_a_knockout_from_the_standings_to_the_final_placings(swiss_done, people, client):
    event = swiss_done
    seeds = [row.id for row in event_standings(event)][:4]
    (semis,) = final_stage_start(event, "knockout", 4, user=people["organiser"])
    tables = [(t.ns_entrant.code, t.ew_entrant.code) for t in semis.tables.order_by("number")]
    assert tables == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    assert set(Match.objects.filter(round=semis).values_list("label", flat=True)) == {"semi_final"}
    with pytest.raises(PairingError):
        round_pair(event, "swiss")  # the main part is closed
    play(semis, people, {1: "EW", 2: "NS"})  # seed 4 beats seed 1; seed 2 beats seed 3
    publish(semis, people)
    final_round = knockout_advance(event, user=people["organiser"])
    pairs = {m.label: (m.home.code, m.away.code) for m in Match.objects.filter(round=final_round)}
    assert pairs == {"final": (seeds[1], seeds[3]), "third_place": (seeds[0], seeds[2])}
    play(final_round, people, {1: "NS", 2: "EW"})
    publish(final_round, people)
    summary = stage_summary(event)
    assert summary["placings"] == [(1, seeds[1]), (2, seeds[3]), (3, seeds[2]), (4, seeds[0])]
    # The main part's standings are not changed by the final stage.
    assert [row.played for row in event_standings(event)] == [3] * 4
    page = client.get("/events/t-pairs/final/")
    assert page.status_code == 200 and 'id="placings"' in page.content.decode()
    with pytest.raises(PairingError):
        knockout_advance(event)


@pytest.mark.django_db
def test_the_final_stage_is_public_only_as_far_as_released(swiss_done, people, client):
    final_stage_start(swiss_done, "knockout", 4, user=people["organiser"])
    summary = client.get("/events/t-pairs/final/").context["stage"]
    assert summary["rounds"] == []  # paired, draw not released yet


@pytest.mark.django_db
def test_a_final_round_robin_of_the_top_three(swiss_done, people):
    created = final_stage_start(swiss_done, "final_round_robin", 3, user=people["organiser"])
    assert len(created) == 3 and all(r.stage == "final_round_robin" for r in created)
    finalists = {row.id for row in event_standings(swiss_done)[:3]}
    for rnd in created:
        seated = {t.ns_entrant.code for t in rnd.tables.all()} | {t.ew_entrant.code for t in rnd.tables.all()}
        assert seated <= finalists and len(seated) == 2


@pytest.mark.django_db
def test_a_final_stage_waits_for_the_main_part_to_finish(event, people):
    with pytest.raises(PairingError) as caught:
        final_stage_start(event, "knockout", 4, user=people["organiser"])
    assert caught.value.code == "round_unfinished"


@pytest.mark.django_db
def test_final_stage_rounds_and_labels_round_trip_through_the_archive(swiss_done, people):
    final_stage_start(swiss_done, "knockout", 4, user=people["organiser"])
    archive = export_archive(swiss_done)
    assert archive["rounds"][-1]["stage"] == "knockout"
    assert {m["label"] for m in archive["rounds"][-1]["matches"]} == {"semi_final"}
    copy = import_archive(json.loads(json.dumps({**archive, "event": {**archive["event"], "slug": "copy"}})))
    assert Round.objects.get(event=copy, number=4).stage == "knockout"
    assert export_archive(copy)["rounds"] == archive["rounds"]


@pytest.mark.django_db
def test_the_organiser_starts_and_advances_the_final_stage_from_the_console(swiss_done, people, client):
    client.force_login(people["organiser"])
    client.post("/organiser/t-pairs/final/", {"kind": "knockout", "size": 4})
    semis = Round.objects.get(event=swiss_done, number=4)
    assert semis.stage == "knockout"
    play(semis, people, {})
    publish(semis, people)
    client.post("/organiser/t-pairs/final/next/")
    assert set(Match.objects.filter(round__number=5).values_list("label", flat=True)) == {"final", "third_place"}


@pytest.mark.django_db
def test_after_a_knockout_the_awards_follow_its_placings(swiss_done, people, client):
    """The end-of-event page (issue 21): seed 4 beats seed 1 and seed 2 beats seed 3
    in the semi-finals; seed 2 (NS) wins the final, seed 3 (EW) the match for third place."""
    event = swiss_done
    seeds = [row.id for row in event_standings(event)][:4]
    client.force_login(people["organiser"])
    (semis,) = final_stage_start(event, "knockout", 4, user=people["organiser"])
    play(semis, people, {1: "EW", 2: "NS"})
    publish(semis, people)
    page = client.get("/organiser/t-pairs/end/")
    assert page.context["stage_undecided"] is True and page.context["awards"] == []
    final_round = knockout_advance(event, user=people["organiser"])
    play(final_round, people, {1: "NS", 2: "EW"})
    publish(final_round, people)
    page = client.get("/organiser/t-pairs/end/?places=4")
    called = [(place, [row["id"] for row in rows]) for place, rows in page.context["awards"]]
    assert called == [(4, [seeds[0]]), (3, [seeds[2]]), (2, [seeds[3]]), (1, [seeds[1]])]
    assert [(row["id"], row["rank"]) for row in page.context["rows"]] == [
        (seeds[1], 1),
        (seeds[3], 2),
        (seeds[2], 3),
        (seeds[0], 4),
    ]
