"""Each side signs off its table's round from its own point of view (issue 22): its own score
first ("we" and "they"), board by board and in total, and in games mode each 局 from its side;
a code of the other side than the view shown is refused."""

import json

import pytest
from django.test import Client

from scoring.archive.database import import_archive
from scoring.models import Entrant, Table, WrongCode
from tests.archives import EXAMPLES, pairs_archive

pytestmark = pytest.mark.django_db


def players_round(**match):
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, **match)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def sides(name):
    return EXAMPLES[name]["expected"]["sides"]


class Phone:
    def __init__(self, table):
        self.client, self.base, self.keys = Client(enforce_csrf_checks=True), f"/t/{table.token}/", 0

    def send(self, method, path, body, version=None):
        self.keys += 1
        headers = {"Idempotency-Key": f"k{self.keys}"}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        call = getattr(self.client, method)
        return call(self.base + path, data=json.dumps(body), content_type="application/json", headers=headers)

    def play(self, board, name, enter, verify):
        deal = {key: value for key, value in EXAMPLES[name]["deal"].items() if key != "ruleset"}
        version = self.send("put", f"boards/{board}", {**deal, "code": enter}).json()["version"]
        assert self.send("post", f"boards/{board}/verify", {"code": verify}, version=version).status_code == 200

    def state(self):
        return self.client.get(self.base + "state").json()


def codes():
    return [Entrant.objects.get(code=pair).access_code for pair in "AB"]


def test_each_side_sees_its_own_score_first_board_by_board_and_in_total():
    players_round(length=2)
    phone = Phone(Table.objects.get())
    a, b = codes()
    phone.play(1, "T1", a, b)
    assert phone.state()["signoff"] is None  # board 2 not confirmed yet: nothing to sign
    phone.play(2, "T7", a, b)
    views = phone.state()["signoff"]
    t1, t7 = sides("T1"), sides("T7")
    assert views["NS"]["boards"] == [
        {"board": 1, "we": t1["NS"], "they": t1["EW"]},
        {"board": 2, "we": t7["NS"], "they": t7["EW"]},
    ]
    assert views["EW"]["boards"] == [
        {"board": 1, "we": t1["EW"], "they": t1["NS"]},
        {"board": 2, "we": t7["EW"], "they": t7["NS"]},
    ]
    assert views["NS"]["totals"] == {"we": t1["NS"] + t7["NS"], "they": t1["EW"] + t7["EW"]}
    assert views["EW"]["totals"] == {"we": t1["EW"] + t7["EW"], "they": t1["NS"] + t7["NS"]}
    assert (views["NS"]["side"], views["NS"]["other"], views["EW"]["side"]) == ("NS", "EW", "EW")
    assert views["NS"]["games"] == [] and views["EW"]["games"] == []  # boards mode: no 局 to sign


def test_in_games_mode_each_side_signs_the_games_it_won_and_lost():
    players_round(mode="games", length=2, threshold=1000)
    phone = Phone(Table.objects.get())
    a, b = codes()
    # 局 1: NS +3200, EW 0 — over at once (3200 ≥ 1000), NS ahead. 局 2: NS −3160, EW −140 — over, EW ahead.
    phone.play(1, "T14", a, b)
    phone.play(2, "T17", b, a)  # EW enters this one, NS verifies: the view does not depend on who entered
    views = phone.state()["signoff"]
    assert views["NS"]["games"] == [
        {"number": 1, "we": 3200, "they": 0, "finished": True, "result": "won"},
        {"number": 2, "we": -3160, "they": -140, "finished": True, "result": "lost"},
    ]
    assert views["EW"]["games"] == [
        {"number": 1, "we": 0, "they": 3200, "finished": True, "result": "lost"},
        {"number": 2, "we": -140, "they": -3160, "finished": True, "result": "won"},
    ]
    assert views["NS"]["games_won"] == views["EW"]["games_won"] == {"we": 1, "they": 1}
    assert views["EW"]["totals"] == {"we": -140, "they": 3200 - 3160}


def test_a_signature_goes_with_the_side_whose_view_was_shown():
    players_round(length=1)
    table = Table.objects.get()
    phone = Phone(table)
    a, b = codes()
    phone.play(1, "T1", a, b)
    # EW's code on NS's view: refused, nothing signed, and not counted as a wrong code.
    refused = phone.send("post", "signoff", {"code": b, "side": "NS"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "other_side")
    assert phone.send("post", "signoff", {"code": b, "side": "north"}).json()["error"]["code"] == "bad_side"
    assert phone.state()["signed_off"] == {"NS": False, "EW": False}
    table.refresh_from_db()
    assert table.locked_until is None and not WrongCode.objects.filter(table=table).exists()
    signed = phone.send("post", "signoff", {"code": b, "side": "EW"})
    assert signed.status_code == 200 and signed.json()["signed_off"] == {"NS": False, "EW": True}
    # The contract's body, a code alone, still signs.
    assert phone.send("post", "signoff", {"code": a}).json()["signed_off"] == {"NS": True, "EW": True}
