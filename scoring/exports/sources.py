"""Reading what the exports print: plain dicts from the database, streamed where large."""

from collections import defaultdict
from itertools import groupby

from django.utils.translation import gettext, gettext_noop

from scoring.engine.not_played import MARK_KEY, mark_words
from scoring.engine.standings import natural_key
from scoring.events.lineups import session_notes
from scoring.messages import joined
from scoring.models import Deal, Event, LineUp, Match, Membership, Player, Table
from scoring.results.labels import standings_rows
from scoring.results.standings import standings_by_round


def visible_rounds(event, published_only):
    rounds = event.rounds.order_by("number")
    if published_only:
        rounds = rounds.published()
    return list(rounds)


def standings_sheets(event, *, published_only, language="zh-hans"):
    """[(title, rows)]: the standings now, then after each visible round (the officials' version:
    finished matches only)."""
    numbers = [r.number for r in visible_rounds(event, published_only)]
    # The officials' version counts unfinished matches of unpublished rounds nowhere.
    by_round = standings_by_round(
        event, published_only=published_only, rounds=[None, *numbers], finished_only=not published_only
    )
    sheets = [(gettext("排名"), standings_rows(event, by_round[None], language))]
    sheets += [
        (gettext("第%(n)s轮后") % {"n": n}, standings_rows(event, by_round[n], language, after_round=n))
        for n in numbers
    ]
    return sheets


def player_names(event):
    return dict(Player.objects.filter(event=event).values_list("id", "name"))


def tables_with_deals(event, *, published_only):
    """Yield `(table, deals)` for every table in round and table order; deals stream from the database.

    `published_only` (the public's files): published rounds and confirmed deals only.
    """
    rounds = {r.id: r.number for r in visible_rounds(event, published_only)}
    tables = {}
    for row in Table.objects.filter(round_id__in=rounds).values(
        "id",
        "round_id",
        "number",
        "ns_entrant__code",
        "ew_entrant__code",
        "north_id",
        "east_id",
        "south_id",
        "west_id",
        "match_ruling",
    ):
        tables[row["id"]] = {
            "round": rounds[row["round_id"]],
            "number": row["number"],
            "ns": row["ns_entrant__code"],
            "ew": row["ew_entrant__code"],
            "seats": {"N": row["north_id"], "E": row["east_id"], "S": row["south_id"], "W": row["west_id"]},
            # The chief arbiter's ruling on the table's match (升级), which the workbook states.
            "match_ruling": row["match_ruling"],
        }
    fields = ("table_id", "board", "status", *Deal.RESULT_COLUMNS)
    deals = Deal.objects.filter(table__round_id__in=rounds)
    if published_only:
        # The public sees what the public pages count: confirmed deals only.
        deals = deals.counted()
    deals = (
        deals.order_by("table__round__number", "table__number", "sequence").values(*fields).iterator(chunk_size=5000)
    )
    seen = set()
    for table_id, group in groupby(deals, key=lambda row: row["table_id"]):
        seen.add(table_id)
        yield (
            tables[table_id],
            [
                {
                    **row["game_data"],  # the game's own keys (华牌's cards) where the papers read them
                    "board": row["board"],
                    "penalties": row["penalties"],
                    "game_data": row["game_data"],  # the deal whole
                    "adjusted": row["adjusted"],
                    "adjusted_reason": row["adjusted_reason"],
                    "scores": {seat: row[f"score_{seat.lower()}"] for seat in "NESW"},
                    "ns": row["ns_score"],
                    "ew": row["ew_score"],
                    "status": row["status"],
                    "raw": {seat: row[f"raw_{seat.lower()}"] for seat in "NESW"},
                }
                for row in group
            ],
        )


# Marked only: each paper renders its caption in the language it is printed in.
QR_CAPTIONS = {"referee": gettext_noop("扫码录入本桌"), "table": gettext_noop("扫码本桌录入")}


def scoresheet_data(event, rnd, *, entry_url, table_url=None):
    """One dict per table of the round: number, pairs, seat names, the boards recorded not played
    so far (`{board: "未打：…"}`) and, for the QR code, an address and its caption.

    `entry_url(table)`: the referees' entry page of the table. `table_url(table)`: the table's
    own link (`/t/<token>/`, table-api.md), a secret of the officials and of that table: given
    for the officials' sheets only. When players enter (`Event.Entry.PLAYERS`) and it is given,
    the QR code is the table's link ("扫码本桌录入"); otherwise the referees' page ("扫码录入本桌"),
    so a sheet the public may download never carries a token."""
    by_players = event.entry == Event.Entry.PLAYERS and table_url is not None
    sheets = []
    # Boards recorded not played by the time the sheets are printed ("未打：" and the rule).
    not_played = defaultdict(dict)
    for table_id, board, extra in Deal.objects.filter(table__round=rnd, extra__has_key=MARK_KEY).values_list(
        "table_id", "board", "extra"
    ):
        not_played[table_id][board] = str(mark_words(extra[MARK_KEY]))
    lineups = defaultdict(list)
    for lineup in (
        LineUp.objects.filter(table__round=rnd).select_related("north", "east", "south", "west").order_by("session")
    ):
        lineups[lineup.table_id].append(lineup)
    for table in (
        Table.objects.filter(round=rnd)
        .select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west")
        .order_by("number")
    ):
        seats = table.seat_players()
        sheets.append(
            {
                "table": table.number,
                "ns": _side_name(table.ns_entrant, seats["N"], seats["S"]),
                "ew": _side_name(table.ew_entrant, seats["E"], seats["W"]),
                "seats": {seat: _named(player) for seat, player in seats.items() if player},
                "url": table_url(table) if by_players else entry_url(table),
                "qr_caption": QR_CAPTIONS["table" if by_players else "referee"],
                # What changes after the first 节: substitutes, and the pairs' chairs when they swap.
                "lineups": [
                    {
                        "session": note["session"],
                        "boards": note["boards"],
                        "swapped": note["swapped"],
                        "seats": {seat: _named(p) for seat, _chair, p in note["seats"]},
                        "chairs": {seat: chair for seat, chair, _p in note["seats"]},
                    }
                    for note in session_notes(table, event, rnd.sessions, lineups.get(table.id, []))
                ],
                "not_played": not_played.get(table.id, {}),
            }
        )
    return sheets


def _named(player):
    """ "张三（A01-1）", the bracket the printed language's ("张三 (A01-1)" in English)."""
    return gettext("%(name)s（%(code)s）") % {"name": player.name, "code": player.code}


def _side_name(entrant, first, second):
    """A side as players and referees know it: "A01 张三、李四", or the team's name."""
    if entrant is None:
        return ""
    if entrant.name:
        return f"{entrant.code} {entrant.name}"
    return f"{entrant.code} " + joined(player.name for player in (first, second) if player)


SIDE_SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}


def draw_paper(rnd):
    """What the wall draw and the table cards print for a round:

    `{"tables": [{"number", "sides": {"NS": side, "EW": side} | None, "seats": {seat: person} | None}],
      "byes": [side], "people": [{"name", "sort_key", "code", "places": [(table, "NS" | "EW" | seat)]}]}`

    A side is `{"code", "name", "players": [name]}` (a pair: its players; a team: its name and
    members), at a table with `"seated"` too (the players in its seats); a person `{"code",
    "name"}`; `seats` only in individual events. `people` holds every player of every entrant in
    the round — at a table, or on a bye (`places` empty) — under the entrant's number, sorted by
    the pinyin of the name (the order players look themselves up on a wall), then the name and
    the number."""
    members = defaultdict(list)
    for entrant_id, name, sort_key, code in (
        Membership.objects.filter(entrant__event=rnd.event)
        .order_by("entrant_id", "position")
        .values_list("entrant_id", "player__name", "player__sort_key", "player__code")
    ):
        members[entrant_id].append({"name": name, "sort_key": sort_key, "player": code})

    def side(entrant):
        return {"code": entrant.code, "name": entrant.name, "players": [m["name"] for m in members[entrant.id]]}

    people = {}  # player's number -> person

    def add_members(entrant, places):
        for member in members[entrant.id]:
            people[member["player"]] = {
                "name": member["name"],
                "sort_key": member["sort_key"],
                "code": entrant.code,
                "places": places,
            }

    tables, places = [], defaultdict(list)
    for table in (
        Table.objects.filter(round=rnd)
        .select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west")
        .order_by("number")
    ):
        if table.ns_entrant_id is None:  # an individual event: four players, each in a seat
            seats = {}
            for seat, player in table.seat_players().items():
                if player is not None:
                    seats[seat] = {"code": player.code, "name": player.name}
                    people[player.code] = {
                        "name": player.name,
                        "sort_key": player.sort_key,
                        "code": player.code,
                        "places": [(table.number, seat)],
                    }
            tables.append({"number": table.number, "sides": None, "seats": seats})
            continue
        sides = {}
        for direction, entrant in (("NS", table.ns_entrant), ("EW", table.ew_entrant)):
            sides[direction] = side(entrant)
            # Who sits at this table (a team's pair here; the first 节's line-up).
            seated = [table.seat_players()[seat] for seat in SIDE_SEATS[direction]]
            sides[direction]["seated"] = [player.name for player in seated if player is not None]
            places[entrant.id].append((table.number, direction))
            add_members(entrant, places[entrant.id])
        tables.append({"number": table.number, "sides": sides, "seats": None})
    byes = []
    for match in Match.objects.filter(round=rnd, bye__isnull=False).select_related("bye").order_by("number"):
        byes.append(side(match.bye))
        add_members(match.bye, [])
    ordered = sorted(
        people.values(),
        key=lambda person: (person["sort_key"] or person["name"], person["name"], natural_key(person["code"])),
    )
    return {"tables": tables, "byes": byes, "people": ordered}
