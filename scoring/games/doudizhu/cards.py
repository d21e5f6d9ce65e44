"""蚌埠斗地主 (law §1): the table, the keys of a deal, the bids and the rule numbers.

Plain constants only; every other module of the game reads them from here.
"""

from __future__ import annotations

from scoring.games.refusals import Text, _
from scoring.games.seats import SEAT_NAMES, TABLE_SEATS

GAME_ID = "bengbu-doudizhu"
GAME_NAME = _("蚌埠斗地主")  # marked: the site shows it in the page's language

# Four players, each for himself, in playing order (§0: as in 华牌).
SEATS = TABLE_SEATS
SEAT_SET = frozenset(SEATS)
# Each player scores alone: every seat is its own side.
SIDES = {seat: (seat,) for seat in SEATS}

# §1.2 bids: 1, 2 or 3 (叫分), "grab" (搶牌), "pass" (all four passed: redealt, never recorded).
GRAB = "grab"
PASS = "pass"
BASE_OF_BID = {1: 1, 2: 2, 3: 3, GRAB: 3}  # B1 底分 b

# §1.2 V8: the most 飛彈 a seat can play (landlord: 4 jokers + four 7-of-a-kinds in 33 cards).
FEIDAN_MOST_LANDLORD = 5
FEIDAN_MOST_FARMER = 3

# The keys a played deal has, and that a 天炸/天尊 deal must not carry (§1.2 V3), in that order.
PLAY_KEYS = ("landlord", "bid", "open", "first_out", "feidan")

# B3: 明打 multiplies a win by 3 and a loss by 2; 暗打 by 1.
OPEN_WIN, OPEN_LOSS = 3, 2

# The "result" key of a scored deal (§1.4).
LANDLORD = "landlord"
FARMERS = "farmers"
TIAN = "tian"


def seat_label(seat: str) -> Text:
    """A seat named in a message: 北(N), or North(N) in English."""
    return Text(_("{name}({seat})"), name=Text(SEAT_NAMES[seat]), seat=seat)
