"""A round's draw (对阵表): every table with both sides' numbers and names, and the byes.
Read by the public draw page and the organiser's round console."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.models import Match, Membership, Table

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Entrant, Event, Round


def _names_by_entrant(event: Event) -> dict[int, dict[str, Any]]:
    names = {}
    for entrant_id, name, club, pinyin in (
        Membership.objects.filter(entrant__event=event)
        .order_by("entrant_id", "position")
        .values_list("entrant_id", "player__name", "player__club", "player__sort_key")
    ):
        entry = names.setdefault(entrant_id, {"names": [], "clubs": [], "pinyin": []})
        entry["names"].append(name)
        entry["pinyin"] += [pinyin.replace(" ", ""), "".join(word[:1] for word in pinyin.split())]
        if club and club not in entry["clubs"]:
            entry["clubs"].append(club)
    return names


def _side(entrant: Entrant | None, names: dict[int, dict[str, Any]]) -> dict[str, list[str] | str] | None:
    if entrant is None:
        return None
    found = names.get(entrant.id, {"names": [], "clubs": [], "pinyin": []})
    return {
        "code": entrant.code,
        "name": entrant.name,
        "players": found["names"],
        "clubs": found["clubs"],
        "pinyin": found["pinyin"],
    }


def draw_rows(rnd: Round) -> dict[str, list[Any]]:
    """`{"tables": [{number, ns, ew, seats}], "byes": [side]}`; a side is
    `{code, name, players, clubs}`; `seats` (individual events) maps N E S W to players."""
    names = _names_by_entrant(rnd.event)
    tables = []
    for table in (
        Table.objects.filter(round=rnd)
        .select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west")
        .order_by("number")
    ):
        seats = None
        if table.ns_entrant_id is None:
            seats = {
                seat: {"code": player.code, "name": player.name, "club": player.club}
                for seat, player in (("N", table.north), ("E", table.east), ("S", table.south), ("W", table.west))
                if player is not None  # a seat the game lacks (跑胡子: North)
            }
        tables.append(
            {
                "number": table.number,
                "ns": _side(table.ns_entrant, names),
                "ew": _side(table.ew_entrant, names),
                "seats": seats,
            }
        )
    byes = [
        _side(match.bye, names)
        for match in Match.objects.filter(round=rnd, bye__isnull=False).select_related("bye").order_by("number")
    ]
    return {"tables": tables, "byes": byes}


def search_text(row: dict[str, dict[str, Any] | int | None]) -> str:
    """Everything a player may type to find a table: numbers, names, clubs, the names' pinyin
    and its initials ("zj" for 朱娟), lower-case."""
    parts = [str(row["number"])]
    for side in (row["ns"], row["ew"]):
        if side:
            parts += [side["code"], side["name"], *side["players"], *side["clubs"], *side["pinyin"]]
    for player in (row["seats"] or {}).values():
        parts += [player["code"], player["name"], player["club"]]
    return " ".join(p for p in parts if p).lower()
