"""What a table link shows: the table's boards and their states (`GET /t/<token>/state`),
and one board in full for the side that verifies it. Plain data; nothing here writes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from scoring.cache.stamps import table_state_stamp
from scoring.engine.not_played import MARK_KEY, mark_words
from scoring.engine.vocabulary import MatchMode
from scoring.entry.game_fields import deal_words, on_its_grid
from scoring.entry.hot_sql import first_row
from scoring.entry.selectors import snapshot
from scoring.games import game_of
from scoring.games.huapai.deal_text import cards_text, exposed_text, holders_text
from scoring.games.seats import in_partnerships
from scoring.games.stored import carries_state, event_rules, table_match, table_summary
from scoring.messages import message_text
from scoring.models import Deal, Membership, Player, RefereeCall, Round
from scoring.rulings.clock import round_clock
from scoring.table_entry.codes import TableGuarded, side_entrants, wrong_codes_lock_until
from scoring.table_entry.services import (
    boards_needed,
    players_may_write,
    signed_sides,
    table_for_token,
    table_sides,
)

if TYPE_CHECKING:
    from typing import Any

    from scoring.cache.stamps import Stamped
    from scoring.games.base import Game
    from scoring.models import Event, Table


def _board_numbers(event: Event, played: list[tuple[int, int, int]], needed: int | None) -> list[int]:
    """Boards mode: 1…N (`needed`: fewer for a match ended by itself, 升级's target). Games mode:
    the boards played and the next, while the match is on."""
    if event.match_mode == MatchMode.BOARDS:
        return list(range(1, needed + 1))
    games = game_of(event).match_units([(ns, ew) for _board, ns, ew in played], event.game_threshold)
    over = len(games) >= event.match_length and games[-1].finished
    numbers = [board for board, *_scores in played]
    return numbers if over else [*numbers, max(numbers, default=0) + 1]


def state_stamp(token: str) -> Stamped | None:
    """The table's stamp (`scoring.cache.stamps.table_state_stamp`), read on the hot path's
    connection: an unchanged table's poll, most polls, is answered 304 from it alone."""
    return table_state_stamp(token, first_row)


def state_body(token: str, open_calls: int) -> bytes:
    """The state as the link sends it (JSON bytes), or None when no table has this token."""
    table = table_for_token(token)
    if table is None:  # replaced between the stamp and now
        return None
    return json.dumps(table_state(table, open_calls), ensure_ascii=False, sort_keys=True).encode()


def _side_scores(deal: dict[str, int | str], game: Game) -> dict[str, int]:
    """{side: figure} of a stored deal, as its game counts a side (`Game.side_score`: 华牌's
    partnership the sum of its seats, 升级's the levels each partner gained, a player alone his
    own score)."""
    scores = {seat: deal[f"score_{seat.lower()}"] or 0 for seat in game.seats}
    return {side: game.side_score(scores, side) for side in game.sides}


def _match_words(table: Table, game: Game, event: Event) -> dict[str, bool | str | None] | None:
    """A game that carries a state (升级): its match at this table in the game's words (levels
    reached, over or not, a chief arbiter's ruling), and whether it is over; else None."""
    if not carries_state(game):
        return None
    confirmed = table.deals.filter(status=Deal.Status.CONFIRMED).order_by("board")
    stored = [deal.as_deal_json() for deal in confirmed]
    rules, ruling = event_rules(event), table.match_ruling
    summary = table_summary(game, rules, stored, ruling)
    result = table_match(game, rules, stored)
    return {
        "summary": message_text(summary) if summary is not None else None,
        "finished": bool(ruling) or bool(result and result["finished"]),
    }


def round_phase(status: str) -> str:
    """A round's status as its table links see it: paired or in play, the link is open the same
    way (`players_may_write`), so a round not yet published is "in_play" here. The round's first
    deal puts it in play (`entry.services`): were the two told apart, every table's state would
    change at that moment and a hall's phones would all fetch theirs again at once."""
    return Round.Status.IN_PLAY.value if status == Round.Status.SCHEDULED else status


def table_state(table: Table, open_calls: int | None = None) -> dict[str, Any]:
    """The table as its link shows it. `open_calls`: the count `state_stamp` read already."""
    event, rnd = table.round.event, table.round
    game = game_of(event)
    deals = {
        d["board"]: d
        for d in table.deals.order_by("sequence").values(
            "board", "status", "version", "entered_side", "score_n", "score_e", "score_s", "score_w",
            "ns_score", "ew_score", "extra",
        )
    }  # fmt: skip
    played = [(b, d["ns_score"], d["ew_score"]) for b, d in deals.items()]
    boards = []
    needed = boards_needed(table) if event.match_mode == MatchMode.BOARDS else None
    for number in _board_numbers(event, played, needed):
        deal = deals.get(number)
        if deal is None:
            boards.append({"board": number, "status": "empty", "version": None, "scores": None})
            continue
        mark = deal["extra"].get(MARK_KEY) if isinstance(deal["extra"], dict) else None
        boards.append(
            {
                "board": number,
                "status": deal["status"],
                "version": deal["version"],
                "scores": {seat: deal[f"score_{seat.lower()}"] for seat in "NESW"},
                "sides": _side_scores(deal, game),
                "entered_by": deal["entered_side"] or "referee",
                # Recorded not played by a referee (or when time was called), in words.
                "not_played": message_text(mark_words(mark)) if isinstance(mark, dict) else None,
            }
        )
    confirmed = [d for d in deals.values() if d["status"] == Deal.Status.CONFIRMED]
    sides = {}
    seated = side_entrants(table)
    names, player_names = _names({entrant.id for _side, entrant in seated})
    for side, entrant in seated:
        members = sides.setdefault(side, {"entrants": [], "names": []})
        members["entrants"].append(entrant.code)
        members["names"].append(entrant.name or "、".join(names.get(entrant.id, [])) or entrant.code)
    refusal = players_may_write(table)
    locked_until = wrong_codes_lock_until(table)
    games = (
        game.match_units([(ns, ew) for _board, ns, ew in played], event.game_threshold)
        if event.match_mode == MatchMode.GAMES
        else []
    )
    every_board = bool(boards) and all(b["status"] == Deal.Status.CONFIRMED for b in boards)
    signing = table_sides(table, seated)
    by_side = {
        side: sum(b["sides"][side] for b in boards if b["status"] == Deal.Status.CONFIRMED) for side in game.sides
    }
    totals = {side: by_side[side] for side in signing}
    return {
        "event": {"slug": event.slug, "name": event.name},
        "round": {"number": rnd.number, "status": round_phase(rnd.status)},
        "table": table.number,
        "sides": {side: {"entrants": v["entrants"], "names": v["names"]} for side, v in sides.items()},
        "seats": _seat_names(table, player_names),
        "boards": boards,
        # The game: its seats and the sides that verify and sign.
        "game": {
            "id": game.id,
            "seats": list(game.seats),
            "sides": signing,
            "partnerships": in_partnerships(game),
        },
        "totals": {
            # The two partnerships' figures as the game counts them (one seat's each in 升级).
            "NS": by_side["NS"] if in_partnerships(game) else sum(d["ns_score"] for d in confirmed),
            "EW": by_side["EW"] if in_partnerships(game) else sum(d["ew_score"] for d in confirmed),
            "sides": totals,
            "confirmed": len(confirmed),
            "boards": len(boards),
        },
        "games": [{"number": g.number, "ns": g.ns, "ew": g.ew, "finished": g.finished} for g in games],
        "match": _match_words(table, game, event),
        "signed_off": signed_sides(table, signing),
        # What each side signs, from its own side, once every board is confirmed.
        "signoff": {side: side_view(boards, games, side, signing) for side in signing} if every_board else None,
        "writable": refusal is None,
        "read_only": None if refusal is None else {"code": refusal.code, "message": message_text(refusal)},
        "referee_called": bool(open_calls)
        if open_calls is not None
        else RefereeCall.objects.filter(table=table, answered_at=None).exists(),
        "locked_until": locked_until.isoformat() if locked_until else None,
        # Why codes from phones not known here wait, in words for the page (table-api.md).
        "guarded": None
        if locked_until is None
        else {"until": locked_until.isoformat(), "message": message_text(TableGuarded(locked_until))},
        # The round's clock (scoring.rulings.clock): None when untimed; a running clock's end.
        "clock": round_clock(rnd).face(),
    }


def side_view(
    boards: list[dict[str, Any]], games: list[Any], side: str, sides: list[str] = ("NS", "EW")
) -> dict[str, Any]:
    """The table's round as `side` signs it: its own score first ("we") and the other side's
    ("they"), board by board and in total, and in games mode each 局 from its side (won, lost,
    drawn, or not finished) with the 局 each side has won. Where every player plays alone there
    is no one other side: "they" is None and each row has every side's score (`all`)."""
    others = [s for s in sides if s != side]
    other = others[0] if len(others) == 1 else None
    played = [b for b in boards if b.get("sides")]
    rows = []
    for b in played:
        row = {"board": b["board"], "we": b["sides"][side], "they": b["sides"][other] if other else None}
        if other is None:
            row["all"] = {s: b["sides"][s] for s in sides}
        rows.append(row)
    results = []
    for game in games:
        ours, theirs = (game.ns, game.ew) if side == "NS" else (game.ew, game.ns)
        winner = game.winner if game.finished else None
        result = None if not game.finished else "drawn" if winner is None else "won" if winner == side else "lost"
        results.append({"number": game.number, "we": ours, "they": theirs, "finished": game.finished, "result": result})
    return {
        "side": side,
        "other": other,
        "boards": rows,
        "totals": {
            "we": sum(r["we"] for r in rows),
            "they": sum(r["they"] for r in rows) if other else None,
            **({} if other else {"all": {s: sum(r["all"][s] for r in rows) for s in sides}}),
        },
        "games": results,
        "games_won": {
            "we": sum(r["result"] == "won" for r in results),
            "they": sum(r["result"] == "lost" for r in results),
        },
    }


def _seat_names(table: Table, known: dict[int, str]) -> dict[str, str]:
    """{seat: name}: the seated players are members of the table's entrants, whose names
    `_names` read already; anyone else (a substitute not in the team) is looked up."""
    seated = {"N": table.north_id, "E": table.east_id, "S": table.south_id, "W": table.west_id}
    missing = [p for p in seated.values() if p and p not in known]
    if missing:
        known = {**known, **dict(Player.objects.filter(id__in=missing).values_list("id", "name"))}
    return {seat: known.get(player_id, "") for seat, player_id in seated.items()}


def _names(entrant_ids: set[int]) -> tuple[dict[int, Any], dict[int, str]]:
    """`({entrant id: [player names]}, {player id: name})` of a table's entrants, in one query."""
    names, players = {}, {}
    for entrant_id, player_id, name in (
        Membership.objects.filter(entrant_id__in=entrant_ids)
        .order_by("entrant_id", "position")
        .values_list("entrant_id", "player_id", "player__name")
    ):
        names.setdefault(entrant_id, []).append(name)
        players[player_id] = name
    return names, players


def board_detail(table: Table, board: int) -> dict[str, Any]:
    """One board as the verifying side sees it: cards, holders, exposures, penalties and every
    seat's score, in words and as deal JSON (for the entry grid)."""
    deal = table.deals.filter(board=board).first()
    if deal is None:
        return {"board": board, "status": "empty", "version": None}
    event = table.round.event
    game, rules = game_of(event), event_rules(event)
    if not on_its_grid(game, rules):
        # A deal in its fields' words, and as the deal JSON (`game_data`).
        return {
            "board": board,
            **snapshot(deal),
            "entered_by": deal.entered_side or "referee",
            "words": [[label, value] for label, value in deal_words(game, deal.game_data, rules)],
        }
    return {
        "board": board,
        **snapshot(deal),
        "entered_by": deal.entered_side or "referee",
        "text": {
            "captured": {seat: cards_text(cards) for seat, cards in deal.game_data["captured"].items()},
            "holders": holders_text(deal.game_data["holders"]),
            "exposed": exposed_text(deal.game_data["exposed"]),
        },
    }
