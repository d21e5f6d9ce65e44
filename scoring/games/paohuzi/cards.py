"""跑胡子 / 永州双王扯胡子 (law §3): the table, the cards and the words of the deal JSON.

Plain constants only; the rest of the package reads them and nothing else.
"""

from __future__ import annotations

from scoring.games.refusals import Text, _
from scoring.games.seats import SEAT_NAMES as TABLE_SEAT_NAMES
from scoring.games.seats import TABLE_SEATS

GAME_ID = "paohuzi"
GAME_NAME = _("跑胡子")  # marked: the site shows it in the page's language
FULL_NAME = "永州双王扯胡子"

# §0 Seats: a 3-player table uses E, S, W (North stays empty), in playing order E → S → W → E.
SEATS = tuple(seat for seat in TABLE_SEATS if seat != "N")
SEAT_SET = frozenset(SEATS)
SEAT_NAMES = {seat: TABLE_SEAT_NAMES[seat] for seat in SEATS}
NEXT_SEAT = {"E": "S", "S": "W", "W": "E"}  # each seat's 下家
# Each player plays for himself: every seat is its own side.
SIDES = {seat: (seat,) for seat in SEATS}

# §3.1 The 82 cards: 小 一…十 and 大 壹…拾, four of each, and 2 王霸.
SMALL = ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十")
BIG = ("壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾")
COPIES = 4
WANGBA_CARDS = 2
DECK_SIZE = (len(SMALL) + len(BIG)) * COPIES + WANGBA_CARDS  # 82
DEALER_CARDS, OTHER_CARDS, DUN_CARDS = 21, 20, 21
RED_CARDS = ("二", "七", "十", "贰", "柒", "拾")
# V6: at most the 24 red cards and the 2 王霸 standing in for red ones.
MAX_RED = len(RED_CARDS) * COPIES + WANGBA_CARDS  # 26
MAX_HUXI = 200  # V5
MAX_XING = COPIES + WANGBA_CARDS  # V11: 6

# V7 `source`: where the winning card came from.
SOURCES = ("self", "draw", "discard")
SOURCE_NAMES = {"self": "自摸", "draw": "他家翻出", "discard": "放炮"}

# V10 `wang`: the 王 wins, the 王霸 each needs in the winner's hand, and its 番 (P3 kind).
WANGS = ("none", "wangdiao", "wangdiaowang", "wangchuang")
WANG_NAMES = {"wangdiao": "王钓", "wangdiaowang": "王钓王", "wangchuang": "王闯"}
WANG_NEEDS = {"wangdiao": 1, "wangdiaowang": 2, "wangchuang": 2}
WANG_FAN = {"wangdiao": 4, "wangdiaowang": 8, "wangchuang": 8}
SELF_DRAW_FAN = 2

# P3 colour: 红胡 (red ≥ 10) 2, 一点朱 (red = 1) 3, 黑胡 (red = 0) 4, otherwise 1.
RED_HU_MINIMUM = 10
COLOURS = {0: ("黑胡", 4), 1: ("一点朱", 3)}
RED_HU = ("红胡", 2)
NO_COLOUR = ("", 1)

# The keys a 黄庄 must not carry (V4), in the order they are checked.
WIN_KEYS = ("huxi", "red", "source", "from", "wang", "xing")


def colour_of(red: int) -> tuple[str, int]:
    """(name, 番) of the colour of a winning hand with `red` red cards (P3)."""
    if red >= RED_HU_MINIMUM:
        return RED_HU
    return COLOURS.get(red, NO_COLOUR)


def kind_of(source: str, wang: str) -> tuple[str, int]:
    """(name, 番) of the kind of a win (P3): a 王 win replaces 自摸's 2 (D-P5)."""
    if wang != "none":
        return WANG_NAMES[wang], WANG_FAN[wang]
    if source == "self":
        return SOURCE_NAMES["self"], SELF_DRAW_FAN
    return "", 1


def seat_label(seat: str) -> Text:
    """A seat named in a message: 东(E), or East(E) in English."""
    return Text(_("{name}({seat})"), name=Text(SEAT_NAMES[seat]), seat=seat)


# The seat labels of breakdown notes (always Chinese, like the rest of a note).
SEAT_TEXT = {seat: f"{SEAT_NAMES[seat]}({seat})" for seat in SEATS}
