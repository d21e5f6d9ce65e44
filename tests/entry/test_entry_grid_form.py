"""Every field of the entry grid goes through a Django form: a value the grid does not offer is
refused with a message naming the card, nothing is stored, and no posted field — however
hostile — gives a server error."""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.entry.game_fields import game_fields
from scoring.entry.grid import form_from_deal
from scoring.games import get_game
from scoring.models import Deal
from scoring.web.forms import GameDealForm
from tests.conftest import scaled_examples
from tests.referee_setup import example_deal

pytestmark = pytest.mark.django_db

URL = "/referee/t-pairs/rounds/3/tables/1/boards/1/"
PREVIEW = URL + "preview/"


class Stored:
    """A deal shaped as `form_from_deal` reads it."""

    def __init__(self, deal):
        self.game_data = {key: deal.get(key, {}) for key in ("captured", "holders", "exposed", "penalties")}
        self.penalties = deal.get("penalties", {})
        self.adjusted = None
        self.adjusted_reason = ""


def grid_values(name="T1"):
    return form_from_deal(Stored(example_deal(name)))


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [("card-SQ", "X", "♠Q"), ("holder-SQ", "北", "♠Q 的持有者"), ("exposed-HA", "open", "♥A 的亮牌")],
)
def test_a_value_the_grid_does_not_offer_is_refused_naming_the_card(event, people, field, value, named):
    client = Client()
    client.force_login(people["referee1"])
    response = client.post(URL, {**grid_values(), field: value})
    assert response.status_code == 400
    assert named in response.content.decode()
    assert not Deal.objects.filter(table__round__number=3, table__number=1, board=1).exists()


def test_a_valid_grid_is_saved_as_the_engine_scores_it(event, people):
    client = Client()
    client.force_login(people["referee1"])
    response = client.post(URL, grid_values(), follow=True)
    assert response.status_code == 200
    deal = Deal.objects.get(table__round__number=3, table__number=1, board=1)
    expected = example_deal("T1")["captured"]
    assert {seat: sorted(cards) for seat, cards in deal.game_data["captured"].items()} == {
        seat: sorted(cards) for seat, cards in expected.items()
    }


def _grid_form(ruleset):
    """The entry form of 华牌 as every game's is built: its fields, the card grid among them."""
    game = get_game()
    rules = game.rules(ruleset)
    return GameDealForm(fields=game_fields(game, rules), seats=game.seats, grid=game.entry_grid(rules))


def test_the_form_has_a_field_for_every_copy_with_two_decks():
    one = _grid_form("huapai")
    two = _grid_form("online-2deck")
    assert {"card-SQ", "holder-SQ", "exposed-SQ"} <= set(one.fields) and "card-SQ-2" not in one.fields
    assert {"card-SQ-2", "holder-SQ-2", "exposed-SQ-2"} <= set(two.fields)


FIELDS = st.sampled_from(
    ["card-SQ", "card-HA", "card-H2-2", "holder-DJ", "exposed-C10", "penalty-N", "adjusted-E", "version", "x\x00"]
)
VALUES = st.one_of(st.sampled_from(["N", "E", "first", "shown", "-5", "9" * 30, ""]), st.text(max_size=20))


@settings(max_examples=scaled_examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(posted=st.dictionaries(FIELDS, VALUES, max_size=8))
def test_no_posted_grid_gives_a_server_error(event, people, posted):
    client = Client()
    client.force_login(people["referee1"])
    for url in (URL, PREVIEW):
        response = client.post(url, {**grid_values(), **posted})
        assert response.status_code < 500
