"""Reading what referees enter: locating a board, a deal as the API and the history show it,
the dashboard's board states, blind-entry differences and the entry page's live preview.

Writes are in `scoring.entry.services`; nothing here changes the database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.engine.vocabulary import SEATS, MatchMode
from scoring.entry.errors import EntryError
from scoring.entry.game_fields import on_its_grid
from scoring.events.permissions import is_organiser
from scoring.games import game_of
from scoring.games.huapai import EXPOSABLE, POINT_CARDS, card_label
from scoring.games.refusals import DealError, Text, _
from scoring.games.stored import (
    COLUMN_SEATS,
    canonical_deal,
    carries_state,
    event_rules,
    place_deal,
    plays_alone,
    table_match,
    table_summary,
)
from scoring.messages import breakdown_lines, games_line, message_text, term_text
from scoring.models import BlindEntry, Deal, DealHistory, Event, Table

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.games.base import Game
    from scoring.models import Round

NO_SUCH_BOARD = _("没有这一副")


def enters_blind(user: User, event: Event) -> bool:
    """Whether `user` enters this event's deals blind (双人独立录入): in an event with double
    entry every referee does, and sees neither the stored deal nor the other's entry; the
    organisers (the head referee) enter and correct openly and settle the differences."""
    return event.double_entry and not is_organiser(user, event)


def not_found(template: str = NO_SUCH_BOARD, **params: int) -> EntryError:
    return EntryError("not_found", template, **params)


def locate_board(event: Event, round_number: int, table_number: int, board: int) -> tuple[Table, int]:
    """The table and board addressed by a page, or `EntryError("not_found")` (see `check_board`)."""
    table = (
        Table.objects.select_related("round")
        .filter(round__event=event, round__number=round_number, number=table_number)
        .order_by()
        .first()
    )
    if table is not None:
        table.round.event = event  # already loaded by the caller
    return check_board(event, table, board)


def check_board(event: Event, table: Table, board: int) -> tuple[Table, int]:
    """`(table, board)` if the board belongs to the table's match, else `EntryError("not_found")`.

    A board must belong to the match: 1…N in boards mode; in games mode a
    board already played or the next one, while the match is not over.
    """
    if table is None or board < 1:
        raise not_found(_("没有这一桌")) if table is None else not_found()
    if event.match_mode == MatchMode.BOARDS:
        if board > event.match_length:
            raise not_found(_("每场只有 {boards} 副"), boards=event.match_length)
        return table, board
    played = list(table.deals.order_by("sequence").values_list("board", "ns_score", "ew_score"))
    if any(b == board for b, *_scores in played):
        return table, board
    next_board = max((b for b, *_scores in played), default=0) + 1
    games = game_of(event).match_units([(ns, ew) for _board, ns, ew in played], event.game_threshold)
    over = len(games) >= event.match_length and games[-1].finished
    if board != next_board or over:
        raise not_found(_("这场比赛没有这一副（局制：只能录入下一副）"))
    return table, board


def snapshot(deal: Deal) -> dict[str, Any]:
    """A deal as the API and the history show it."""
    if deal is None:
        return None
    data = {
        # The deal's own keys (`Game.deal_keys`: 华牌's `captured`…, 蚌埠斗地主's `landlord`…).
        **deal.game_data,
        "penalties": deal.penalties,
        "status": deal.status,
        "version": deal.version,
        "scores": deal.scores,
        "raw": deal.raw,
        "sides": {"NS": deal.ns_score, "EW": deal.ew_score},
    }
    if deal.adjusted is not None:
        data["adjusted"] = deal.adjusted
        data["adjusted_reason"] = deal.adjusted_reason
    # A board recorded not played says so (scoring.engine.not_played): in the API and the history.
    mark = deal.extra.get("not_played") if isinstance(deal.extra, dict) else None
    if mark:
        data["not_played"] = mark
    return data


def api_view(deal: Deal) -> dict[str, Any]:
    return {
        "board": deal.board,
        **snapshot(deal),
        "entered_by": deal.entered_by.username if deal.entered_by else None,
        "confirmed_by": deal.confirmed_by.username if deal.confirmed_by else None,
    }


def next_to_confirm(rnd: Round, user: User, after: Any = (0, 0)) -> Any:
    """The first deal of the round after (table number, board) that `user` may confirm
    (a draft entered by someone else), else the first one before it; or None."""
    waiting = list(
        Deal.objects.filter(table__round=rnd, status=Deal.Status.DRAFT)
        .exclude(entered_by=user)
        .order_by("table__number", "board")
        .values_list("table__number", "board")
    )
    later = [place for place in waiting if place > after]
    return (later or [place for place in waiting if place != after] or [None])[0]


def _history_row(row: DealHistory, links: bool = False) -> dict[str, Any]:
    return {
        "version": row.version,
        "user": row.user.username if row.user else None,
        "at": row.at.isoformat(),
        "action": row.action,
        "before": row.before,
        "after": row.after,
        "reason": row.reason,
        # A player's action through the table link names the acting entrant and the channel.
        "entrant": row.entrant.code if row.entrant else None,
        "channel": row.channel or ("referee" if row.user_id else None),
        # The referees' pages (`links`): the call whose ruling made the change and the appeal
        # it was made for (ids, or None). The API's rows keep referee-api.md's keys.
        **({"call": row.call_id, "appeal": row.appeal_id} if links else {}),
    }


def history_rows(table: Table, board: int, links: bool = False) -> list[dict[str, Any]]:
    """One board's history, oldest first, as the history API and pages show it."""
    return [
        _history_row(row, links)
        for row in DealHistory.objects.filter(table=table, board=board)
        .select_related("user", "entrant")
        .order_by("at", "id")
    ]


def table_history(table: Table) -> dict[int, list[Any]]:
    """{board: history rows} of every board of a table, in one query (the whole-table page)."""
    found = {}
    for row in DealHistory.objects.filter(table=table).select_related("user", "entrant").order_by("board", "at", "id"):
        found.setdefault(row.board, []).append(_history_row(row, links=True))
    return found


def blind_differences(table: Table, board: int) -> list[tuple[str, Any]]:
    """The cells where the blind entries of a board differ: [(what, {username: value})]."""
    entries = list(BlindEntry.objects.filter(table=table, board=board).select_related("user"))
    if len(entries) < 2:
        return []
    if "captured" not in entries[0].payload:  # another game's deal, kept whole: key by key
        found = []
        for key in sorted({key for entry in entries for key in entry.payload}):
            values = {entry.user.username: entry.payload.get(key) for entry in entries}
            if len(set(map(str, values.values()))) > 1:
                found.append((key, values))
        return found
    differences = []

    def seats_of(payload: dict[str, dict[str, Any]], card: str) -> str:
        # Every copy's taker: with two decks a card has two.
        return ",".join(sorted(seat for seat, cards in payload["captured"].items() for c in cards if c == card)) or None

    cells = [(f"captured {card}", lambda p, c=card: seats_of(p, c)) for card in POINT_CARDS]
    cells += [(f"holder {card}", lambda p, c=card: p["holders"].get(c)) for card in EXPOSABLE]
    cells += [(f"exposed {card}", lambda p, c=card: p["exposed"].get(c)) for card in EXPOSABLE]
    cells += [(f"penalty {seat}", lambda p, s=seat: p["penalties"].get(s)) for seat in SEATS]
    for label, read in cells:
        values = {entry.user.username: read(entry.payload) for entry in entries}
        if len(set(map(str, values.values()))) > 1:
            differences.append((label, values))
    return differences


def table_board_states(rnd: Round) -> dict[int, dict[int, str]]:
    """{table id: {board: "missing" | "draft" | "confirmed" | "conflict"}} for a round's dashboard."""
    states = {}
    for table_id, board, status in Deal.objects.filter(table__round=rnd).values_list("table_id", "board", "status"):
        states.setdefault(table_id, {})[board] = status
    payloads = {}
    for table_id, board, payload in BlindEntry.objects.filter(table__round=rnd).values_list(
        "table_id", "board", "payload"
    ):
        payloads.setdefault((table_id, board), []).append(payload)
    for (table_id, board), entries in payloads.items():
        table_states = states.setdefault(table_id, {})
        if board not in table_states and len(entries) > 1 and any(e != entries[0] for e in entries):
            table_states[board] = "conflict"
    return states


def deal_preview(table: Table, board: int, deal_json: dict[str, Any]) -> dict[str, Any]:
    """What the entry page shows as the referee types: problems, or scores, and the 局 running totals.

    The page's JavaScript only collects the form and draws this; every number
    comes from the engine here.
    """
    event = table.round.event
    game = game_of(event)
    rules = event_rules(event)
    adjusted = deal_json.get("adjusted")
    problems = []
    if carries_state(game) and adjusted is None:
        try:  # the deal at its place in the table's match: the state reached before it
            deal_json = placed_deal(table, board, game, rules, deal_json)
        except DealError as failure:
            problems = [failure]
    if not problems:
        problems = [] if adjusted is not None else game.read_deal(deal_json, rules)[1]
    try:
        result = None if problems else game.score_stored(rules, deal_json, adjusted)
    except DealError as failure:
        result, problems = None, [failure]
    # 局 running totals decide a match only in a games-scored event; elsewhere they would mislead.
    scored_by_games = event.match_mode == Event.MatchMode.GAMES
    games = []
    if scored_by_games:
        sides = list(
            table.deals.exclude(board=board).order_by("sequence").values_list("sequence", "ns_score", "ew_score")
        )
        if result:
            sides.append((board, result["sides"]["NS"], result["sides"]["EW"]))
            sides.sort()
        games = game.match_units([(ns, ew) for _board, ns, ew in sides], event.game_threshold)
    breakdown = (
        {
            seat: [term_text(e.get("text", e.get("note")), game) for e in entries]
            for seat, entries in result["breakdown"].items()
        }
        if result
        else None
    )
    games = [{"number": g.number, "ns": g.ns, "ew": g.ew, "finished": g.finished} for g in games]
    return {
        # `card` (as the grid labels it, "♥A") lets the page put the problem beside that card;
        # `field` (another game's deal key) beside that field.
        "problems": [
            {
                "code": p.code,
                "message": message_text(p),
                "card": str(p.params.get("card", "")),
                "field": refused_field(game, p),
            }
            for p in problems
        ],
        "scores": result["scores"] if result else None,
        "raw": result.get("raw") if result else None,
        "sides": result.get("sides") if result else None,
        "breakdown": breakdown,
        "games": games,
        # The same two in the page's words, as the page draws them (and as it is first served).
        "breakdown_lines": breakdown_lines(breakdown or {}),
        "games_line": games_line(games),
        "totals": _table_totals(table, board, game, result) if plays_alone(game) else None,
        "questions": holder_questions(deal_json) if on_its_grid(game, rules) else [],
        # A game that carries a state (升级): the levels before and after, the match's progress.
        "match": match_lines(table, board, game, rules, canonical_deal(game, result) if result else None),
    }


def placed_deal(table: Table, board: int, game: Game, rules: Any, entered: dict[str, Any]) -> dict[str, Any] | None:
    """The deal JSON of board `board` of a game that carries a state (升级) with the state the
    table's match reached before it: every earlier board must be there (entered, in whatever
    status), in order (`games.stored.place_deal`); none after the deals a chief arbiter's ruling
    on the match decided it on (`scoring.rulings.match_ruling`). Raises `DealError`."""
    ruled = ruled_deals(table)
    if ruled is not None and board > ruled:
        raise DealError(
            "match_ruled",
            _("裁判长已裁定本场比赛的结果（共 {deals} 副）：第 {board} 副不能再记"),
            deals=ruled,
            board=board,
        )
    earlier = list(Deal.objects.filter(table=table, board__lt=board).order_by("board"))
    missing = sorted(set(range(1, board)) - {deal.board for deal in earlier})
    if missing:
        raise DealError(
            "earlier_missing",
            _("请先录第 {boards} 副：这一副接着本桌前面各副的状态打"),
            boards="、".join(map(str, missing)),
        )
    return place_deal(game, rules, entered, [deal.as_deal_json() for deal in earlier])


def ruled_deals(table: Table) -> int | None:
    """The deals a chief arbiter's ruling on the table's match decided it on, or None (not ruled)."""
    ruling = getattr(table, "match_ruling", None)
    return ruling.get("deals") if isinstance(ruling, dict) else None


def match_lines(table: Table, board: int, game: Game, rules: Any, entered: dict[str, Any] | None = None) -> list[str]:
    """The table's match around board `board` in the game's words, for a game that carries a
    state from deal to deal (升级: the levels before and after the deal, the match's progress to
    its end): the engine's match of the earlier deals as stored, and with the deal as entered
    (`entered`, placed and canonical; None: not scored); [] for any other game."""
    if not carries_state(game):
        return []
    earlier = [deal.as_deal_json() for deal in table.deals.filter(board__lt=board).order_by("board")]
    before = table_match(game, rules, earlier) or game.table_match([], rules)
    after = game.table_match([*earlier, entered], rules) if entered is not None else None
    lines = [message_text(line) for line in game.match_lines(before, after, rules)]
    ruling = getattr(table, "match_ruling", None)
    if ruling:  # the chief arbiter decided the match: the referee sees how, and why, on its deals
        whole = [deal.as_deal_json() for deal in table.deals.order_by("board")]
        lines.append(message_text(table_summary(game, rules, whole, ruling)))
    return lines


def match_ended_at(table: Table, board: int, game: Game, rules: Any) -> bool:
    """Whether the table's match, as stored, ended with board `board` or before it (a game that
    carries a state: 升级's target reached, or its deals played); False for any other game."""
    if not carries_state(game):
        return False
    ruled = ruled_deals(table)
    if ruled is not None and board >= ruled:  # the chief arbiter decided the match on these deals
        return True
    deals = [deal.as_deal_json() for deal in table.deals.filter(board__lte=board).order_by("board")]
    result = table_match(game, rules, deals)
    return bool(result and result["finished"])


def refused_field(game: Game, problem: DealError) -> str:
    """The entry field a refusal is about, where the game says (another game's deal key)."""
    return game.refusal_key(problem) or ""


def _table_totals(table: Table, board: int, game: Game, result: dict[str, Any] | None) -> dict[str, int]:
    """Each seat's total at the table with this deal as entered (a game of individuals: the
    match is the sum of the deals), from the scores the engine gave the stored deals."""
    totals = dict.fromkeys(game.seats, 0)
    columns = [f"score_{seat.lower()}" for seat in COLUMN_SEATS]
    for row in table.deals.exclude(board=board).values_list(*columns):
        for seat, score in zip(COLUMN_SEATS, row, strict=True):
            if seat in totals:
                totals[seat] += score
    if result:
        for seat in totals:
            totals[seat] += result["scores"].get(seat, 0)
    return totals


def holder_questions(deal_json: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    """The special cards someone captured whose holder is not given: 自得 (and a 明) depends on
    who held it, so the page asks instead of scoring it silently without."""
    captured = deal_json.get("captured") if isinstance(deal_json.get("captured"), dict) else {}
    taken = {card for cards in captured.values() if isinstance(cards, list) for card in cards if isinstance(card, str)}
    holders = deal_json.get("holders") if isinstance(deal_json.get("holders"), dict) else {}
    return [
        {"card": card, "message": message_text(Text(_("{card} 是谁发到的？自得取决于持牌人"), card=card_label(card)))}
        for card in EXPOSABLE
        if card in taken and not holders.get(card)
    ]
