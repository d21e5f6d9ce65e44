"""Creating rounds: pairing the next round and changing a pairing by hand (logged)."""

import secrets
from collections import defaultdict
from datetime import timedelta

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from scoring.models import Deal, Entrant, Match, Membership, PairingLog, Player, Round, Table
from scoring.pairing import (
    PairingError,
    candidates_from_history,
    pair_individual,
    pair_random,
    pair_roundrobin,
    pair_swiss,
)
from scoring.results import entrant_codes, event_format, event_match_results, warm_public_standings
from scoring.standings import compute_standings
from scoring.vocabulary import Kind, MatchMode

METHODS = ("swiss", "roundrobin", "random")


def unfinished_rounds(event):
    """Numbers of rounds with a match that has no deals or an unconfirmed deal."""
    unplayed = (
        Match.objects.filter(round__event=event, bye__isnull=True, bye_player__isnull=True)
        .annotate(deal_count=Count("tables__deals"))
        .filter(deal_count=0)
        .values_list("round__number", flat=True)
    )
    unconfirmed = (
        Deal.objects.filter(table__round__event=event)
        .exclude(status=Deal.Status.CONFIRMED)
        .values_list("table__round__number", flat=True)
    )
    return sorted(set(unplayed) | set(unconfirmed))


@transaction.atomic
def round_pair(event, method, *, user=None, seed=None):
    """Pair and create the next round of `event`; returns the new `Round`.

    Swiss and random pairing refuse while an earlier round has unplayed or
    unconfirmed matches; a round robin is fixed in advance and pairs anyway.
    """
    if method not in METHODS:
        raise PairingError(f"未知编排方式 {method!r} / unknown method {method!r}")
    if method != "roundrobin":
        unfinished = unfinished_rounds(event)
        if unfinished:
            numbers = "、".join(str(n) for n in unfinished)
            raise PairingError(
                f"第{numbers}轮还有未完成或未确认的比赛，不能编排下一轮"
                f" / round {numbers} still has unplayed or unconfirmed matches"
            )
    number = (event.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    matches = event_match_results(event)
    rows = compute_standings(event_format(event), matches, entrant_codes(event))
    candidates = candidates_from_history(rows, matches)
    if event.kind == Kind.INDIVIDUAL:
        if method == "random":
            seed = seed if seed is not None else secrets.randbelow(2**31)
            import random

            random.Random(seed).shuffle(candidates)
        elif method == "roundrobin":
            raise PairingError("个人赛不能用循环赛编排 / individual events cannot be paired round robin")
        pairing = pair_individual(candidates)
    elif method == "roundrobin":
        pairing = pair_roundrobin(candidates, number - 1)
    elif method == "random":
        pairing = pair_random(candidates, seed if seed is not None else secrets.randbelow(2**31))
    else:
        pairing = pair_swiss(candidates)
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.SCHEDULED)
    _create_tables(event, rnd, pairing)
    event.results_changed(public=False)  # a scheduled round is not public
    PairingLog.objects.create(
        round=rnd,
        user=user,
        action=f"pair:{method}",
        detail={
            "tables": pairing.tables,
            "byes": pairing.byes,
            "rematches": pairing.rematches,
            "note": pairing.note,
        },
    )
    return rnd


def members_by_entrant(event):
    """{entrant code: [players in seating order]} in one query (no per-entrant look-ups)."""
    members = defaultdict(list)
    for membership in (
        Membership.objects.filter(entrant__event=event).select_related("entrant", "player").order_by("position")
    ):
        members[membership.entrant.code].append(membership.player)
    return members


def _create_tables(event, rnd, pairing):
    """Matches and tables of a new round, written in bulk (2,500 tables is an ordinary day)."""
    matches, tables = [], []
    if event.kind == Kind.INDIVIDUAL:
        players = {p.code: p for p in Player.objects.filter(event=event)}
        for number, seats in enumerate(pairing.tables, start=1):
            match = Match(round=rnd, number=number)
            matches.append(match)
            tables.append(
                Table(
                    round=rnd,
                    match=match,
                    number=number,
                    north=players[seats["N"]],
                    east=players[seats["E"]],
                    south=players[seats["S"]],
                    west=players[seats["W"]],
                )
            )
        byes = [
            Match(round=rnd, number=n, bye_player=players[code])
            for n, code in enumerate(pairing.byes, start=len(pairing.tables) + 1)
        ]
    else:
        entrants = {e.code: e for e in Entrant.objects.filter(event=event)}
        members = members_by_entrant(event)
        for number, (home_code, away_code) in enumerate(pairing.tables, start=1):
            home, away = entrants[home_code], entrants[away_code]
            match = Match(round=rnd, number=number, home=home, away=away)
            matches.append(match)
            home_players, away_players = members[home_code], members[away_code]
            if event.kind == Kind.TEAMS:
                # Duplicate: home's first pair sits NS at one table, away's first pair at the other.
                seatings = (
                    (home, home_players[:2], away, away_players[2:4] or away_players[:2]),
                    (away, away_players[:2], home, home_players[2:4] or home_players[:2]),
                )
            else:
                seatings = ((home, home_players, away, away_players),)
            for ns_team, ns_players, ew_team, ew_players in seatings:
                tables.append(
                    Table(
                        round=rnd,
                        match=match,
                        number=len(tables) + 1,
                        ns_entrant=ns_team,
                        ew_entrant=ew_team,
                        north=ns_players[0],
                        south=ns_players[1],
                        east=ew_players[0],
                        west=ew_players[1],
                    )
                )
        byes = [
            Match(round=rnd, number=n, bye=entrants[code])
            for n, code in enumerate(pairing.byes, start=len(pairing.tables) + 1)
        ]
    Match.objects.bulk_create(matches + byes, batch_size=1000)
    Table.objects.bulk_create(tables, batch_size=1000)


@transaction.atomic
def round_swap_entrants(rnd, first_code, second_code, *, user=None):
    """Swap two entrants (pairs: their places at tables) before the round starts; logged."""
    if rnd.status != Round.Status.SCHEDULED or Table.objects.filter(round=rnd, deals__isnull=False).exists():
        raise PairingError("只能在本轮开始前调整编排 / a pairing can only change before the round starts")
    event = rnd.event
    if event.kind != Kind.PAIRS:
        raise PairingError("手工调换目前只支持双人赛 / swapping by hand is for pairs events")
    entrants = {
        e.code: e
        for e in Entrant.objects.filter(event=event, code__in=[first_code, second_code]).prefetch_related(
            "memberships__player"
        )
    }
    if len(entrants) != 2:
        raise PairingError("找不到要调换的参赛对 / unknown entrant")
    places = {}
    for table in Table.objects.select_for_update().filter(round=rnd):
        for side in ("ns", "ew"):
            code = getattr(table, f"{side}_entrant").code
            if code in entrants:
                places[code] = (table, side)
    for match in Match.objects.filter(round=rnd, bye__code__in=entrants):
        places[match.bye.code] = (match, "bye")
    if len(places) != 2:
        raise PairingError("两个参赛对都必须在本轮中 / both entrants must be in this round")
    (a, (place_a, side_a)), (b, (place_b, side_b)) = places.items()
    _seat_entrant(place_a, side_a, entrants[b])
    _seat_entrant(place_b, side_b, entrants[a])
    PairingLog.objects.create(round=rnd, user=user, action="swap", detail={"swapped": [a, b]})
    event.results_changed(public=False)


def _seat_entrant(place, side, entrant):
    if side == "bye":
        place.bye = entrant
        place.save(update_fields=["bye"])
        return
    players = [m.player for m in entrant.memberships.all()]
    setattr(place, f"{side}_entrant", entrant)
    if side == "ns":
        place.north, place.south = players[0], players[1]
    else:
        place.east, place.west = players[0], players[1]
    place.save()
    match = place.match
    setattr(match, "home" if side == "ns" else "away", entrant)
    match.save(update_fields=["home" if side == "ns" else "away"])


def publication_checklist(rnd):
    """What stands between a round and publication: blocking problems and warnings.

    Returns `{"blocking": [...], "warnings": [...]}` of sentences naming table and board.
    """
    from scoring.entry import table_board_states
    from scoring.rules import split_games

    event = rnd.event
    blocking, warnings = [], []
    states = table_board_states(rnd)
    tables = list(rnd.tables.order_by("number"))
    deals_by_table = {}
    for deal in Deal.objects.filter(table__round=rnd).order_by("sequence"):
        deals_by_table.setdefault(deal.table_id, []).append(deal)
    for table in tables:
        table_states = states.get(table.id, {})
        deals = deals_by_table.get(table.id, [])
        if event.match_mode == MatchMode.BOARDS:
            missing = [b for b in range(1, event.match_length + 1) if b not in table_states]
            if missing:
                blocking.append(f"{table.number}号桌缺少第 {_ranges(missing)} 副")
        else:
            games = split_games([(d.ns_score, d.ew_score) for d in deals], event.game_threshold)
            if len(games) < event.match_length or (games and not games[-1].finished):
                warnings.append(f"{table.number}号桌：{event.match_length} 局未打完（{len(games)} 局，最后一局未结束）")
        drafts = sorted(b for b, state in table_states.items() if state == "draft")
        if drafts:
            blocking.append(f"{table.number}号桌第 {_ranges(drafts)} 副未确认")
        conflicts = sorted(b for b, state in table_states.items() if state == "conflict")
        if conflicts:
            blocking.append(f"{table.number}号桌第 {_ranges(conflicts)} 副两名裁判录入不一致")
        for deal in deals:
            if deal.adjusted is not None and not deal.adjusted_reason.strip():
                warnings.append(f"{table.number}号桌第 {deal.board} 副调整分没有写理由")
    if event.kind == Kind.TEAMS:
        warnings.extend(holder_disagreements(rnd, deals_by_table))
    return {"blocking": blocking, "warnings": warnings}


def unconfirmed_boards(rnd):
    """Sentences naming the tables and boards of a round that are not confirmed (draft or conflict)."""
    from scoring.entry import table_board_states

    numbers = dict(rnd.tables.values_list("id", "number"))
    found = []
    for table_id, table_states in sorted(table_board_states(rnd).items(), key=lambda item: numbers[item[0]]):
        waiting = sorted(board for board, state in table_states.items() if state in ("draft", "conflict"))
        if waiting:
            found.append(f"{numbers[table_id]}号桌第 {_ranges(waiting)} 副未确认 / not confirmed")
    return found


def holder_disagreements(rnd, deals_by_table=None):
    """Duplicate team matches: the dealt holders of ♠Q ♦J ♣10 ♥A must agree at both tables."""
    from scoring.rules import card_label

    if deals_by_table is None:
        deals_by_table = {}
        for deal in Deal.objects.filter(table__round=rnd):
            deals_by_table.setdefault(deal.table_id, []).append(deal)
    found = []
    for match in rnd.matches.prefetch_related("tables"):
        tables = list(match.tables.all())
        if len(tables) != 2:
            continue
        boards = [{d.board: d for d in deals_by_table.get(t.id, [])} for t in tables]
        for board in sorted(set(boards[0]) & set(boards[1])):
            first, second = boards[0][board], boards[1][board]
            for card in set(first.holders) & set(second.holders):
                if first.holders[card] != second.holders[card]:
                    found.append(
                        f"{tables[0].number}/{tables[1].number}号桌第 {board} 副：{card_label(card)} 的持牌人不一致"
                        f"（{first.holders[card]} / {second.holders[card]}）"
                    )
    return found


def _ranges(numbers):
    """[1, 2, 3, 5] → "1–3、5"."""
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
    return "、".join(parts)


class PublicationError(ValueError):
    pass


@transaction.atomic
def round_publish(rnd, *, user):
    """In play → provisional (published). Refused while the checklist has blocking problems."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status not in (Round.Status.SCHEDULED, Round.Status.IN_PLAY):
        raise PublicationError("本轮已经公布 / the round is already published")
    blocking = publication_checklist(rnd)["blocking"]
    if blocking:
        raise PublicationError("；".join(blocking))
    rnd.status = Round.Status.PROVISIONAL
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    PairingLog.objects.create(round=rnd, user=user, action="publish", detail={})
    rnd.event.results_changed()
    transaction.on_commit(lambda: warm_public_standings(rnd.event))
    return rnd


@transaction.atomic
def round_make_official(rnd, *, user, now=None):
    """Provisional → official, once the correction period is over."""
    rnd = Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)
    if rnd.status != Round.Status.PROVISIONAL:
        raise PublicationError("只有临时公布的轮次可以转为正式成绩 / only a provisional round can become official")
    now = now or timezone.now()
    # A round published before publication times were kept has no period left to wait for.
    ends = rnd.published_at + timedelta(minutes=rnd.event.correction_minutes) if rnd.published_at else now
    if now < ends:
        left = int((ends - now).total_seconds() // 60) + 1
        raise PublicationError(f"更正期还有约 {left} 分钟 / the correction period has about {left} minutes left")
    # Checked again here, under the round's lock: a correction during the period returns
    # a deal to draft, and an official round certifies only confirmed results.
    unconfirmed = unconfirmed_boards(rnd)
    if unconfirmed:
        raise PublicationError("不能转为正式成绩：" + "；".join(unconfirmed))
    rnd.status = Round.Status.OFFICIAL
    rnd.official_at = now
    rnd.save(update_fields=["status", "official_at"])
    PairingLog.objects.create(round=rnd, user=user, action="official", detail={})
    rnd.event.results_changed()
    transaction.on_commit(lambda: warm_public_standings(rnd.event))
    return rnd


def changes_since_publication(event):
    """Every change to a published round's results after it was published (public list)."""
    from scoring.models import DealHistory

    rows = []
    published = {r.id: r for r in event.rounds.published()}
    history = (
        DealHistory.objects.filter(table__round_id__in=published)
        .exclude(action__in=[DealHistory.Action.CONFIRM])
        .select_related("table", "table__round", "user")
        .order_by("at", "id")
    )
    for row in history:
        rnd = published[row.table.round_id]
        if rnd.published_at and row.at > rnd.published_at:
            rows.append(row)
    return rows
