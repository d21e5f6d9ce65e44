"""An entrant's record: every published match, deal and 局, as plain data for the page."""

from collections import defaultdict

from django.core.cache import cache
from django.db.models import Q

from scoring.cache.versions import current_version
from scoring.cache.waiting import wait_for
from scoring.engine.standings import table_points
from scoring.engine.vocabulary import Kind
from scoring.events.lineups import session_of
from scoring.games.huapai import SEATS, DealError, card_label, split_games
from scoring.games.huapai.deal_text import cards_text, exposure_word, per_copy
from scoring.games.huapai.player_stats import PlayerStats, deal_statistics
from scoring.games.huapai.stored import event_rules, score_stored
from scoring.models import Deal, Entrant, Irregularity, LineUp, Membership, Player, Round, Table, with_members
from scoring.results.standings import entrant_labels, event_format

STATISTICS_SECONDS = 24 * 3600
STATISTICS_LOCK_SECONDS = 300
STATISTICS_WAIT_SECONDS = 60.0

# Only what an entrant's page shows, read as plain values: the captures and holders are the
# largest JSON to decode, and building model objects cost as much as the query.
DEAL_ROW_FIELDS = (
    "id", "table_id", "board", "score_n", "score_e", "score_s", "score_w", "ns_score", "ew_score",
    "penalties", "adjusted", "adjusted_reason", "exposed",
)  # fmt: skip


def deal_row(deal, game_number):
    """A row of an entrant's deal table from a `Deal.objects.values(*DEAL_ROW_FIELDS)` row."""
    return {
        "board": deal["board"],
        "scores": {"N": deal["score_n"], "E": deal["score_e"], "S": deal["score_s"], "W": deal["score_w"]},
        "ns": deal["ns_score"],
        "ew": deal["ew_score"],
        "penalties": deal["penalties"],
        "adjusted": deal["adjusted"] is not None,
        "adjusted_reason": deal["adjusted_reason"],
        "game": game_number,
        "exposed": {card_label(card): exposure_word(kind) for card, kind in deal["exposed"].items()},
    }


def entrant_record(event, code):
    """None when the code is unknown; else the entrant and its published matches."""
    individual = event.kind == Kind.INDIVIDUAL
    entrant = Entrant.objects.filter(event=event, code=code).prefetch_related(with_members()).first()
    if entrant is None:
        return None
    # An individual's entrant has one member, who sits at a different seat each round.
    members = [membership.player for membership in entrant.memberships.all()]
    if individual and not members:
        return None  # an entrant made by hand without its player: nothing to show
    subject = members[0] if individual else entrant
    tables = (
        Table.objects.filter(round__in=Round.objects.published().filter(event=event))
        .select_related("round", "ns_entrant", "ew_entrant")
        # Every opponent's name without a query per opponent.
        .prefetch_related(with_members("ns_entrant__"), with_members("ew_entrant__"))
        .order_by("round__number", "number")
    )
    if individual:
        tables = tables.filter(Q(north=subject) | Q(east=subject) | Q(south=subject) | Q(west=subject))
    else:
        tables = tables.filter(Q(ns_entrant=subject) | Q(ew_entrant=subject))
    tables = list(tables)
    deals_by_table = {}
    confirmed = Deal.objects.filter(table__in=tables, status=Deal.Status.CONFIRMED).order_by("table_id", "sequence")
    for deal in confirmed.values(*DEAL_ROW_FIELDS):
        deals_by_table.setdefault(deal["table_id"], []).append(deal)
    fmt = event_format(event)
    matches = []
    for table in tables:
        deals = deals_by_table.get(table.id, [])
        if individual:
            seat_ids = {"N": table.north_id, "E": table.east_id, "S": table.south_id, "W": table.west_id}
            seat = next(s for s, player_id in seat_ids.items() if player_id == subject.id)
            side = "NS" if seat in "NS" else "EW"
        else:
            side = "NS" if table.ns_entrant_id == subject.id else "EW"
        sides = [(d["ns_score"], d["ew_score"]) for d in deals]
        games = split_games(sides, event.game_threshold)
        game_numbers = {i: game.number for game in games for i in game.deals}
        own = sum(ns if side == "NS" else ew for ns, ew in sides)
        other = sum(ew if side == "NS" else ns for ns, ew in sides)
        # 场分 belong to a pairs table; a team's match spans two tables and individuals have none.
        own_points = None
        if deals and event.kind == Kind.PAIRS:
            ns_points, ew_points = table_points(fmt, sides, sum(ns for ns, _ in sides), sum(ew for _, ew in sides))
            own_points = ns_points if side == "NS" else ew_points
        opponent = table.ew_entrant if side == "NS" else table.ns_entrant
        matches.append(
            {
                "round": table.round.number,
                "round_status": table.round.get_status_display(),
                "table": table.number,
                "side": side,
                "opponent": opponent,
                "own": own,
                "other": other,
                "points": own_points,
                # From the entrant's side: its own running total first, and for a 局 still
                # going, how far it is from winning (+threshold) and from losing (−threshold).
                "games": [
                    {
                        "number": g.number,
                        "own": g.ns if side == "NS" else g.ew,
                        "other": g.ew if side == "NS" else g.ns,
                        "finished": g.finished,
                        "won": g.winner == side if g.finished else None,
                        "to_win": event.game_threshold - (g.ns if side == "NS" else g.ew),
                        "to_lose": event.game_threshold + (g.ns if side == "NS" else g.ew),
                    }
                    for g in games
                ],
                "deals": [deal_row(d, game_numbers.get(i)) for i, d in enumerate(deals)],
            }
        )
    totals = members_statistics(event, members, tables)
    statistics = [(player, totals[player.id]) for player in members if player.id in totals]
    return {"subject": subject, "matches": matches, "statistics": statistics}


def published_round(event, number):
    """The round if the public may see it, else None."""
    return Round.objects.published().filter(event=event, number=number).first()


def round_results(event, rnd):
    """Every table of a round with its totals, 局 and 场分, for the round page and the results PDF."""
    tables = list(
        Table.objects.filter(round=rnd)
        .select_related("ns_entrant", "ew_entrant", "north", "east", "south", "west", "match")
        .order_by("number")
    )
    sides = {}
    for table_id, ns, ew in (
        Deal.objects.filter(table__round=rnd, status=Deal.Status.CONFIRMED)
        .order_by("table_id", "sequence")
        .values_list("table_id", "ns_score", "ew_score")
    ):
        sides.setdefault(table_id, []).append((ns, ew))
    fmt = event_format(event)
    labels = entrant_labels(event)  # cached: no query per table
    rows = []
    for table in tables:
        table_sides = sides.get(table.id, [])
        ns_total = sum(ns for ns, _ in table_sides)
        ew_total = sum(ew for _, ew in table_sides)
        games = split_games(table_sides, event.game_threshold)
        if table_sides and event.kind == Kind.PAIRS:
            ns_points, ew_points = table_points(fmt, table_sides, ns_total, ew_total)
        else:
            ns_points = ew_points = None  # a team match spans two tables; individuals have no 场分
        ns_label, ew_label = _side_labels(table, labels)
        rows.append(
            {
                "table": table,
                "ns_label": ns_label,
                "ew_label": ew_label,
                "deals": len(table_sides),
                "ns_total": ns_total,
                "ew_total": ew_total,
                "ns_points": ns_points,
                "ew_points": ew_points,
                "games": games,
            }
        )
    byes = [m.bye for m in rnd.matches.filter(bye__isnull=False).select_related("bye")]
    return {"tables": rows, "byes": byes}


def _side_labels(table, labels):
    """“A01 张三、李四” for each side (pairs or teams), or the two players' names (individual)."""
    if table.ns_entrant_id:
        return tuple(
            f"{entrant.code} {labels.get(entrant.code, {}).get('name', '')}"
            for entrant in (table.ns_entrant, table.ew_entrant)
        )
    return f"{table.north.name}、{table.south.name}", f"{table.east.name}、{table.west.name}"


def board_traveller(event, rnd, board):
    """That board at every table of the round, side by side (like a bridge traveller)."""
    deals = (
        Deal.objects.filter(table__round=rnd, board=board, status=Deal.Status.CONFIRMED)
        .select_related(
            "table",
            "table__ns_entrant",
            "table__ew_entrant",
            "table__north",
            "table__east",
            "table__south",
            "table__west",
        )
        .order_by("table__number")
    )
    rules = event_rules(event)
    rows = []
    for deal in deals:
        # The engine's own words for each seat's score ("猪 −100 ×2 明 ×2 自得"), so players can
        # check their deal; computed again from the stored cards (20 µs a deal).
        scored = score_stored(
            rules,
            {"captured": deal.captured, "holders": deal.holders, "exposed": deal.exposed, "penalties": deal.penalties},
            deal.adjusted,
        )
        rows.append(
            {
                "breakdown": {
                    seat: "；".join(item["text"] for item in scored.get("breakdown", {}).get(seat, []))
                    for seat in SEATS
                },
                "table": deal.table,
                "captured": {seat: cards_text(cards) for seat, cards in deal.captured.items()},
                "holders": {card_label(card): ",".join(per_copy(seat)) for card, seat in deal.holders.items()},
                "exposed": {card_label(card): exposure_word(kind) for card, kind in deal.exposed.items()},
                "penalties": deal.penalties,
                "adjusted": deal.adjusted is not None,
                "adjusted_reason": deal.adjusted_reason,
                "scores": deal.scores,
                "raw": deal.raw,
                "ns": deal.ns_score,
                "ew": deal.ew_score,
            }
        )
    return rows


def penalty_list(event):
    """Every penalty (罚分) and ruling of the published rounds, for the public list: round, table,
    board, seat and who sat there, the irregularity and the ruling in the referee's words."""
    published = Round.objects.published().filter(event=event)
    rows = []
    ruled = set()
    for item in (
        Irregularity.objects.filter(deal__table__round__in=published)
        .select_related("deal__table__round", "deal__table__ns_entrant", "deal__table__ew_entrant")
        .select_related("deal__table__north", "deal__table__east", "deal__table__south", "deal__table__west")
        .order_by("deal__table__round__number", "deal__table__number", "deal__board", "id")
    ):
        table = item.deal.table
        ruled.add((item.deal_id, item.seat))
        rows.append(_penalty_row(table, item.deal.board, item.seat, item.penalty, item.get_kind_display(), item.ruling))
    for deal in (
        Deal.objects.filter(table__round__in=published, status=Deal.Status.CONFIRMED)
        .exclude(penalties={})
        .select_related("table__round", "table__ns_entrant", "table__ew_entrant")
        .select_related("table__north", "table__east", "table__south", "table__west")
        .order_by("table__round__number", "table__number", "board")
    ):
        for seat, points in sorted(deal.penalties.items()):
            if (deal.id, seat) not in ruled:  # entered on the deal without a recorded ruling
                rows.append(_penalty_row(deal.table, deal.board, seat, points, "", ""))
    rows.sort(key=lambda row: (row["round"], row["table"], row["board"], row["seat"]))
    return rows


def _penalty_row(table, board, seat, points, kind, ruling):
    player = table.seat_players().get(seat) if seat else None
    entrant = (table.ns_entrant if seat in "NS" else table.ew_entrant) if seat else None
    return {
        "round": table.round.number,
        "table": table.number,
        "board": board,
        "seat": seat,
        "player": player.name if player else "",
        "entrant": entrant.code if entrant else "",
        "points": points,
        "kind": kind,
        "ruling": ruling,
    }


def _statistics_keys(event, version):
    prefix = f"player-stats:{event.pk}:{version}"
    return prefix, f"{prefix}:ready", f"{prefix}:player:"


def warm_player_statistics(event):
    """Every player's statistics, computed once for the public version (the publication's
    warm-up) and stored per player as well, so that each entrant's page reads its own."""
    version = current_version(event, public=True)
    _whole, ready, per_player = _statistics_keys(event, version)
    if cache.get(ready):
        return
    totals = event_player_statistics(event, version)
    cache.set_many({f"{per_player}{player}": stats for player, stats in totals.items()}, timeout=STATISTICS_SECONDS)
    cache.set(ready, True, timeout=STATISTICS_SECONDS)  # last: "ready" promises the entries above


def members_statistics(event, members, tables):
    """{player id: PlayerStats} of an entrant's members: the warm-up's figures when it has
    run for the current public version, else computed over the entrant's own tables (a
    player plays only at their entrant's tables, so the two agree)."""
    version = current_version(event, public=True)
    _whole, ready, per_player = _statistics_keys(event, version)
    keys = [f"{per_player}{player.id}" for player in members]
    found = cache.get_many([ready, *keys])
    if found.get(ready) and all(key in found for key in keys):
        return {player.id: found[key] for player, key in zip(members, keys, strict=True)}
    # Not warmed for this version, or a member without figures (no published deal yet, or
    # dropped by the cache): count them here, over these tables.
    return player_statistics(event, players={player.id for player in members}, tables=[t.id for t in tables])


def event_player_statistics(event, version=None):
    """{player id: PlayerStats} of the whole event, cached under the public version.

    Every deal is scored again, and once more for each player's exposures (12 s for the
    90,000 deals of the 1,250-pair bench event), so one request or warm-up computes it
    while the others wait for its answer rather than computing it beside it."""
    key, _ready, _per_player = _statistics_keys(event, version or current_version(event, public=True))
    found = cache.get(key)
    if found is not None:
        return found
    lock = f"{key}:computing"
    if not cache.add(lock, 1, STATISTICS_LOCK_SECONDS):
        found = wait_for(lambda: cache.get(key), STATISTICS_WAIT_SECONDS)
        if found is not None:
            return found
    try:
        totals = player_statistics(event)
        cache.set(key, totals, timeout=STATISTICS_SECONDS)
    finally:
        cache.delete(lock)
    return totals


def player_statistics(event, *, players=None, tables=None):
    """{player id: PlayerStats} over the confirmed deals of the published rounds
    (`scoring.games.huapai.player_stats`), computed now; `players` and `tables` (ids) limit it to those
    players at those tables (an entrant's page: its members at its tables, a few index
    look-ups). Who sat where follows the team line-ups per 节."""
    rules = event_rules(event)
    published = Round.objects.published().filter(event=event)
    deals = Deal.objects.filter(table__round__in=published, status=Deal.Status.CONFIRMED)
    lineups_read = LineUp.objects.filter(table__round__in=published)
    if tables is not None:
        deals = deals.filter(table_id__in=tables)
        lineups_read = lineups_read.filter(table_id__in=tables)
    lineups = {}
    for row in lineups_read.order_by("session").values(
        "table_id", "session", "north_id", "east_id", "south_id", "west_id"
    ):
        seats = {"N": row["north_id"], "E": row["east_id"], "S": row["south_id"], "W": row["west_id"]}
        lineups.setdefault(row["table_id"], []).append((row["session"], seats))
    totals = defaultdict(PlayerStats)
    for table_id, board, sessions, captured, holders, exposed, penalties, adjusted, *seat_ids in deals.values_list(
        "table_id",
        "board",
        "table__round__sessions",
        "captured",
        "holders",
        "exposed",
        "penalties",
        "adjusted",
        "table__north_id",
        "table__east_id",
        "table__south_id",
        "table__west_id",
    ).iterator(chunk_size=5000):
        seats = dict(zip(SEATS, seat_ids, strict=True))
        session = session_of(board or 1, event.match_length, sessions)
        for from_session, lineup in lineups.get(table_id, ()):
            if from_session <= session:
                seats = lineup
        deal_json = {"captured": captured, "holders": holders, "exposed": exposed, "penalties": penalties}
        try:
            per_player = deal_statistics(rules, deal_json, adjusted, seats, only=players)
        except DealError:
            continue  # a stored deal the engine now refuses is listed by the publication checks
        for player, stats in per_player.items():
            totals[player].add(stats)
    return dict(totals)


STATISTICS_ORDER = ("pigs", "goats", "transformers", "all_hearts", "grand_slams", "exposures", "exposure_gain")


def statistics_rows(event, order=""):
    """A row per player who played a published deal: the player, their entrant (for the link)
    and their `PlayerStats`; by the pinyin of the name, or most first by `order` (STATISTICS_ORDER)."""
    totals = event_player_statistics(event)
    entrant_of = dict(
        Membership.objects.filter(player_id__in=totals, entrant__event=event).values_list("player_id", "entrant__code")
    )
    rows = [
        {
            "code": player.code,
            "name": player.name,
            "club": player.club,
            "entrant": entrant_of.get(player.id),
            "stats": totals[player.id],
        }
        for player in Player.objects.filter(event=event, id__in=totals).order_by("sort_key", "code")
    ]
    if order in STATISTICS_ORDER:
        rows.sort(key=lambda row: getattr(row["stats"], order), reverse=True)
    return rows
