"""What a table link shows: the table's boards and their states (`GET /t/<token>/state`),
and one board in full for the side that verifies it. Plain data; nothing here writes."""

import hashlib

from django.db.models import Count, Sum
from django.utils.translation import get_language

from scoring.engine.vocabulary import MatchMode
from scoring.entry.selectors import snapshot
from scoring.games.huapai import split_games
from scoring.games.huapai.deal_text import cards_text, exposed_text, holders_text
from scoring.messages import message_text
from scoring.models import Deal, RefereeCall
from scoring.results.labels import entrant_labels
from scoring.table_entry.codes import side_entrants, wrong_codes_lock_until
from scoring.table_entry.services import players_may_write


def _board_numbers(event, played):
    """Boards mode: 1…N. Games mode: the boards played and the next, while the match is on."""
    if event.match_mode == MatchMode.BOARDS:
        return list(range(1, event.match_length + 1))
    games = split_games([(ns, ew) for _board, ns, ew in played], event.game_threshold)
    over = len(games) >= event.match_length and games[-1].finished
    numbers = [board for board, *_scores in played]
    return numbers if over else [*numbers, max(numbers, default=0) + 1]


def state_stamp(table):
    """Changes whenever the state would: what its deals, calls and sign-offs are, the round's
    status and the event's entry mode. Two indexed look-ups, so an unchanged table's poll is
    answered 304 without building the state."""
    deals = table.deals.order_by().aggregate(count=Count("id"), versions=Sum("version"))
    calls = RefereeCall.objects.filter(table=table, answered_at=None).count()
    parts = (
        table.pk, deals["count"], deals["versions"], calls, table.ns_signed_off_at, table.ew_signed_off_at,
        table.round.status, table.round.event.entry, get_language(),
    )  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def table_state(table):
    event, rnd = table.round.event, table.round
    deals = {
        d["board"]: d
        for d in table.deals.order_by("sequence").values(
            "board", "status", "version", "entered_side", "score_n", "score_e", "score_s", "score_w",
            "ns_score", "ew_score",
        )
    }  # fmt: skip
    played = [(b, d["ns_score"], d["ew_score"]) for b, d in deals.items()]
    boards = []
    for number in _board_numbers(event, played):
        deal = deals.get(number)
        if deal is None:
            boards.append({"board": number, "status": "empty", "version": None, "scores": None})
            continue
        boards.append(
            {
                "board": number,
                "status": deal["status"],
                "version": deal["version"],
                "scores": {seat: deal[f"score_{seat.lower()}"] for seat in "NESW"},
                "sides": {"NS": deal["ns_score"], "EW": deal["ew_score"]},
                "entered_by": deal["entered_side"] or "referee",
            }
        )
    confirmed = [d for d in deals.values() if d["status"] == Deal.Status.CONFIRMED]
    sides = {}
    labels = entrant_labels(event)  # cached: the names without a query per poll
    for side, entrant in side_entrants(table):
        members = sides.setdefault(side, {"entrants": [], "names": []})
        members["entrants"].append(entrant.code)
        members["names"].append(labels.get(entrant.code, {}).get("name", entrant.code))
    refusal = players_may_write(table)
    locked_until = wrong_codes_lock_until(table)
    games = split_games(played, event.game_threshold) if event.match_mode == MatchMode.GAMES else []
    return {
        "event": {"slug": event.slug, "name": event.name},
        "round": {"number": rnd.number, "status": rnd.status},
        "table": table.number,
        "sides": {side: {"entrants": v["entrants"], "names": v["names"]} for side, v in sides.items()},
        "seats": {seat: (player.name if player else "") for seat, player in table.seat_players().items()},
        "boards": boards,
        "totals": {
            "NS": sum(d["ns_score"] for d in confirmed),
            "EW": sum(d["ew_score"] for d in confirmed),
            "confirmed": len(confirmed),
            "boards": len(boards),
        },
        "games": [{"number": g.number, "ns": g.ns, "ew": g.ew, "finished": g.finished} for g in games],
        "signed_off": {"NS": table.ns_signed_off_at is not None, "EW": table.ew_signed_off_at is not None},
        "writable": refusal is None,
        "read_only": None if refusal is None else {"code": refusal.code, "message": message_text(refusal)},
        "referee_called": RefereeCall.objects.filter(table=table, answered_at=None).exists(),
        "locked_until": locked_until.isoformat() if locked_until else None,
    }


def board_detail(table, board):
    """One board as the verifying side sees it: cards, holders, exposures, penalties and every
    seat's score, in words and as deal JSON (for the entry grid)."""
    deal = table.deals.filter(board=board).first()
    if deal is None:
        return {"board": board, "status": "empty", "version": None}
    return {
        "board": board,
        **snapshot(deal),
        "entered_by": deal.entered_side or "referee",
        "text": {
            "captured": {seat: cards_text(cards) for seat, cards in deal.captured.items()},
            "holders": holders_text(deal.holders),
            "exposed": exposed_text(deal.exposed),
        },
    }
