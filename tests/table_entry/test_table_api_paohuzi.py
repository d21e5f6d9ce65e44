"""The table link at a 跑胡子 table of three (E, S, W; North empty): a player enters the game's
deal with his code, any other player at the table verifies, the writer may not, a player sitting
the round out has no code here, and the table is signed off when all three have signed
(docs/organising.md). Expected scores are the law's worked examples (examples.json)."""

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.models import Entrant, Table
from tests.archives import PAOHUZI, game_examples, paohuzi_archive
from tests.table_entry.test_table_api import Table_, error_code

pytestmark = pytest.mark.django_db

EXAMPLES = game_examples(PAOHUZI)
# Table 1 of the archive: p01 E, p02 S, p03 W; p07 sits the round out.
SEAT_OF = {"E": "p01", "S": "p02", "W": "p03"}
NAMES = ("PHZ01", "PHZ13", "PHZ05")


@pytest.fixture
def event():
    archive = paohuzi_archive(tables={1: (), 2: ()}, status="in_play")
    archive["event"]["entry"] = "players"
    return import_archive(archive)


@pytest.fixture
def phone(event):
    return Table_(Client(enforce_csrf_checks=True), Table.objects.get(round__event=event, number=1))


def code(event, who):
    return Entrant.objects.get(event=event, code=SEAT_OF.get(who, who)).access_code


def test_three_players_enter_verify_and_sign_off_a_table_of_three(phone, event):
    state = phone.state().json()
    assert state["game"]["seats"] == ["E", "S", "W"] and set(state["sides"]) == {"E", "S", "W"}
    assert error_code(phone.put(1, {**EXAMPLES["PHZ01"]["deal"], "code": code(event, "p07")})) == "bad_code"
    for board, name in enumerate(NAMES, start=1):
        written = phone.put(board, {**EXAMPLES[name]["deal"], "code": code(event, "E")}, key=f"p{board}")
        assert written.status_code == 201, written.content
        assert written.json()["scores"] == {"N": 0, **EXAMPLES[name]["expected"]["scores"]}
        version = written.json()["version"]
        own = phone.verify(board, code(event, "E"), key=f"own{board}", version=version)
        assert (own.status_code, error_code(own)) == (403, "same_side")
        verifier = "S" if board % 2 else "W"
        assert phone.verify(board, code(event, verifier), key=f"v{board}", version=version).status_code == 200
    state = phone.state().json()
    totals = {seat: sum(EXAMPLES[n]["expected"]["scores"][seat] for n in NAMES) for seat in "ESW"}
    assert {seat: state["totals"]["sides"][seat] for seat in "ESW"} == totals
    for seat in "ESW":
        assert (
            phone.send("post", "signoff", {"code": code(event, seat), "side": seat}, key=f"s{seat}").status_code == 200
        )
    state = phone.state().json()
    assert state["signed_off"] == {"E": True, "S": True, "W": True} and state["writable"] is False
