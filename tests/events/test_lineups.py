"""Team line-ups per 节 (issue 11): substitutions between sessions, never under a result."""

import json

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.entry.services import deal_save
from scoring.events.lineups import LineUpError, lineup_set, seats_for, session_of
from scoring.models import Event, Match, Round, Table
from tests.archives import team_match
from tests.referee_setup import example_deal, make_user

pytestmark = pytest.mark.django_db


def test_boards_are_split_evenly_into_sessions():
    assert [session_of(b, 16, 2) for b in (1, 8, 9, 16)] == [1, 1, 2, 2]
    assert [session_of(b, 16, 3) for b in range(1, 17)] == [1] * 6 + [2] * 5 + [3] * 5
    assert session_of(5, 4, 1) == 1


@pytest.fixture
def teams():
    """X (p01–p04 and a reserve p09) v Y; four boards in two 节; nothing entered."""
    archive = team_match([], [], boards=4)
    archive["players"].append({"id": "p09", "name": "替补"})
    archive["teams"][0]["players"].append("p09")
    event = import_archive(archive)
    Round.objects.filter(event=event).update(sessions=2)
    return event


def seats(x_ns, y_ew, y_ns, x_ew):
    return {
        1: {"N": x_ns[0], "S": x_ns[1], "E": y_ew[0], "W": y_ew[1]},
        2: {"N": y_ns[0], "S": y_ns[1], "E": x_ew[0], "W": x_ew[1]},
    }


def test_a_substitution_from_the_second_session_seats_the_reserve_for_its_boards_only(teams):
    match = Match.objects.get(round__event=teams)
    lineup_set(match, 2, seats(["p01", "p02"], ["p05", "p06"], ["p07", "p08"], ["p09", "p04"]))
    table_two = Table.objects.get(round__event=teams, number=2)
    assert seats_for(table_two, 2, teams)["E"].code == "p03"  # 节 1: boards 1–2
    assert seats_for(table_two, 3, teams)["E"].code == "p09"  # 节 2: boards 3–4


def test_a_line_up_is_refused_once_its_session_has_a_result(teams):
    match = Match.objects.get(round__event=teams)
    table_one = Table.objects.get(round__event=teams, number=1)
    referee = make_user("ref", "referee", teams)
    deal_save(table=table_one, board=3, deal_json=example_deal(), user=referee)
    with pytest.raises(LineUpError) as caught:
        lineup_set(match, 2, seats(["p01", "p02"], ["p05", "p06"], ["p07", "p08"], ["p09", "p04"]))
    assert caught.value.code == "session_started"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (seats(["p05", "p02"], ["p01", "p06"], ["p07", "p08"], ["p03", "p04"]), "not_a_member"),
        (seats(["p01", "p02"], ["p05", "p06"], ["p07", "p08"], ["p01", "p04"]), "seated_twice"),
    ],
)
def test_a_player_sits_for_their_own_team_and_once(teams, change, code):
    with pytest.raises(LineUpError) as caught:
        lineup_set(Match.objects.get(round__event=teams), 1, change)
    assert caught.value.code == code


def test_line_ups_round_trip_through_the_archive(teams):
    match = Match.objects.get(round__event=teams)
    lineup_set(match, 2, seats(["p09", "p02"], ["p05", "p06"], ["p07", "p08"], ["p03", "p04"]))
    archive = export_archive(teams)
    table_one = archive["rounds"][0]["matches"][0]["tables"][0]
    assert table_one["lineups"] == [{"session": 2, "ns": ["p09", "p02"], "ew": ["p05", "p06"]}]
    copy = import_archive(json.loads(json.dumps({**archive, "event": {**archive["event"], "slug": "copy"}})))
    assert export_archive(copy)["rounds"] == archive["rounds"]


def test_the_organiser_sets_a_line_up_and_the_entry_page_names_the_players(client, teams):
    organiser = make_user("boss", "organiser", teams)
    client.force_login(organiser)
    page = client.get("/organiser/t-teams/rounds/1/matches/1/lineup/?session=2")
    assert page.status_code == 200
    data = {"session": 2, "t1-N": "p01", "t1-S": "p02", "t1-E": "p05", "t1-W": "p06"}
    data.update({"t2-N": "p07", "t2-S": "p08", "t2-E": "p09", "t2-W": "p04"})
    client.post("/organiser/t-teams/rounds/1/matches/1/lineup/", data)
    entry = client.get("/referee/t-teams/rounds/1/tables/2/boards/4/").content.decode()
    assert "E 替补" in entry
    assert "替补" not in client.get("/referee/t-teams/rounds/1/tables/2/boards/1/").content.decode()
    assert Event.objects.get(pk=teams.pk).rounds.get().pairing_log.filter(action="lineup").count() == 1
