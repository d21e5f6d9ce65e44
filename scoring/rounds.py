"""Creating rounds: pairing the next round and changing a pairing by hand (logged)."""

import random
import secrets
from collections import defaultdict

from django.db import transaction
from django.db.models import Count

from scoring.models import Deal, Entrant, Match, Membership, PairingLog, Player, Round, Table
from scoring.pairing import (
    PairingError,
    candidates_from_history,
    pair_individual,
    pair_random,
    pair_roundrobin,
    pair_swiss,
)
from scoring.results import entrant_codes, event_format, event_match_results
from scoring.rules.errors import _, listed
from scoring.standings import compute_standings
from scoring.versions import current_version, results_changed
from scoring.vocabulary import Kind

METHODS = ("swiss", "roundrobin", "random")


def unfinished_rounds(event):
    """Numbers of rounds with a match that has no deals or an unconfirmed deal."""
    unplayed = (
        Match.objects.filter(round__event=event, bye__isnull=True)
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


def round_pair(event, method, *, user=None, seed=None):
    """Pair and create the next round of `event`; returns the new `Round`.

    Swiss and random pairing refuse while an earlier round has unplayed or
    unconfirmed matches; a round robin is fixed in advance and pairs anyway.
    The pairing is computed outside the write transaction (on SQLite a write
    transaction holds the one write lock every referee waits for, and a Swiss
    round of 5,000 pairs takes about 2 s); the transaction then only checks
    that the results did not change meanwhile and writes.
    """
    version = current_version(event)
    number, pairing = _plan(event, method, seed)
    with transaction.atomic():
        if current_version(event) != version or _next_number(event) != number:
            raise PairingError(
                _("编排期间成绩或轮次有变动，请重新编排"),
                code="changed_meanwhile",
            )
        rnd = Round.objects.create(event=event, number=number, status=Round.Status.SCHEDULED)
        _create_tables(event, rnd, pairing)
        results_changed(event, public=False)  # a scheduled round is not public
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


def _next_number(event):
    return (event.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1


def _plan(event, method, seed):
    """The next round's number and pairing, from the standings so far (reads only)."""
    if method not in METHODS:
        raise PairingError(_("未知编排方式 {method!r:.40}"), code="unknown_method", method=method)
    if method != "roundrobin":
        unfinished = unfinished_rounds(event)
        if unfinished:
            raise PairingError(
                _("第{rounds}轮还有未完成或未确认的比赛，不能编排下一轮"),
                code="round_unfinished",
                rounds=listed(unfinished),
            )
    number = _next_number(event)
    matches = event_match_results(event)
    rows = compute_standings(event_format(event), matches, entrant_codes(event))
    candidates = candidates_from_history(rows, matches)
    if event.kind == Kind.INDIVIDUAL:
        if method == "random":
            seed = seed if seed is not None else secrets.randbelow(2**31)
            random.Random(seed).shuffle(candidates)
        elif method == "roundrobin":
            raise PairingError(_("个人赛不能用循环赛编排"), code="unknown_method")
        pairing = pair_individual(candidates)
    elif method == "roundrobin":
        pairing = pair_roundrobin(candidates, number - 1)
    elif method == "random":
        pairing = pair_random(candidates, seed if seed is not None else secrets.randbelow(2**31))
    else:
        pairing = pair_swiss(candidates)
    return number, pairing


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
    entrants = {e.code: e for e in Entrant.objects.filter(event=event)}
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
    else:
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
        raise PairingError(_("只能在本轮开始前调整编排"), code="round_started")
    event = rnd.event
    if event.kind != Kind.PAIRS:
        raise PairingError(_("手工调换目前只支持双人赛"), code="not_pairs")
    entrants = {
        e.code: e
        for e in Entrant.objects.filter(event=event, code__in=[first_code, second_code]).prefetch_related(
            "memberships__player"
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
    results_changed(event, public=False)


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
