"""Two decks and per-event options end to end: archive import, standings, API, exports, round trip.

Every expected figure is read from shared/rules/examples.json (worked by hand), never from the site.
"""

import copy

import pytest

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.archive.format import ArchiveError
from scoring.models import Deal
from scoring.results.standings_json import standings_json
from tests.archives import EXAMPLES, deal, pairs_archive
from tests.referee_setup import board_url, make_user, token_header
from tests.workbooks import sheet_rows

pytestmark = pytest.mark.django_db

TWO_DECK_TABLES = {1: ("A", "B", ["D1", "D2", "D3"]), 2: ("C", "D", ["D4", "D5", "D6"])}


def two_deck_archive(slug="t-2deck"):
    matches = [
        {"table": t, "ns": ns, "ew": ew, "deals": [deal(name, b) for b, name in enumerate(names, start=1)]}
        for t, (ns, ew, names) in TWO_DECK_TABLES.items()
    ]
    archive = pairs_archive(
        ["A", "B", "C", "D"],
        [
            {"number": 1, "matches": matches},
            {
                "number": 2,
                "matches": [
                    {"table": 1, "ns": "A", "ew": "C", "deals": []},
                    {"table": 2, "ns": "B", "ew": "D", "deals": []},
                ],
            },
        ],
        slug=slug,
        length=3,
    )
    archive["event"]["ruleset"] = "online-2deck"
    return archive


def hand_totals():
    totals = {}
    for ns, ew, names in TWO_DECK_TABLES.values():
        ns_total = sum(EXAMPLES[name]["expected"]["sides"]["NS"] for name in names)
        ew_total = sum(EXAMPLES[name]["expected"]["sides"]["EW"] for name in names)
        totals[ns], totals[ew] = ns_total, ew_total
    return totals


def test_a_two_deck_event_imports_and_ranks_by_the_hand_worked_totals():
    event = import_archive(two_deck_archive())
    rows = {row["id"]: row for row in standings_json(event)["rows"]}
    totals = hand_totals()
    for code, total in totals.items():
        assert rows[code]["total_score"] == total
    # D1 + D2 + D3 NS: −1786 + −8346 + 267; the EW side has the opposite sign.
    assert rows["A"]["score_difference"] == totals["A"] - totals["B"]


def test_stored_two_deck_deals_keep_their_raw_scores_and_copies():
    event = import_archive(two_deck_archive())
    stored = Deal.objects.get(table__round__event=event, table__round__number=1, table__number=1, board=1)
    assert stored.raw == EXAMPLES["D1"]["expected"]["raw"]
    assert stored.scores == EXAMPLES["D1"]["expected"]["scores"]
    assert stored.game_data["captured"]["N"].count("C10") == 2
    assert stored.game_data["exposed"]["SQ"] == ["shown", "shown"]


def test_a_two_deck_archive_round_trips():
    event = import_archive(two_deck_archive())
    exported = export_archive(event)
    assert exported["event"]["ruleset"] == "online-2deck"
    again = import_archive(dict(exported, event={**exported["event"], "slug": "t-2deck-copy"}))
    assert standings_json(again)["rows"] == standings_json(event)["rows"]


def test_a_two_deck_deal_in_a_one_deck_event_is_refused_naming_the_card():
    archive = two_deck_archive()
    archive["event"]["ruleset"] = "huapai"
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    assert "第1轮 1号桌 第1副" in str(caught.value) and "duplicate_card" in str(caught.value)


@pytest.mark.parametrize(
    ("example", "ruleset", "options"),
    [
        ("O1", "huapai", {"first_exposure": False}),
        ("O2", "huapai", {"self_capture": False}),
        ("Z2", "online", {"normalisation": "partnership"}),
    ],
)
def test_event_options_score_every_deal_and_round_trip(example, ruleset, options):
    assert EXAMPLES[example]["deal"]["options"] == options  # the example is the event's rules
    archive = pairs_archive(["A", "B"], [{"number": 1, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}])
    archive["event"].update(ruleset=ruleset, options=options)
    source = deal(example, 1)
    source.pop("options")
    archive["rounds"][0]["matches"][0]["deals"] = [source]
    event = import_archive(archive)
    assert event.options == options
    stored = Deal.objects.get(table__round__event=event)
    assert stored.scores == EXAMPLES[example]["expected"]["scores"]
    assert stored.raw == EXAMPLES[example]["expected"]["raw"]
    rows = {row["id"]: row for row in standings_json(event)["rows"]}
    assert rows["A"]["total_score"] == EXAMPLES[example]["expected"]["sides"]["NS"]
    assert export_archive(event)["event"]["options"] == options


@pytest.mark.parametrize("options", [{"scale": 0}, {"first_exposure": "no"}, {"colour": "red"}, ["scale"]])
def test_bad_event_options_are_refused_on_import(options):
    archive = two_deck_archive()
    archive["event"]["options"] = options
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    assert "options" in str(caught.value)


def test_the_api_enters_a_two_deck_deal_and_answers_raw_and_final_scores(client):
    event = import_archive(two_deck_archive())
    referee = make_user("referee1", "referee", event)
    body = copy.deepcopy(EXAMPLES["D2"]["deal"])
    body.pop("ruleset")
    response = client.put(board_url("t-2deck", 2, 1, 1), body, content_type="application/json", **token_header(referee))
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["scores"] == EXAMPLES["D2"]["expected"]["scores"]
    assert data["raw"] == EXAMPLES["D2"]["expected"]["raw"]
    assert data["exposed"]["C10"] == ["shown", "shown"]


def test_the_api_ignores_options_in_a_deal_body_the_events_rules_apply(client):
    archive = pairs_archive(
        ["A", "B"], [{"number": 1, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}], slug="t-pairs"
    )
    event = import_archive(archive)
    referee = make_user("referee1", "referee", event)
    body = copy.deepcopy(EXAMPLES["O1"]["deal"])  # options: first_exposure false — not this event's rules
    body.pop("ruleset")
    response = client.put(board_url("t-pairs", 1, 1, 1), body, content_type="application/json", **token_header(referee))
    assert response.status_code == 201
    # huapai as the event has it: the 首明 pig ×4, with the ♣10 ×2: −800 (O1 with the option gives −400).
    assert response.json()["raw"]["N"] == -800


def test_results_xlsx_reports_raw_and_final_scores_of_two_deck_deals(client):
    import_archive(two_deck_archive())
    response = client.get("/events/t-2deck/results.xlsx")
    assert response.status_code == 200
    rows = sheet_rows(response, "每副成绩")
    assert len(rows) == 6
    for row in rows:
        names = TWO_DECK_TABLES[row["桌"]][2]
        expected = EXAMPLES[names[row["副"] - 1]]["expected"]
        assert [row[f"{s} 原始分"] for s in "NESW"] == [expected["raw"][s] for s in "NESW"]
        assert [row[f"{s} 得分"] for s in "NESW"] == [expected["scores"][s] for s in "NESW"]


def test_the_event_page_states_the_rules_in_force(client):
    archive = two_deck_archive()
    archive["event"]["options"] = {"scale": 3}
    import_archive(archive)
    text = client.get("/events/t-2deck/").content.decode()
    assert "两副牌（拱双猪）" in text and "零和归一，×3" in text and "首明按明计" in text


def test_the_traveller_shows_raw_scores_for_a_normalised_event(client):
    import_archive(two_deck_archive())
    text = client.get("/events/t-2deck/rounds/1/boards/1/").content.decode()
    assert str(EXAMPLES["D1"]["expected"]["raw"]["N"]) in text  # −3200 before zero-sum
    assert str(EXAMPLES["D1"]["expected"]["scores"]["N"]) in text


def test_an_event_refuses_unknown_or_bad_options():
    from django.core.exceptions import ValidationError

    from scoring.models import Event

    event = Event(slug="x", name="x", ruleset="huapai", options={"scale": 1000})
    with pytest.raises(ValidationError) as caught:
        event.clean()
    assert "options" in caught.value.message_dict
    Event(slug="y", name="y", ruleset="online", options={"normalisation": "partnership", "scale": 6}).clean()
