"""Publishing a round: the checklist, provisional → official after the correction period,
and the public list of changes made after publication."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from scoring.backups.services import after_milestone
from scoring.cache import announce_results_changed
from scoring.engine.vocabulary import Kind, MatchMode
from scoring.entry.selectors import table_board_states
from scoring.games import game_of
from scoring.games.huapai import card_label
from scoring.games.refusals import Refusal, Text, _, listed
from scoring.games.stored import boards_played_out, carries_state, event_rules
from scoring.models import Appeal, Deal, DealHistory, PairingLog, RefereeCall, Round
from scoring.rulings.not_played import awaiting_boards, stale_averages

if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import datetime
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.models import Event


def publication_checklist(rnd: Round) -> dict[str, list[Any]]:
    """What stands between a round and publication: blocking problems and warnings.

    Returns `{"blocking": [...], "warnings": [...], "open_calls": [...]}` of `Text` sentences naming
    table and board (rendered in the page's language by `scoring.messages.text`). `open_calls`:
    the calls at a table still awaiting a ruling — a warning that publishing needs confirmed
    (`round_publish(open_calls_confirmed=True)`; docs/organising.md).
    """

    event = rnd.event
    blocking, warnings = [], []
    states = table_board_states(rnd)
    tables = list(rnd.tables.order_by("number"))
    deals_by_table = {}
    for deal in Deal.objects.filter(table__round=rnd).order_by("sequence"):
        deals_by_table.setdefault(deal.table_id, []).append(deal)
    game = game_of(event)
    threaded = carries_state(game)
    rules = event_rules(event) if threaded else None
    for table in tables:
        table_states = states.get(table.id, {})
        deals = deals_by_table.get(table.id, [])
        if event.match_mode == MatchMode.BOARDS:
            # A match that ends by itself (升级's target) needs its boards up to the one that ended
            # it; one the chief arbiter ruled on, the boards it had (`scoring.rulings.match_ruling`).
            needed = (
                boards_played_out(
                    game, rules, [d.as_deal_json() for d in deals], event.match_length, table.match_ruling
                )
                if threaded
                else event.match_length
            )
            missing = [b for b in range(1, needed + 1) if b not in table_states]
            if threaded and missing and deals:
                # Its deals after the last one entered are not "missing" boards but a match not
                # over: entered until it ends, or ruled on by the chief arbiter when time is up.
                last = max(table_states, default=0)
                blocking.append(
                    Text(
                        _("{table}号桌比赛未结束（已录 {played} 副）：录入其后各副，或由裁判长裁定比赛结果"),
                        table=table.number,
                        played=last,
                    )
                )
                missing = [b for b in missing if b < last]
            if missing:
                blocking.append(Text(_("{table}号桌缺少第 {boards} 副"), table=table.number, boards=_ranges(missing)))
        else:
            games = game.match_units([(d.ns_score, d.ew_score) for d in deals], event.game_threshold)
            if len(games) < event.match_length or (games and not games[-1].finished):
                warnings.append(
                    Text(
                        _("{table}号桌：{games} 局未打完（{played} 局，最后一局未结束）"),
                        table=table.number,
                        games=event.match_length,
                        played=len(games),
                    )
                )
        drafts = sorted(b for b, state in table_states.items() if state == "draft")
        if drafts:
            blocking.append(Text(_("{table}号桌第 {boards} 副未确认"), table=table.number, boards=_ranges(drafts)))
        disputed = sorted(b for b, state in table_states.items() if state == "disputed")
        if disputed:
            blocking.append(
                Text(_("{table}号桌第 {boards} 副有争议，等裁判裁决"), table=table.number, boards=_ranges(disputed))
            )
        conflicts = sorted(b for b, state in table_states.items() if state == "conflict")
        if conflicts:
            blocking.append(
                Text(_("{table}号桌第 {boards} 副两名裁判录入不一致"), table=table.number, boards=_ranges(conflicts))
            )
        for deal in deals:
            if deal.adjusted is not None and not deal.adjusted_reason.strip():
                reason_missing = _("{table}号桌第 {board} 副调整分没有写理由")
                warnings.append(Text(reason_missing, table=table.number, board=deal.board))
    if event.kind == Kind.TEAMS:
        warnings.extend(holder_disagreements(rnd, deals_by_table))
    # Boards not played (scoring.rulings.not_played): awaiting the chief arbiter's score, or
    # scored by an average that other tables' results have changed since.
    blocking.extend(awaiting_boards(rnd))
    warnings.extend(stale_averages(rnd))
    return {"blocking": blocking, "warnings": warnings, "open_calls": open_calls(rnd)}


def open_calls(rnd: Round) -> list[Text]:
    """Each call of the round still awaiting a ruling, naming its table, board, kind and facts:
    "2号桌第 5 副：其他“西家出牌太慢”待裁决". A disputed board's call is not listed: the board's
    dispute already blocks publication."""
    found = []
    calls = (
        RefereeCall.objects.filter(table__round=rnd, ruled_at=None)
        .exclude(kind=RefereeCall.Kind.DISPUTE)
        .select_related("table")
        .order_by("table__number", "at", "id")
    )
    for call in calls:
        # The facts quoted as the referee wrote them (English sets them off with a space).
        facts = Text(_("“{note}”"), note=call.note) if call.note.strip() else ""
        kind = RefereeCall.Kind(call.kind).label  # lazy: rendered in the page's language
        if call.board is None:
            found.append(Text(_("{table}号桌：{kind}{facts}待裁决"), table=call.table.number, kind=kind, facts=facts))
        else:
            found.append(
                Text(
                    _("{table}号桌第 {board} 副：{kind}{facts}待裁决"),
                    table=call.table.number,
                    board=call.board,
                    kind=kind,
                    facts=facts,
                )
            )
    return found


def unconfirmed_boards(rnd: Round) -> list[Any]:
    """Sentences naming the tables and boards of a round that are not confirmed (draft or conflict)."""

    numbers = dict(rnd.tables.values_list("id", "number"))
    found = []
    for table_id, table_states in sorted(table_board_states(rnd).items(), key=lambda item: numbers[item[0]]):
        waiting = sorted(board for board, state in table_states.items() if state in ("draft", "conflict", "disputed"))
        if waiting:
            found.append(Text(_("{table}号桌第 {boards} 副未确认"), table=numbers[table_id], boards=_ranges(waiting)))
    return found


def _holder_differences(
    rnd: Round, deals_by_table: dict[int, list[Any]] | None = None, table_ids: Any = None
) -> Iterator[tuple[Any, ...]]:
    """(tables, board, card, first holder, second holder) wherever the two tables of a duplicate
    team match disagree on who was dealt ♠Q ♦J ♣10 ♥A (`table_ids`: only the matches of these tables)."""
    matches = rnd.matches.all() if table_ids is None else rnd.matches.filter(tables__id__in=table_ids).distinct()
    if deals_by_table is None:
        deals_by_table = {}
        deals = Deal.objects.filter(table__round=rnd)
        if table_ids is not None:
            deals = deals.filter(table__match__in=matches)
        for deal in deals.only("table_id", "board", "game_data"):
            deals_by_table.setdefault(deal.table_id, []).append(deal)
    for match in matches.prefetch_related("tables"):
        tables = list(match.tables.all())
        if len(tables) != 2:
            continue
        boards = [{d.board: d for d in deals_by_table.get(t.id, [])} for t in tables]
        for board in sorted(set(boards[0]) & set(boards[1])):
            first, second = boards[0][board], boards[1][board]
            held = first.game_data.get("holders") or {}, second.game_data.get("holders") or {}
            for card in set(held[0]) & set(held[1]):
                if held[0][card] != held[1][card]:
                    yield tables, board, card, held[0][card], held[1][card]


def holder_disagreements(rnd: Round, deals_by_table: dict[int, list[Any]] | None = None) -> list[Text]:
    """Duplicate team matches: the dealt holders of ♠Q ♦J ♣10 ♥A must agree at both tables."""
    return [
        Text(
            _("{first_table}/{second_table}号桌第 {board} 副：{card} 的持牌人不一致（{first} / {second}）"),
            first_table=tables[0].number,
            second_table=tables[1].number,
            board=board,
            card=card_label(card),
            first=first,
            second=second,
        )
        for tables, board, card, first, second in _holder_differences(rnd, deals_by_table)
    ]


def holder_disagreements_by_board(rnd: Round, table_ids: Any = None) -> set[tuple[int, int]]:
    """{(table id, board)} of both tables of every board whose dealt holders disagree (`table_ids`:
    only the matches these tables play)."""
    return {
        (table.id, board) for tables, board, *_rest in _holder_differences(rnd, table_ids=table_ids) for table in tables
    }


def _ranges(numbers: list[int]) -> Text | str:
    """[1, 2, 3, 5] → "1–3、5" (", " in English)."""
    parts, start, previous = [], None, None
    for n in numbers:
        if start is None:
            start = previous = n
        elif n == previous + 1:
            previous = n
        else:
            parts.append(f"{start}–{previous}" if previous != start else str(start))
            start = previous = n
    if start is not None:
        parts.append(f"{start}–{previous}" if previous != start else str(start))
    return listed(parts)


class PublicationError(Refusal):
    """Publication refused, in domain terms: a stable code and a message naming why."""

    def __init__(self, template: str, code: str = "publication_refused", **params: int | Text) -> None:
        super().__init__(code, template, **params)


@transaction.atomic
def round_publish(rnd: Round, *, user: User, open_calls_confirmed: bool = False) -> Round:
    """In play → provisional (published). Refused while the checklist has blocking problems, and
    while a call at a table awaits its ruling unless the organiser confirms publishing anyway
    (`open_calls_confirmed`: the ruling may then change a published result, listed publicly)."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status not in (Round.Status.SCHEDULED, Round.Status.IN_PLAY):
        raise PublicationError(_("本轮已经公布"), code="already_published")
    checklist = publication_checklist(rnd)
    blocking = checklist["blocking"]
    if blocking:
        raise PublicationError(
            _("还有 {count} 个问题阻止公布，例如：{first}"),
            code="checklist_blocking",
            count=len(blocking),
            first=blocking[0],
        )
    if checklist["open_calls"] and not open_calls_confirmed:
        raise PublicationError(
            _("还有 {count} 个呼叫未裁决（{calls}）：确认仍要公布时，勾选确认后再按公布"),
            code="open_calls",
            count=len(checklist["open_calls"]),
            calls=listed(checklist["open_calls"]),
        )
    rnd.status = Round.Status.PROVISIONAL
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    PairingLog.objects.create(round=rnd, user=user, action="publish", detail={})
    announce_results_changed(rnd.event)
    transaction.on_commit(lambda: after_milestone("publish"))
    return rnd


@transaction.atomic
def round_make_official(rnd: Round, *, user: User, now: datetime | None = None) -> Round:
    """Provisional → official, once the correction period is over."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
    if rnd.status != Round.Status.PROVISIONAL:
        raise PublicationError(_("只有临时公布的轮次可以转为正式成绩"), code="not_provisional")
    now = now or timezone.now()
    # A round published before publication times were kept has no period left to wait for.
    ends = rnd.published_at + timedelta(minutes=rnd.event.correction_minutes) if rnd.published_at else now
    if now < ends:
        left = int((ends - now).total_seconds() // 60) + 1
        raise PublicationError(_("更正期还有约 {minutes} 分钟"), code="correction_period", minutes=left)
    # An appeal lodged within the period is decided before the results are certified.
    appeals = Appeal.objects.filter(round=rnd, decided_at=None).count()
    if appeals:
        raise PublicationError(_("还有 {count} 件申诉未决定，不能转为正式成绩"), code="open_appeals", count=appeals)
    # Checked again here, under the round's lock: a correction during the period returns
    # a deal to draft, and an official round certifies only confirmed results.
    unconfirmed = unconfirmed_boards(rnd)
    if unconfirmed:
        raise PublicationError(
            _("不能转为正式成绩：{first}（共 {count} 处）"),
            code="unconfirmed_deals",
            first=unconfirmed[0],
            count=len(unconfirmed),
        )
    rnd.status = Round.Status.OFFICIAL
    rnd.official_at = now
    rnd.save(update_fields=["status", "official_at"])
    PairingLog.objects.create(round=rnd, user=user, action="official", detail={})
    announce_results_changed(rnd.event)
    transaction.on_commit(lambda: after_milestone("official"))
    return rnd


def changes_since_publication(event: Event, rnd: Round | None = None, board: int | None = None) -> list[DealHistory]:
    """Every change to a published round's results after it was published (public list), or to
    `board` of `rnd` only; each with the call at the table whose ruling it applies and the
    appeal it was made for, where it has them (`call`, `appeal`: the public page links them)."""

    rows = []
    published = {r.id: r for r in event.rounds.published() if rnd is None or r.id == rnd.id}
    history = (
        DealHistory.objects.filter(table__round_id__in=published)
        .exclude(action__in=[DealHistory.Action.CONFIRM])
        .select_related("table", "table__round", "user", "call", "appeal", "appeal__call")
        .order_by("at", "id")
    )
    if board is not None:
        history = history.filter(board=board)
    for row in history:
        its_round = published[row.table.round_id]
        if its_round.published_at and row.at > its_round.published_at:
            rows.append(row)
    return rows
