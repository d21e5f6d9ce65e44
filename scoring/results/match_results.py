"""Reading match results out of the database as the plain data `scoring.engine.standings`
takes: deal totals summed in SQL, one row per table."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import Count, Sum

from scoring.collector import without_collection
from scoring.engine.standings import Format, MatchResult, TableResult, match_finished
from scoring.engine.standings import table_points as engine_table_points
from scoring.engine.vocabulary import STANDINGS_TABLE_POINTS, STANDINGS_TOTAL, Kind, MatchMode
from scoring.games import game_of
from scoring.games.stored import (
    STANDINGS_OPTION,
    carries_state,
    event_option,
    event_rules,
    table_outcome,
    table_points,
    table_summary,
)
from scoring.messages import message_text
from scoring.models import Deal, Entrant, Match, Round, Table

if TYPE_CHECKING:
    from typing import Any

    from scoring.models import Event


def event_format(event: Event) -> Format:
    return Format(
        kind=event.kind,
        mode=event.match_mode,
        length=event.match_length,
        threshold=event.game_threshold,
        points=event.match_points,
        tiebreaks=list(event.tiebreaks),
        standings=event_option(event, STANDINGS_OPTION) or STANDINGS_TOTAL,
        game=game_of(event).id,
    )


def pairs_table_figures(
    event: Event,
    fmt: Format,
    sides: list[tuple[int, int]],
    stored: list[dict[str, Any]] | None = None,
    ruling: dict[str, int | str] | None = None,
) -> tuple[int | str | None, ...]:
    """A pairs table as the round and entrant pages show it: `(NS total, EW total, NS 场分, EW
    场分, words)` from its confirmed deals in playing order (`sides`: [(ns, ew)]; `stored`:
    their deals as stored; `ruling`: the chief arbiter's ruling on its match, `Table.match_ruling`).
    A game whose match carries a state (升级) gives the levels reached as the totals, the 场分
    from its match's winner (the ruling's where he ruled; as it stands while unfinished), and
    the match in its words; any other game the sums and `words` None."""
    ns_total, ew_total = sum(ns for ns, _ in sides), sum(ew for _, ew in sides)
    game = game_of(event)
    winner, words = None, None
    if carries_state(game) and stored:
        rules = event_rules(event)
        outcome = table_outcome(game, rules, stored, event.match_length, ruling)
        if outcome is not None:
            ns_total, ew_total, winner, _finished = outcome
            words = message_text(table_summary(game, rules, stored, ruling))
    ns_points, ew_points = engine_table_points(fmt, sides, ns_total, ew_total, winner)
    return ns_total, ew_total, ns_points, ew_points, words


@without_collection  # some 50,000 objects that live till the end (scoring.collector)
def event_match_results(
    event: Event, *, published_only: bool = False, after_round: int | None = None, stage: str = ""
) -> list[MatchResult]:
    """Every match of the event as `MatchResult`s, from confirmed deals only.

    Boards-mode totals are summed in SQL (one row per table); games mode needs
    each deal's side scores in playing order. `stage` "" (the default) reads the main
    part only — standings and Swiss pairing; a final stage's name reads that stage's
    rounds; None reads every round.
    """
    rounds = Round.objects.filter(event=event)
    if stage is not None:
        rounds = rounds.filter(stage=stage)
    if published_only:
        rounds = rounds.published()
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    round_numbers = dict(rounds.values_list("id", "number"))
    # The rounds' tables as a subquery, not a join: SQLite then sums each table's deals by the
    # deals' own index (a quarter less time for 90,000 deals).
    deals = Deal.objects.counted().filter(table_id__in=Table.objects.filter(round_id__in=round_numbers).values("id"))

    # Tuples, not dicts: a 10,000-player event sums 360,000 deals into 22,500 rows here.
    sums = (
        deals.values("table_id")
        .annotate(
            ns=Sum("ns_score"),
            ew=Sum("ew_score"),
            nsp=Sum("ns_penalty"),
            ewp=Sum("ew_penalty"),
            n=Sum("score_n"),
            e=Sum("score_e"),
            s=Sum("score_s"),
            w=Sum("score_w"),
            count=Count("id"),
        )
        .values_list("table_id", "ns", "ew", "nsp", "ewp", "n", "e", "s", "w", "count")
    )
    # Django's query, run on the cursor: both databases answer integers, and the queryset's
    # converters, called per value, cost a tenth of a 10,000-player event's standings.
    totals = {}
    if round_numbers:  # no round yet: nothing to sum (and no query Django would write)
        with connection.cursor() as cursor:
            cursor.execute(*sums.query.sql_with_params())
            totals = {table_id: rest for table_id, *rest in cursor.fetchall()}
    sides_by_table = defaultdict(list)
    if event.match_mode == MatchMode.GAMES:
        for table_id, ns, ew in deals.order_by("table_id", "sequence").values_list("table_id", "ns_score", "ew_score"):
            sides_by_table[table_id].append((ns, ew))

    individual = event.kind == Kind.INDIVIDUAL
    game = game_of(event)
    # A game whose match carries a state (升级): each table's deals as stored, in playing order,
    # for the engine's match to decide it (`table_outcome`).
    stored_by_table = defaultdict(list)
    if carries_state(game):
        for table_id, data in deals.order_by("table_id", "board").values_list("table_id", "game_data"):
            stored_by_table[table_id].append(data or {})
        rules = event_rules(event)
    by_points = individual and event_option(event, STANDINGS_OPTION) == STANDINGS_TABLE_POINTS
    tables_by_match = defaultdict(list)
    for table_id, match_id, ruling, ns_code, ew_code, *seat_codes in Table.objects.filter(
        round_id__in=round_numbers
    ).values_list(
        "id",
        "match_id",
        "match_ruling",
        "ns_entrant__code",
        "ew_entrant__code",
        *(("north__code", "east__code", "south__code", "west__code") if individual else ()),
    ):
        # An individual's seats are the game's (a three-seat table leaves North empty).
        seats = dict(zip("NESW", seat_codes, strict=True)) if individual else {}
        table = TableResult(ns=ns_code, ew=ew_code, seats={seat: seats[seat] for seat in game.seats if seat in seats})
        total = totals.get(table_id)
        if total:
            ns, ew, nsp, ewp, n, e, s, w, count = total
            table.ns_total, table.ew_total, table.ns_penalty, table.ew_penalty = ns, ew, nsp, ewp
            table.deal_count = count
            table.seat_totals = {"N": n, "E": e, "S": s, "W": w}
            table.side_scores = sides_by_table.get(table_id, [])
            if by_points:
                table.seat_points = table_points(game, table.seat_totals)
            if stored_by_table:
                # The chief arbiter's ruling on a match that did not finish decides it (its winner).
                table.set_outcome(table_outcome(game, rules, stored_by_table[table_id], event.match_length, ruling))
        tables_by_match[match_id].append(table)

    results = []
    codes = dict(Entrant.objects.filter(event=event).values_list("id", "code"))  # no join per match
    matches = Match.objects.filter(round_id__in=round_numbers).values_list(
        "id", "round_id", "number", "home_id", "away_id", "bye_id"
    )
    for match_id, round_id, _number, home, away, bye in sorted(
        matches, key=lambda row: (round_numbers[row[1]], row[2])
    ):
        results.append(
            MatchResult(
                round=round_numbers[round_id],
                home=codes.get(home),
                away=codes.get(away),
                # An individual's bye scores no deal (event-archive.md ranks individuals by deals) —
                # only a game's table points for a bye — but pairing counts it: who sat out already.
                bye=codes.get(bye),
                tables=tables_by_match.get(match_id, []),
            )
        )
    return results


def entrant_codes(event: Event) -> list[str]:
    return list(Entrant.objects.filter(event=event).values_list("code", flat=True))


def late_entries(event: Event) -> dict[str, int]:
    """{code: the round it was first paired in} of the event's late entries."""
    return dict(Entrant.objects.filter(event=event, joined_round__isnull=False).values_list("code", "joined_round"))


def unfinished_of(event: Event, fmt: Format, matches: list[MatchResult]) -> list[Any]:
    published = set(Round.objects.filter(event=event).published().values_list("number", flat=True))
    return [match for match in matches if match.round not in published and not match_finished(fmt, match)]


def unfinished_matches(event: Event) -> list[Any]:
    """The matches of unpublished rounds that are not finished yet, for the officials' files to
    name: [{"round", "sides", "deals"}] (`sides`: the entrants' codes, or the four players' in an
    individual event; `deals`: confirmed deals at its tables)."""
    fmt = event_format(event)
    return [
        {
            "round": match.round,
            "sides": [match.home, match.away]
            if match.home
            else [code for table in match.tables for code in table.seats.values()],
            "deals": sum(table.deal_count for table in match.tables),
        }
        for match in unfinished_of(event, fmt, event_match_results(event))
    ]
