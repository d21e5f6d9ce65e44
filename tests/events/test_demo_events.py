"""`manage.py load_demo` loads both demo events — 华牌 pairs and a small 蚌埠斗地主 event — with
the demo users' roles on each; idempotent; the 斗地主 demo's deals are valid and its standings
rank by table points."""

from io import StringIO

import pytest
from django.core.management import call_command

from scoring.events.demo import DEMO_EVENTS, DEMO_SLUG
from scoring.models import Deal, Event, EventRole
from scoring.results.standings import event_standings

pytestmark = pytest.mark.django_db


def test_load_demo_loads_every_demo_event_once():
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert set(Event.objects.values_list("slug", flat=True)) == set(DEMO_EVENTS)
    assert out.getvalue().count(": loaded") == len(DEMO_EVENTS)
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert again.getvalue().count("already present") == len(DEMO_EVENTS)
    ddz = Event.objects.get(slug="demo-bengbu-doudizhu-2026")
    assert ddz.game == "bengbu-doudizhu" and ddz.kind == "individual" and ddz.match_length == 8
    assert EventRole.objects.filter(event=ddz, user__username="referee1", role="referee").exists()
    deals = Deal.objects.filter(table__round__event=ddz)
    assert deals.count() == 2 * 8 * 2 + 2 * 5 and all(d.game_data is not None for d in deals)
    assert all(sum(d.scores.values()) == 0 for d in deals)  # §1.4 B7: every deal is zero-sum
    rows = event_standings(ddz)
    assert len(rows) == 8 and rows[0].by_table_points
    assert Event.objects.get(slug=DEMO_SLUG).game == "huapai"


def test_the_shengji_demo_is_a_pairs_event_whose_matches_the_engine_decides():
    from scoring.games.shengji import shengji_match
    from scoring.games.stored import event_rules

    call_command("load_demo", stdout=StringIO())
    event = Event.objects.get(slug="demo-shengji-2026")
    assert event.game == "shengji" and event.kind == "pairs" and event.match_length == 40
    assert EventRole.objects.filter(event=event, user__username="referee1", role="referee").exists()
    rules = event_rules(event)
    rows = {row.id: row for row in event_standings(event, published_only=True)}
    wins = 0
    for table in event.rounds.get(number=1).tables.all():
        deals = [d.game_data for d in table.deals.order_by("board")]
        result = shengji_match(deals, rules)
        # Every match of a played round ran from A past K (M2): one side above 13, the winner.
        assert result["finished"] and max(result["state"]["levels"].values()) > 13
        wins += 1
        winner = table.ns_entrant if result["winner"] == "NS" else table.ew_entrant
        assert rows[winner.code].match_points >= 2
    assert wins == 3 and len(rows) == 6
    assert sum(row.match_points for row in rows.values()) == 2 * 6  # two official rounds of three matches


def test_the_paohuzi_demo_is_tables_of_three_with_a_player_sitting_out_each_round():
    from scoring.models import Match, Table

    call_command("load_demo", stdout=StringIO())
    phz = Event.objects.get(slug="demo-paohuzi-2026")
    assert phz.game == "paohuzi" and phz.kind == "individual" and phz.match_length == 9
    assert EventRole.objects.filter(event=phz, user__username="referee1", role="referee").exists()
    tables = Table.objects.filter(round__event=phz)
    assert tables.count() == 6 and not tables.filter(north__isnull=False).exists()
    byes = list(Match.objects.filter(round__event=phz, bye__isnull=False).values_list("bye__code", flat=True))
    assert len(byes) == 3 and len(set(byes)) == 3  # one a round, never the same player twice
    deals = Deal.objects.filter(table__round__event=phz)
    assert deals.count() == 2 * 9 * 2 + 2 * 4 and all(d.game_data is not None for d in deals)
    assert all(sum(d.scores.values()) == 0 and d.scores["N"] == 0 for d in deals)  # §3.4 P7, North empty
    assert len(event_standings(phz)) == 7
