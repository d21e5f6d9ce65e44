"""Reading what the exports print: plain dicts from the database, streamed where large."""

from collections import defaultdict
from itertools import groupby

from scoring.models import Deal, LineUp, Player, Table
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
    sheets = [("排名", standings_rows(event, by_round[None], language))]
    sheets += [(f"第{n}轮后", standings_rows(event, by_round[n], language, after_round=n)) for n in numbers]
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
    ):
        tables[row["id"]] = {
            "round": rounds[row["round_id"]],
            "number": row["number"],
            "ns": row["ns_entrant__code"],
            "ew": row["ew_entrant__code"],
            "seats": {"N": row["north_id"], "E": row["east_id"], "S": row["south_id"], "W": row["west_id"]},
        }
    fields = ("table_id", "board", "status", *Deal.RESULT_COLUMNS)
    deals = Deal.objects.filter(table__round_id__in=rounds)
    if published_only:
        # The public sees what the public pages count: confirmed deals only.
        deals = deals.filter(status=Deal.Status.CONFIRMED)
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
                    **{name: row[name] for name in ("board", "captured", "holders", "exposed", "penalties")},
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


def scoresheet_data(event, rnd, *, entry_url):
    """One dict per table of the round: number, pairs, seat names and, for the QR code, the
    address of the table's entry page (`entry_url(table number)`)."""
    sheets = []
    lineups = defaultdict(list)
    for lineup in (
        LineUp.objects.filter(table__round=rnd).select_related("north", "east", "south", "west").order_by("session")
    ):
        lineups[lineup.table_id].append(
            {
                "session": lineup.session,
                "seats": {seat: f"{p.name}（{p.code}）" for seat, p in lineup.seat_players().items()},
            }
        )
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
                "seats": {seat: f"{player.name}（{player.code}）" for seat, player in seats.items() if player},
                "url": entry_url(table.number),
                "lineups": lineups.get(table.id, []),
            }
        )
    return sheets


def _side_name(entrant, first, second):
    """A side as players and referees know it: "A01 张三、李四", or the team's name."""
    if entrant is None:
        return ""
    if entrant.name:
        return f"{entrant.code} {entrant.name}"
    return f"{entrant.code} " + "、".join(player.name for player in (first, second) if player)
