"""Per-player statistics (scoring/games/huapai/player_stats.py), worked by hand from shared/rules/README.md."""

import pytest

from scoring.archive.database import import_archive
from scoring.games.huapai import card_label, rules_for
from scoring.games.huapai.player_stats import PlayerStats, deal_statistics, exposures_by_seat, without_exposures_of
from tests.archives import EXAMPLES, pairs_archive
from tests.archives import deal as example_deal

HEARTS = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"]
SEATS = {"N": "n", "E": "e", "S": "s", "W": "w"}


def test_an_exposed_pig_taken_by_its_holder_costs_his_side_what_the_exposure_doubled():
    """N takes ♠Q, which he held and showed (明): −100 ×2 明 ×2 自得 = −400; without the
    exposure −100 ×2 自得 = −200. E ♦J +100, S ♣10 alone +50, W 全红 +200.
    Margin NS−EW: (−400 + 50) − (100 + 200) = −650 against −450 without: a gain of −200."""
    deal = {
        "captured": {"N": ["SQ"], "E": ["DJ"], "S": ["C10"], "W": HEARTS},
        "holders": {"SQ": "N"},
        "exposed": {"SQ": "shown"},
        "penalties": {},
    }
    stats = deal_statistics(rules_for("huapai"), deal, None, SEATS)
    assert stats["n"] == PlayerStats(deals=1, pigs=1, exposures=1, exposure_gain=-200)
    assert stats["e"] == PlayerStats(deals=1, goats=1)
    assert stats["s"] == PlayerStats(deals=1, transformers=1)
    assert stats["w"] == PlayerStats(deals=1, all_hearts=1)


def test_a_goat_first_exposed_and_taken_by_the_opponents_is_a_loss_for_the_exposer():
    """E held ♦J and first-exposed it (首明 ×4); N takes it: +400 instead of +100.
    E's margin EW−NS: (−100 + 200) − (400 + 50) = −350 against −50 without: −300."""
    deal = {
        "captured": {"N": ["DJ"], "E": ["SQ"], "S": ["C10"], "W": HEARTS},
        "holders": {"DJ": "E"},
        "exposed": {"DJ": "first"},
        "penalties": {},
    }
    stats = deal_statistics(rules_for("huapai"), deal, None, SEATS)
    assert stats["e"].exposures == 1 and stats["e"].exposure_gain == -300
    assert stats["n"].exposures == 0 and stats["n"].exposure_gain == 0 and stats["n"].goats == 1


def test_a_grand_slam_counts_its_cards_and_an_adjusted_deal_no_gain():
    deal = {"captured": {"N": [*HEARTS, "SQ", "DJ", "C10"], "E": [], "S": [], "W": []}, "holders": {}}
    deal |= {"exposed": {}, "penalties": {}}
    stats = deal_statistics(rules_for("huapai"), deal, None, SEATS)
    assert stats["n"].grand_slams == 1 and (stats["n"].pigs, stats["n"].goats, stats["n"].transformers) == (1, 1, 1)
    exposed = {**deal, "holders": {"SQ": "N"}, "exposed": {"SQ": "shown"}}
    adjusted = deal_statistics(rules_for("huapai"), exposed, {"N": 100, "E": 0, "S": 0, "W": -100}, SEATS)
    assert adjusted["n"].exposures == 1 and adjusted["n"].exposure_gain == 0


def test_with_two_decks_each_exposed_copy_belongs_to_its_holder():
    holders = {"SQ": ["N", "E"], "DJ": ["S", "W"]}
    exposed = {"SQ": ["shown", "first"], "DJ": ["shown"]}
    assert exposures_by_seat(holders, exposed) == {"N": [("SQ", 0)], "E": [("SQ", 1)], "S": [("DJ", 0)]}
    without_n = without_exposures_of({"holders": holders, "exposed": exposed}, "N")
    # E's exposure stays E's: the holders are reordered with the exposures they still have.
    assert without_n["exposed"] == {"SQ": ["first"], "DJ": ["shown"]}
    assert without_n["holders"]["SQ"] == ["E", "N"]
    assert exposures_by_seat(without_n["holders"], without_n["exposed"]) == {"E": [("SQ", 0)], "S": [("DJ", 0)]}


@pytest.mark.django_db
def test_the_statistics_page_and_the_entrant_page_show_the_counts(client):
    """A one-deal event with the first deal above: the page lists each player's counts."""
    deal = {
        "board": 1,
        "captured": {"N": ["SQ"], "E": ["DJ"], "S": ["C10"], "W": HEARTS},
        "holders": {"SQ": "N"},
        "exposed": {"SQ": "shown"},
        "penalties": {},
    }
    archive = pairs_archive(
        ["A", "B"],
        [{"number": 1, "status": "official", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [deal]}]}],
    )
    event = import_archive(archive)
    page = client.get(f"/events/{event.slug}/statistics/?sort=exposures")
    assert page.status_code == 200
    rows = page.text.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    # The player who exposed comes first, with 1 deal, 1 pig, 1 exposure and a gain of −200.
    north = archive["players"][0]
    assert north["name"] in rows[0]
    cells = [cell.split(">")[-1] for cell in rows[0].split("</td>")[1:-1]]
    assert cells == ["1", "1", "0", "0", "0", "0", "1", "-200"]
    entrant = client.get(f"/events/{event.slug}/entrants/A/").text
    assert 'id="player-statistics"' in entrant and "-200" in entrant.split('id="player-statistics"')[1]


def _three_round_event():
    """Four pairs, three official rounds of shared examples (exposures included)."""
    names = [
        name
        for name, example in EXAMPLES.items()
        if example["deal"]["ruleset"] == "huapai" and "options" not in example["deal"]
    ]
    rounds = []
    for number, (ns1, ew1, ns2, ew2) in enumerate([("A", "B", "C", "D"), ("A", "C", "B", "D"), ("D", "A", "C", "B")]):
        boards = [example_deal(names[(number * 5 + i) % len(names)], i + 1) for i in range(4)]
        tables = [
            {"table": 1, "ns": ns1, "ew": ew1, "deals": boards},
            {"table": 2, "ns": ns2, "ew": ew2, "deals": boards},
        ]
        rounds.append({"number": number + 1, "status": "official", "matches": tables})
    return import_archive(pairs_archive(["A", "B", "C", "D"], rounds, length=4))


@pytest.mark.django_db
def test_after_the_warm_up_an_entrants_page_reads_its_players_figures_without_scoring_a_deal(client, monkeypatch):
    import scoring.results.records
    import scoring.results.statistics
    from scoring.cache.warmup import warm_event
    from scoring.models import Entrant

    event = _three_round_event()
    computed = {}
    for entrant in Entrant.objects.filter(event=event):
        record = scoring.results.records.entrant_record(event, entrant.code)  # cold: over its own tables
        computed[entrant.code] = {player.code: stats for player, stats in record["statistics"]}
    assert any(stats.exposures for figures in computed.values() for stats in figures.values())
    warm_event(event)

    def no_scoring(*args, **kwargs):
        raise AssertionError("an entrant's page scored deals after the warm-up")

    monkeypatch.setattr(scoring.results.statistics, "player_statistics", no_scoring)
    for code, figures in computed.items():
        record = scoring.results.records.entrant_record(event, code)
        assert {player.code: stats for player, stats in record["statistics"]} == figures
    assert client.get(f"/events/{event.slug}/entrants/A/").status_code == 200


@pytest.mark.django_db
def test_an_entrants_deal_rows_escape_what_officials_wrote_and_print_every_cell(client):
    """The rows written by hand (scoring.templatetags.huapai.deal_rows): the board's link, 局,
    four seats, both sides, exposures with red suits, penalties and an adjustment's reason."""
    shown = example_deal("T5", 1)
    assert EXAMPLES["T5"]["deal"]["ruleset"] == "huapai" and EXAMPLES["T5"]["deal"]["exposed"]
    adjusted = {**example_deal("T1", 2), "penalties": {"E": -50}}
    adjusted |= {"adjusted": {"N": 100, "E": -100, "S": 0, "W": 0}, "adjusted_reason": '<script>alert("x")</script>'}
    archive = pairs_archive(
        ["A", "B"],
        [
            {
                "number": 1,
                "status": "official",
                "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [shown, adjusted]}],
            }
        ],
        length=2,
    )
    event = import_archive(archive)
    page = client.get(f"/events/{event.slug}/entrants/B/").text
    rows = page.split('<table class="deals">')[1].split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == 2
    assert f'href="/events/{event.slug}/rounds/1/boards/1/">1</a>' in rows[0]
    assert f'href="/events/{event.slug}/rounds/1/boards/2/">2</a>' in rows[1]
    cells = [cell.split(">")[-1] for cell in rows[1].split("</td>")[:8]]
    # 调整分 N +100, E −100 and its −50 penalty: E −150; NS 100, EW −150.
    assert cells[2:] == ["100", "-150", "0", "0", "100", "-150"]
    assert "罚分 E -50" in rows[1]
    assert "<script>" not in page and "调整分：&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in rows[1]
    words = {"shown": "明", "first": "首明"}
    plain = rows[0].replace('<span class="red">', "").replace("</span>", "")
    for card, kind in shown["exposed"].items():
        assert f"{card_label(card)}{words[kind]} " in plain
