"""Creating rounds: pairing the next round and changing a pairing by hand (logged)."""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from scoring.cache import announce_results_changed
from scoring.cache.versions import current_version
from scoring.engine.pairing import (
    Pairing,
    PairingError,
    candidates_from_history,
    pair_individual,
    pair_manual,
    pair_random,
    pair_roundrobin,
    pair_swiss,
)
from scoring.engine.standings import compute_standings
from scoring.engine.vocabulary import Kind
from scoring.games import game_of
from scoring.games.refusals import _, listed
from scoring.models import Deal, Entrant, Event, Match, Membership, PairingLog, Player, Round, Table, with_members
from scoring.results.match_results import entrant_codes, event_format, event_match_results

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.engine.pairing import Candidate

METHODS = ("swiss", "roundrobin", "random", "manual")


def unfinished_rounds(event: Event) -> list[int]:
    """Numbers of rounds with a match that has no deals or an unconfirmed deal."""
    unplayed = (
        Match.objects.filter(round__event=event, bye__isnull=True)
        .annotate(deal_count=Count("tables__deals"))
        .filter(deal_count=0)
        .values_list("round__number", flat=True)
    )
    unconfirmed = (
        Deal.objects.filter(table__round__event=event).uncounted().values_list("table__round__number", flat=True)
    )
    return sorted(set(unplayed) | set(unconfirmed))


@dataclass(frozen=True)
class PairingOptions:
    """What the organiser chose on the pairing page (all optional)."""

    seed: int | None = None
    absent: frozenset = frozenset()  # not checked in: left out of this round, scoring nothing
    avoid_same_club: bool = False
    first_table: int = 1  # big halls number tables by area
    manual: str = ""  # the "manual" method's lines


def round_pair(
    event: Event, method: str, *, user: User | None = None, options: PairingOptions = PairingOptions()
) -> tuple[Round, Pairing]:
    """Pair and create the next round of `event`; returns `(round, pairing)`.

    Swiss and random pairing refuse while an earlier round has unplayed or
    unconfirmed matches; a round robin is fixed in advance and pairs anyway.
    The pairing is computed outside the write transaction (on SQLite a write
    transaction holds the one write lock every referee waits for, and a Swiss
    round of 5,000 pairs takes about 2 s); the transaction then only checks
    that the results did not change meanwhile and writes.
    """
    version = current_version(event)
    number = next_round_number(event)
    _refuse_beyond_the_plan(event, number)
    pairing = _plan(event, method, number, options)
    # Two organisers pairing at once (or a double-submitted form) on PostgreSQL both pass the
    # check before either commits; the round number's unique constraint refuses the second.
    try:
        with transaction.atomic():
            hold_round_numbers(event)
            if current_version(event) != version or next_round_number(event) != number:
                raise _changed_meanwhile()
            rnd = Round.objects.create(
                event=event, number=number, status=Round.Status.SCHEDULED, sessions=event.sessions_per_round
            )
            create_tables(event, rnd, pairing, options.first_table)
            announce_results_changed(event, public=False)  # a scheduled round is not public
            _log_pairing(rnd, user, f"pair:{method}", pairing, options)
    except IntegrityError as clash:
        raise _changed_meanwhile() from clash
    return rnd, pairing


def _changed_meanwhile() -> PairingError:
    return PairingError(_("编排期间成绩或轮次有变动，请重新编排"), code="changed_meanwhile")


def round_repair(
    rnd: Round, method: str, *, user: User | None = None, options: PairingOptions = PairingOptions()
) -> tuple[Round, Pairing]:
    """Pair a scheduled round again (no deal entered yet); the draw is hidden again. Logged."""
    event = rnd.event
    _check_not_started(rnd)
    if rnd.stage:
        raise PairingError(_("决赛阶段的轮次按对阵图编排，不能重新编排"), code="stage_round")
    version = current_version(event)
    pairing = _plan(event, method, rnd.number, options)
    with transaction.atomic():
        hold_round_numbers(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        _check_not_started(rnd)
        if current_version(event) != version:
            raise _changed_meanwhile()
        Table.objects.filter(round=rnd).delete()
        Match.objects.filter(round=rnd).delete()
        create_tables(event, rnd, pairing, options.first_table)
        # A released draw is on the public pages: taking it down is a public change.
        was_public = rnd.draw_released_at is not None
        rnd.draw_released_at = None
        rnd.save(update_fields=["draw_released_at"])
        announce_results_changed(event, public=was_public)
        _log_pairing(rnd, user, f"repair:{method}", pairing, options)
    return rnd, pairing


def round_release_draw(rnd: Round, *, user: User | None = None) -> Round:
    """Make the draw (对阵表) public at /events/<slug>/rounds/<n>/draw/; logged."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.draw_released_at is None:
            rnd.draw_released_at = timezone.now()
            rnd.save(update_fields=["draw_released_at"])
            PairingLog.objects.create(round=rnd, user=user, action="release_draw", detail={})
            announce_results_changed(rnd.event)  # public pages list the draw
    return rnd


def _log_pairing(rnd: Round, user: User | None, action: str, pairing: Pairing, options: PairingOptions) -> None:
    PairingLog.objects.create(
        round=rnd,
        user=user,
        action=action,
        detail={
            "tables": pairing.tables,
            "byes": pairing.byes,
            "rematches": pairing.rematches,
            "club_clashes": pairing.club_clashes,
            "absent": sorted(options.absent),
            "avoid_same_club": options.avoid_same_club,
            "first_table": options.first_table,
            "note": pairing.note,
        },
    )


def _check_not_started(rnd: Round) -> None:
    if rnd.status != Round.Status.SCHEDULED or Table.objects.filter(round=rnd, deals__isnull=False).exists():
        raise PairingError(_("只能在本轮开始前调整编排"), code="round_started")


def hold_round_numbers(event: Event) -> None:
    """Inside a transaction: wait for, then hold off until commit, every other change of which
    rounds exist or who plays in them — pairing, withdrawals, late entries, requested byes.
    Without it, on PostgreSQL an entrant withdrawn while round 3 was being paired read "round 2
    is the last paired" and was seated in round 3 all the same. A row lock on the event there;
    SQLite's single writer (BEGIN IMMEDIATE) already serialises these transactions."""
    list(Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True))


def next_round_number(event: Event) -> int:
    return (event.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1


def round_candidates(event: Event, number: int) -> tuple[list[Any], list[Any]]:
    """Who round `number` pairs: `(playing, sitting out)` as Entrants, in code order. Sitting
    out: withdrawn before it, joining later, or a bye asked for this round."""
    playing, out = [], []
    for entrant in Entrant.objects.filter(event=event).prefetch_related(with_members()).order_by("code"):
        (playing if entrant.plays_in(number) else out).append(entrant)
    return playing, out


def _playing_codes(event: Event, number: int) -> set[str]:
    """The codes of the entrants round `number` pairs (`round_candidates` without their members,
    which pairing does not read)."""
    fields = ("code", "withdrawn_after_round", "joined_round", "bye_round")
    return {entrant.code for entrant in Entrant.objects.filter(event=event).only(*fields) if entrant.plays_in(number)}


def _clubs_by_entrant(event: Event) -> dict[Any, Any]:
    clubs = defaultdict(set)
    for code, club in Membership.objects.filter(entrant__event=event).values_list("entrant__code", "player__club"):
        if club:
            clubs[code].add(club)
    return {code: frozenset(found) for code, found in clubs.items()}


def _refuse_beyond_the_plan(event: Event, number: int) -> None:
    """A closed event pairs nothing more; one that planned N rounds pairs no N+1-th until the
    organiser changes the plan in the event's settings (a deliberate step, not a slip)."""
    if event.is_finished:
        raise PairingError(_("赛事已经结束，不能再编排新的轮次"), code="event_finished")
    if event.planned_rounds and number > event.planned_rounds:
        raise PairingError(
            _("本赛事计划 {planned} 轮，已全部编排；要加赛请先在赛事设置中修改计划轮数"),
            code="planned_rounds_reached",
            planned=event.planned_rounds,
        )


def _plan(event: Event, method: str, number: int, options: PairingOptions) -> Pairing | None:
    """Round `number`'s pairing, from the standings of the rounds before it (reads only)."""
    if method not in METHODS:
        raise PairingError(_("未知编排方式 {method!r:.40}"), code="unknown_method", method=method)
    if Round.objects.filter(event=event).exclude(stage="").exists():
        raise PairingError(_("决赛阶段已经开始，预赛不能再编排"), code="stage_started")
    if method not in ("roundrobin", "manual"):
        unfinished = [n for n in unfinished_rounds(event) if n < number]
        if unfinished:
            raise PairingError(
                _("第{rounds}轮还有未完成或未确认的比赛，不能编排下一轮"),
                code="round_unfinished",
                rounds=listed(unfinished),
            )
    matches = [m for m in event_match_results(event) if m.round < number]
    rows = compute_standings(event_format(event), matches, entrant_codes(event))
    everyone = candidates_from_history(rows, matches)
    playing_codes = _playing_codes(event, number) - set(options.absent)
    clubs = _clubs_by_entrant(event)
    for candidate in everyone:
        candidate.clubs = clubs.get(candidate.id, frozenset())
    candidates = [c for c in everyone if c.id in playing_codes]
    seats = game_of(event).seats  # an individual's table: the game's seats (跑胡子: E S W)
    if event.kind == Kind.INDIVIDUAL and len(candidates) < len(seats):
        raise PairingError(_("至少需要 {count} 名选手"), code="too_few_entrants", count=len(seats))
    if len(candidates) < 2:
        raise PairingError(_("至少需要两个参赛者"), code="too_few_entrants")
    if method == "manual":
        return pair_manual(options.manual, candidates, individual=event.kind == Kind.INDIVIDUAL, seats=seats)
    seed = options.seed if options.seed is not None else secrets.randbelow(2**31)
    if event.kind == Kind.INDIVIDUAL:
        if method == "roundrobin":
            raise PairingError(_("个人赛不能用循环赛编排"), code="unknown_method")
        if method == "random":
            random.Random(seed).shuffle(candidates)
        return pair_individual(candidates, seats)
    if method == "roundrobin":
        return _roundrobin_with_absences(everyone, playing_codes, number)
    if method == "random":
        return pair_random(candidates, seed, options.avoid_same_club)
    return pair_swiss(candidates, options.avoid_same_club)


def _roundrobin_with_absences(everyone: list[Candidate], playing_codes: set[str], number: int) -> Pairing:
    """The Berger table of every entrant stays fixed; whoever meets an entrant that does
    not play this round has a bye (docs/organising.md)."""
    full = pair_roundrobin(everyone, number - 1)
    tables, byes = [], [code for code in full.byes if code in playing_codes]
    for ns, ew in full.tables:
        if ns in playing_codes and ew in playing_codes:
            tables.append((ns, ew))
        else:
            byes.extend(code for code in (ns, ew) if code in playing_codes)
    return Pairing(tables=tables, byes=byes)


def members_by_entrant(event: Event) -> defaultdict:
    """{entrant code: [player ids in seating order]} in one query (no per-entrant look-ups)."""
    members = defaultdict(list)
    for code, player_id in (
        Membership.objects.filter(entrant__event=event).order_by("position").values_list("entrant__code", "player_id")
    ):
        members[code].append(player_id)
    return members


def create_tables(event: Event, rnd: Round, pairing: Pairing, first_table: int = 1) -> None:
    """Matches and tables of a new round, written in bulk (2,500 tables is an ordinary day).
    Entrants and players by their ids: building thousands of model objects only to take their
    ids was most of a Swiss round's time."""
    matches, tables = [], []
    entrants = dict(Entrant.objects.filter(event=event).values_list("code", "id"))
    if event.kind == Kind.INDIVIDUAL:
        players = dict(Player.objects.filter(event=event).values_list("code", "id"))
        for number, seats in enumerate(pairing.tables, start=1):
            match = Match(round=rnd, number=number)
            matches.append(match)
            tables.append(
                Table(
                    round=rnd,
                    match=match,
                    number=number - 1 + first_table,
                    # A seat the game lacks stays empty (跑胡子: North).
                    north_id=players.get(seats.get("N")),
                    east_id=players.get(seats.get("E")),
                    south_id=players.get(seats.get("S")),
                    west_id=players.get(seats.get("W")),
                )
            )
    else:
        members = members_by_entrant(event)
        for number, (home_code, away_code) in enumerate(pairing.tables, start=1):
            home, away = entrants[home_code], entrants[away_code]
            match = Match(round=rnd, number=number, home_id=home, away_id=away)
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
                        number=len(tables) + first_table,
                        ns_entrant_id=ns_team,
                        ew_entrant_id=ew_team,
                        north_id=ns_players[0],
                        south_id=ns_players[1],
                        east_id=ew_players[0],
                        west_id=ew_players[1],
                    )
                )
    byes = [
        Match(round=rnd, number=n, bye_id=entrants[code])
        for n, code in enumerate(pairing.byes, start=len(pairing.tables) + 1)
    ]
    Match.objects.bulk_create(matches + byes, batch_size=1000)
    Table.objects.bulk_create(tables, batch_size=1000)


@transaction.atomic
def round_swap_entrants(rnd: Round, first_code: str, second_code: str, *, user: User | None = None) -> None:
    """Swap two entrants (pairs: their places at tables) before the round starts; logged."""
    _check_not_started(rnd)
    event = rnd.event
    if event.kind != Kind.PAIRS:
        raise PairingError(_("手工调换目前只支持双人赛"), code="not_pairs")
    entrants = {
        e.code: e
        for e in Entrant.objects.filter(event=event, code__in=[first_code, second_code]).prefetch_related(
            with_members()
        )
    }
    if len(entrants) != 2:
        raise PairingError(_("找不到要调换的参赛对"), code="unknown_entrant")
    places = {}
    for table in Table.objects.select_for_update().filter(round=rnd):
        for side in ("ns", "ew"):
            code = getattr(table, f"{side}_entrant").code
            if code in entrants:
                places[code] = (table, side)
    for match in Match.objects.filter(round=rnd, bye__code__in=entrants):
        places[match.bye.code] = (match, "bye")
    if len(places) != 2:
        raise PairingError(_("两个参赛对都必须在本轮中"), code="not_in_round")
    (a, (place_a, side_a)), (b, (place_b, side_b)) = places.items()
    _seat_entrant(place_a, side_a, entrants[b])
    _seat_entrant(place_b, side_b, entrants[a])
    PairingLog.objects.create(round=rnd, user=user, action="swap", detail={"swapped": [a, b]})
    # Once the draw is released the public draw shows who sits where.
    released = Round.objects.filter(pk=rnd.pk, draw_released_at__isnull=False).exists()
    announce_results_changed(event, public=released)


def _seat_entrant(place: Table, side: str, entrant: Entrant) -> None:
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
