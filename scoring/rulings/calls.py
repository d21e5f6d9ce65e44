"""Calls at a table and their rulings: what happened during play, and what the
referee decided — a penalty (now, or when the board's deal is entered), an adjusted score, a
redeal, the short hand drawing back, the board not played (under the event's rule,
`scoring.rulings.not_played`), or nothing. Claims (声称) are calls of kind `claim` with
the claimant, the trick and how the remaining point cards fall.

Which kinds of call, outcomes and seats there are is the event's game's (`Game.call_kinds`,
`Game.call_outcomes`, `Game.seats`): 华牌 has them all; a game without penalty points is never
ruled a penalty, refused before anything is written rather than dropped when its deal is saved.

A call is ruled once; a ruling is changed only by an appeal. Every write runs in one
transaction; a penalty reaches the deal through `entry.services.irregularity_record`, so it is
versioned and in the board's history like any other change of a result.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from scoring.cache import announce_results_changed
from scoring.engine.vocabulary import SEATS
from scoring.entry.errors import EntryError
from scoring.entry.grid import copy_suffix
from scoring.entry.hot_sql import deal_at
from scoring.entry.selectors import check_board
from scoring.entry.services import deal_back_to_draft, irregularity_record
from scoring.entry.versioned import REASON_LIMIT, checked_board, checked_text, irregularity_kind
from scoring.events.permissions import may_enter
from scoring.games import calls as game_calls
from scoring.games import game_of
from scoring.games.huapai import POINT_CARDS, card_label, parse_card
from scoring.games.refusals import Text, _
from scoring.games.stored import event_rules
from scoring.models import RefereeCall, Round
from scoring.rulings.not_played import board_not_played

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.games.base import Game
    from scoring.models import Deal, Table
    from scoring.models.RefereeCall import Kind, Outcome

PENALTY_LIMIT = 100_000  # docs/rules.md: a penalty is an integer −1 … −100000
_SEPARATORS = re.compile(r"[\s,，、;；]+")


def _check_may_rule(user: User, table: Table) -> None:
    if not may_enter(user, table.round.event, table.round):
        if table.round.status == Round.Status.OFFICIAL:
            raise EntryError("round_official", _("本轮成绩已正式公布，只有组织者可以更改"))
        raise EntryError("forbidden", _("你不是本赛事的裁判或组织者"))


def _seats(value: str, seats: tuple[str, ...]) -> str | None:
    """ "N E" / "ne" / "NE" → "NE" (in seat order), each one of the table's `seats` (跑胡子: E S W,
    no North); anything else is refused."""
    letters = [c for c in (value or "").upper() if not c.isspace() and c not in ",，、"]
    if any(c not in seats for c in letters) or len(letters) > len(seats):
        raise EntryError("unknown_seat", _("座位只能是 {seats}"), seats="、".join(seats))
    return "".join(seat for seat in seats if seat in letters)


# The reasons the players themselves may give when their table calls a referee (its page): the
# few a player can name; the referee records any other kind of the game at the table.
PLAYERS_CALL_KINDS = (
    RefereeCall.Kind.OTHER,
    RefereeCall.Kind.CLAIM,
    RefereeCall.Kind.REVOKE,
    RefereeCall.Kind.WRONG_COUNT,
)


def table_call_kinds(game: Game) -> list[tuple[str, str]]:
    """[(kind, label)] a table of `game` offers its players when they call a referee: the players'
    reasons the game has ("other" first: the default)."""
    labels = dict(RefereeCall.Kind.choices)
    return [(str(kind), labels[kind]) for kind in PLAYERS_CALL_KINDS if kind in game.call_kinds]


def check_call_kind(game: Game, kind: str) -> None:
    """Refuse a call of a kind the game does not have (`Game.call_kinds`): 华牌's claims and
    exposures are not 跑胡子's, whichever door the call comes through."""
    if kind in game.call_kinds:
        return
    if kind in RefereeCall.Kind.values and kind != RefereeCall.Kind.DISPUTE:
        raise EntryError(
            "bad_kind",
            _("{game} 没有“{kind}”这种呼叫"),
            game=Text(game.name),
            kind=Text(game_calls.KIND_WORDS[kind]),
        )
    raise EntryError("bad_kind", _("呼叫原因必须是 {kinds} 之一"), kinds="、".join(game.call_kinds))


def check_call_outcome(game: Game, outcome: str) -> None:
    """Refuse a ruling the game does not have (`Game.call_outcomes`) before anything is written:
    penalty points where its law has none (`no_penalties`, never accepted and then dropped when
    the deal is saved), an adjusted score or a board not played where it has none (升级)."""
    if outcome in game.call_outcomes:
        return
    if outcome == RefereeCall.Outcome.PENALTY:
        raise EntryError("no_penalties", _("{game} 的规则没有罚分：裁决不能是罚分"), game=Text(game.name))
    if outcome in RefereeCall.Outcome.values:
        raise EntryError(
            "bad_outcome",
            _("{game} 的裁决不能是“{outcome}”"),
            game=Text(game.name),
            outcome=Text(game_calls.OUTCOME_WORDS[outcome]),
        )
    raise EntryError("bad_outcome", _("请选择裁决结果"))


def call_open(
    *, table: Table, user: User, kind: Kind | str, board: int | None = None, seats: str = "", facts: str = ""
) -> RefereeCall | None:
    """A referee records a call at a table (he is there: it is answered as it is opened), of a
    kind the event's game has, naming seats of its tables."""
    _check_may_rule(user, table)
    game = game_of(table.round.event)
    check_call_kind(game, kind)
    now = timezone.now()
    return RefereeCall.objects.create(
        table=table,
        board=checked_board(board),
        kind=kind,
        seats=_seats(seats, game.seats),
        note=checked_text(facts, Text(_("经过"))),
        opened_by=user,
        answered_at=now,
        answered_by=user,
    )


def claim_fall(text_by_seat: dict[str, str], decks: int = 1) -> dict[str, list[str]]:
    """The remaining point cards' fall as the claimant stated it: `{seat: "♥A ♥K SQ"}` typed per
    seat → `{seat: ["HA", "HK", "SQ"]}`. Each card a point card, each at most `decks` times."""
    fall, seen = {}, {}
    for seat in SEATS:
        words = [w for w in _SEPARATORS.split((text_by_seat.get(seat) or "").strip()) if w]
        if len(words) > 16 * decks:
            raise EntryError("bad_claim", _("{seat} 的牌太多"), seat=seat)
        cards = []
        for word in words:
            card = parse_card(word)
            if card is None or card not in POINT_CARDS:
                raise EntryError("bad_claim", _("“{word:.20}”不是分牌（红桃、♠Q、♦J、♣10）"), word=word)
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > decks:
                raise EntryError("bad_claim", _("{card} 在声称中出现了不止一次"), card=card)
            cards.append(card)
        if cards:
            fall[seat] = cards
    return fall


def _checked_penalty(seat: str, points: int, seats: tuple[str, str, str, str]) -> tuple[str, int]:
    if not isinstance(points, int) or isinstance(points, bool) or not -PENALTY_LIMIT <= points <= 0:
        raise EntryError("bad_penalty", _("罚分必须是 −1 到 −{limit} 之间的整数"), limit=PENALTY_LIMIT)
    if points == 0:
        raise EntryError("bad_penalty", _("罚分的裁决要写明扣多少分"))
    if seat not in seats:
        raise EntryError("unknown_seat", _("罚分需要指定座位"))
    return seat, points


def call_rule(
    *,
    call: RefereeCall,
    user: User,
    outcome: Outcome | str,
    ruling: str,
    penalty_seat: str = "",
    penalty: int = 0,
    claimant: str = "",
    claim_trick: int | None = None,
    claim_fall_by_seat: dict[str, str] | None = None,
    claim_status: str = "",
    board: int | None = None,
    ip: str | None = None,
) -> RefereeCall | None:
    """The referee's ruling on a call. A penalty goes onto the board's deal now if it has one,
    else when the deal is first saved (`pending_penalties`); a redeal voids a result already
    entered (back to draft, in the history) so that the redeal's result replaces it. `board` names
    the board of a call opened without one (a table's "call a referee"), as the referee finds it."""
    table = call.table
    _check_may_rule(user, table)
    if call.ruled_at is not None:
        raise EntryError("already_ruled", _("这个呼叫已经裁决；改变裁决要通过申诉"))
    if call.kind == RefereeCall.Kind.DISPUTE:
        raise EntryError("bad_kind", _("录入争议在这一副的录入页裁决"))
    # The game's outcomes first: a penalty where its law has none is refused before anything else.
    game = game_of(table.round.event)
    check_call_outcome(game, outcome)
    board = checked_board(board)
    if board is not None and call.board is not None and board != call.board:
        raise EntryError("bad_board", _("这个呼叫已经写明是第 {board} 副"), board=call.board)
    if board is not None and call.board is None:
        check_board(table.round.event, table, board)
        call.board = board
    ruling = checked_text(ruling, Text(_("裁决")))
    if not ruling:
        raise EntryError("reason_required", _("裁决要写明理由"))
    needs_board = outcome in (
        RefereeCall.Outcome.PENALTY,
        RefereeCall.Outcome.ADJUSTED,
        RefereeCall.Outcome.REDEAL,
        RefereeCall.Outcome.NOT_PLAYED,
    )
    if needs_board and call.board is None:
        raise EntryError("bad_board", _("这个裁决要指定是第几副"))
    if outcome == RefereeCall.Outcome.DRAWN_BACK and call.kind != RefereeCall.Kind.WRONG_COUNT:
        raise EntryError("bad_outcome", _("少牌方抽回只用于牌数错误"))
    if outcome == RefereeCall.Outcome.NOT_PLAYED and call.kind == RefereeCall.Kind.CLAIM:
        raise EntryError("bad_outcome", _("声称之后这一副已经打了：不能记为未打"))
    seat, points = ("", 0)
    if outcome == RefereeCall.Outcome.PENALTY:
        seat, points = _checked_penalty(penalty_seat, penalty, game.seats)
    claim = {}
    if call.kind == RefereeCall.Kind.CLAIM:
        claim = _claim(table, claimant, claim_trick, claim_fall_by_seat or {}, claim_status)
    deal = deal_at(table, call.board) if call.board is not None else None
    try:
        return _rule(call, table, user, outcome, ruling, seat, points, claim, deal, ip)
    except Exception:
        # Nothing was written: the call the caller holds reads as stored again (unruled), so a
        # page drawn after the refusal shows no ruling that did not happen.
        call.refresh_from_db()
        raise


def _rule(
    call: RefereeCall,
    table: Table,
    user: User,
    outcome: Outcome | str,
    ruling: str,
    seat: str,
    points: int,
    claim: dict[str, Any],
    deal: Deal | None,
    ip: str | None,
) -> RefereeCall:
    with transaction.atomic():
        updated = RefereeCall.objects.filter(pk=call.pk, ruled_at=None).update(
            board=call.board,
            outcome=outcome,
            ruling=ruling,
            penalty_seat=seat,
            penalty=points,
            ruled_at=timezone.now(),
            ruled_by=user,
            answered_at=call.answered_at or timezone.now(),
            answered_by=call.answered_by or user,
            **claim,
        )
        if not updated:
            raise EntryError("already_ruled", _("这个呼叫已经裁决；改变裁决要通过申诉"))
        call.refresh_from_db()
        # The public list of rulings shows it once the round is published.
        announce_results_changed(table.round.event, public=table.round.is_published, shard=table.pk)
        if deal is not None and outcome == RefereeCall.Outcome.PENALTY:
            _penalty_onto(deal, call, user, ip)
        elif deal is not None and outcome == RefereeCall.Outcome.REDEAL:
            _void_for_redeal(deal, call, user, ip)
        elif outcome == RefereeCall.Outcome.NOT_PLAYED:
            # The board ends in no play: recorded under the event's rule (a result entered
            # already is replaced), with the ruling in the board's history.
            board_not_played(
                table=table,
                board=call.board,
                user=user,
                reason=history_reason(call),
                expected_version=deal.version if deal is not None else None,
                existing=deal,
                ip=ip,
                call=call,
            )
    return call


def _claim(table: Table, claimant: str, trick: int, fall_by_seat: dict[str, str], status: str) -> dict[str, Any]:
    event = table.round.event
    decks = game_of(event).card_copies(event_rules(event))  # a claim counts 华牌's tricks
    if claimant not in SEATS:
        raise EntryError("unknown_seat", _("请指定声称者的座位"))
    if not isinstance(trick, int) or isinstance(trick, bool) or not 1 <= trick <= 13 * decks:
        raise EntryError("bad_claim", _("声称时是第几墩：1 到 {last} 之间"), last=13 * decks)
    if status not in RefereeCall.ClaimStatus.values:
        raise EntryError("bad_claim", _("请选择各方是否同意声称"))
    return {
        "claimant": claimant,
        "claim_trick": trick,
        "claim_fall": claim_fall(fall_by_seat, decks),
        "claim_status": status,
    }


def _penalty_onto(deal: Deal, call: RefereeCall, user: User, ip: str | None) -> None:
    irregularity_record(
        deal=deal,
        user=user,
        seat=call.penalty_seat,
        kind=irregularity_kind(call),
        ruling=call.ruling,
        penalty=call.penalty,
        expected_version=deal.version,
        ip=ip,
        call=call,
    )


def _void_for_redeal(deal: Deal, call: RefereeCall, user: User, ip: None) -> None:
    """The board was redealt: the result entered for the first deal no longer stands. It goes
    back to draft, with the ruling in its history; the redeal's result replaces it."""
    reason = history_reason(call)
    deal_back_to_draft(deal=deal, user=user, reason=reason, expected_version=deal.version, ip=ip, call=call)


def penalty_apply(*, call: RefereeCall, user: User, ip: Any = None) -> Deal:
    """A penalty ruled before the deal existed, applied by hand (the board page offers it when
    the deal arrived without it, e.g. entered at the moment of the ruling)."""
    _check_may_rule(user, call.table)
    if call.outcome != RefereeCall.Outcome.PENALTY or call.irregularities.exists():
        raise EntryError("already_ruled", _("这个罚分已经计入"))
    deal = deal_at(call.table, call.board)
    if deal is None:
        raise EntryError("no_deal", _("这一副还没有录入：罚分会在录入时自动计入"))
    with transaction.atomic():
        _penalty_onto(deal, call, user, ip)
    return deal


def claim_values(table: Table, board: int) -> tuple[dict[str, str], RefereeCall | None]:
    """The entry grid's values from the board's ruled claim (`card-HA` → seat), for a board
    with no deal yet: the referee confirms them on the grid and enters the rest."""
    call = (
        RefereeCall.objects.filter(table=table, board=board, kind=RefereeCall.Kind.CLAIM)
        .exclude(ruled_at=None)
        .exclude(claim_fall=None)
        .order_by("-ruled_at")
        .first()
    )
    if call is None:
        return {}, None
    values, copies = {}, {}
    for seat, cards in call.claim_fall.items():
        for card in cards:
            copies[card] = copies.get(card, 0) + 1
            values[f"card-{card}{copy_suffix(copies[card])}"] = seat
    return values, call


def round_calls(rnd: Round) -> list[Any]:
    """Every call of the round, newest first, for the referees' list."""
    return list(
        RefereeCall.objects.filter(table__round=rnd)
        .select_related("table", "entrant", "opened_by", "ruled_by")
        .order_by("-at", "-id")
    )


def history_reason(call: RefereeCall) -> str:
    """How a call's ruling reads in a board's history."""
    return f"{call.get_kind_display()}：{call.ruling}"[:REASON_LIMIT]


def claim_text(call: RefereeCall) -> str:
    """A claim's fall as a referee reads it: "N ♥A ♥K；S ♣10" ("" for other calls)."""
    if not call.claim_fall:
        return ""
    return "；".join(
        f"{seat} {' '.join(card_label(card) for card in call.claim_fall[seat])}"
        for seat in SEATS
        if seat in call.claim_fall
    )
