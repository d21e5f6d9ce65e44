"""Reading results out of the database as the plain data `scoring.engine.standings` takes."""

from collections import defaultdict

from django.core.cache import cache
from django.db.models import Count, Sum
from django.utils import translation
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from scoring.cache.versions import current_version
from scoring.cache.waiting import wait_for
from scoring.engine.standings import (
    CRITERIA_LABELS,
    Format,
    MatchResult,
    TableResult,
    compute_standings,
    match_finished,
)
from scoring.engine.vocabulary import LABEL_CONTEXT, Kind, MatchMode
from scoring.messages import joined, people_label
from scoring.models import Deal, Entrant, Match, Membership, Player, Round, Table


def event_format(event):
    return Format(
        kind=event.kind,
        mode=event.match_mode,
        length=event.match_length,
        threshold=event.game_threshold,
        points=event.match_points,
        tiebreaks=list(event.tiebreaks),
    )


def event_match_results(event, *, published_only=False, after_round=None, stage=""):
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
    deals = Deal.objects.filter(table__round_id__in=round_numbers, status=Deal.Status.CONFIRMED)

    # Tuples, not dicts: a 10,000-player event sums 360,000 deals into 22,500 rows here.
    totals = {
        table_id: sums
        for table_id, *sums in deals.values("table_id")
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
    }
    sides_by_table = defaultdict(list)
    if event.match_mode == MatchMode.GAMES:
        for table_id, ns, ew in deals.order_by("table_id", "sequence").values_list("table_id", "ns_score", "ew_score"):
            sides_by_table[table_id].append((ns, ew))

    individual = event.kind == Kind.INDIVIDUAL
    tables_by_match = defaultdict(list)
    for table_id, match_id, ns_code, ew_code, *seat_codes in Table.objects.filter(
        round_id__in=round_numbers
    ).values_list(
        "id",
        "match_id",
        "ns_entrant__code",
        "ew_entrant__code",
        *(("north__code", "east__code", "south__code", "west__code") if individual else ()),
    ):
        table = TableResult(
            ns=ns_code, ew=ew_code, seats=dict(zip("NESW", seat_codes, strict=True)) if individual else {}
        )
        total = totals.get(table_id)
        if total:
            ns, ew, nsp, ewp, n, e, s, w, count = total
            table.ns_total, table.ew_total, table.ns_penalty, table.ew_penalty = ns, ew, nsp, ewp
            table.deal_count = count
            table.seat_totals = {"N": n, "E": e, "S": s, "W": w}
            table.side_scores = sides_by_table.get(table_id, [])
        tables_by_match[match_id].append(table)

    results = []
    for row in (
        Match.objects.filter(round_id__in=round_numbers)
        .values("id", "round_id", "home__code", "away__code", "bye__code")
        .order_by("round__number", "number")
    ):
        results.append(
            MatchResult(
                round=round_numbers[row["round_id"]],
                home=row["home__code"],
                away=row["away__code"],
                # An individual's bye is listed, not scored (event-archive.md ranks individuals by deals).
                bye=row["bye__code"] if event.kind != Kind.INDIVIDUAL else None,
                tables=tables_by_match.get(row["id"], []),
            )
        )
    return results


def entrant_codes(event):
    return list(Entrant.objects.filter(event=event).values_list("code", flat=True))


def event_standings(event, *, published_only=False, after_round=None):
    """Ranked standings rows for the event (see `scoring.engine.standings`), cached per results version."""
    return standings_by_round(event, published_only=published_only, rounds=[after_round])[after_round]


def standings_by_round(event, *, published_only=False, rounds=None, finished_only=False):
    """{after_round: rows} for several cut-offs from one read of the results (None = all rounds).

    `finished_only` (the officials' files): a match of an unpublished round counts only once
    it is finished (`scoring.engine.standings.match_finished`); published rounds count as published.
    Cached under the event's `results_version`, which every write bumps, so a
    cached table is never stale; a 10,000-player event's standings then cost
    a cache look-up instead of summing 360,000 deals.
    """
    version = current_version(event, public=published_only)
    rounds = [None] if rounds is None else list(rounds)
    keys = {r: f"standings:{event.pk}:{version}:{int(published_only)}{int(finished_only)}:{r}" for r in rounds}
    found = cache.get_many(list(keys.values()))
    result = {r: found[key] for r, key in keys.items() if key in found}
    missing = [r for r in rounds if r not in result]
    lock = f"standings-computing:{event.pk}:{version}:{int(published_only)}{int(finished_only)}"
    if missing and not cache.add(lock, 1, STANDINGS_LOCK_SECONDS):
        # Another request is computing this table (a crowd on a cold cache: each entrant's
        # page needs its standing): wait for it rather than compute it again beside it.
        def all_found():
            found = cache.get_many([keys[r] for r in rounds])
            return found if len(found) == len(rounds) else None

        found = wait_for(all_found, STANDINGS_WAIT_SECONDS)
        if found is not None:
            return {r: found[keys[r]] for r in rounds}
        cache.add(lock, 1, STANDINGS_LOCK_SECONDS)  # waited long enough: compute it here
    if missing:
        try:
            _compute_missing(event, published_only, finished_only, missing, keys, result)
        finally:
            cache.delete(lock)
    return result


STANDINGS_LOCK_SECONDS = 60
STANDINGS_WAIT_SECONDS = 15.0


def _compute_missing(event, published_only, finished_only, missing, keys, result):
    """Compute the `missing` cut-offs into `result` and store them."""
    matches = event_match_results(event, published_only=published_only)
    fmt, codes = event_format(event), entrant_codes(event)
    if finished_only:
        unfinished = {id(match) for match in _unfinished(event, fmt, matches)}
        matches = [match for match in matches if id(match) not in unfinished]
    for r in missing:
        result[r] = compute_standings(fmt, matches, codes, after_round=r)
    cache.set_many({keys[r]: result[r] for r in missing}, timeout=24 * 3600)


def _unfinished(event, fmt, matches):
    published = set(Round.objects.filter(event=event).published().values_list("number", flat=True))
    return [match for match in matches if match.round not in published and not match_finished(fmt, match)]


def unfinished_matches(event):
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
        for match in _unfinished(event, fmt, event_match_results(event))
    ]


def public_standing(event, code):
    """One entrant's public standings row and the number of rows, without unpickling the whole
    table on every record page: the rows are stored one key each next to the table."""
    version = current_version(event, public=True)
    key = f"standing-row:{event.pk}:{version}"
    found = cache.get_many([f"{key}:{code}", f"{key}:#"])
    if f"{key}:#" not in found:
        rows = event_standings(event, published_only=True) if event.rounds.published().exists() else []
        cache.set_many({f"{key}:#": len(rows), **{f"{key}:{row.id}": row for row in rows}}, timeout=24 * 3600)
        return next((row for row in rows if row.id == code), None), len(rows)
    return found.get(f"{key}:{code}"), found[f"{key}:#"]


def standings_json(event, *, published_only=False, after_round=None):
    """The `manage.py standings --json` document of event-archive.md."""
    rows = event_standings(event, published_only=published_only, after_round=after_round)
    rounds = Round.objects.filter(event=event, stage="")
    if published_only:
        rounds = rounds.published()
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    return {
        "event": event.slug,
        "kind": event.kind,
        "rounds": rounds.count(),
        "rows": [row.as_json(event.kind) for row in rows],
    }


def entrant_labels(event):
    """{code: {"name", "club", "sort_key"}} for every entrant (pairs/teams) or player (individual), cached."""
    # Under the public version: entrant and name changes move it, referees' entries do not.
    key = f"labels:{event.pk}:{current_version(event, public=True)}:{get_language()}"
    labels = cache.get(key)
    if labels is None:
        labels = _entrant_labels(event)
        cache.set(key, labels, timeout=24 * 3600)
    return labels


def _entrant_labels(event):
    # Plain rows, not model objects: the 10,000 players of a big event cost twice as much as objects.
    players = {
        p.id: p for p in Player.objects.filter(event=event).values_list("id", "name", "sort_key", "club", named=True)
    }
    members = defaultdict(list)
    for entrant_id, player_id in (
        Membership.objects.filter(entrant__event=event).order_by("position").values_list("entrant_id", "player_id")
    ):
        members[entrant_id].append(players[player_id])
    labels = {}
    for entrant in Entrant.objects.filter(event=event).values_list("id", "code", "name", named=True):
        people = members[entrant.id]
        names = people_label(people)
        clubs = joined(dict.fromkeys(p.club for p in people if p.club))
        labels[entrant.code] = {
            "name": entrant.name or names,
            "players": names,
            "club": clubs,
            "sort_key": " ".join(p.sort_key for p in people),
            # Each partner's pinyin apart: "zj" finds 朱娟 as well as "xt" 解涛 in 朱娟、解涛.
            "pinyin": [p.sort_key for p in people],
        }
    return labels


def explanation_text(explanation):
    """What separates a row from the one above, in the active language, e.g. “场分相同，得分差少 230”."""
    if not explanation:
        return ""
    label = {key: pgettext(LABEL_CONTEXT, text) for key, text in CRITERIA_LABELS.items()}
    criterion = explanation["criterion"]
    if criterion is None:
        return _("各项均相同，并列")
    above, this = explanation["above"], explanation["this"]
    if criterion == "head_to_head":
        detail = _("%(label)s %(this)s:%(above)s") % {"label": label[criterion], "this": this, "above": above}
    elif criterion == "penalties":
        detail = _("罚分多 %(points)s") % {"points": above - this}
    elif criterion == "deals":
        detail = _("%(label)s多 %(count)s") % {"label": label[criterion], "count": this - above}
    else:
        detail = _("%(label)s少 %(points)s") % {"label": label[criterion], "points": above - this}
    if not explanation["same"]:
        return detail
    same = pgettext("list separator", "、").join(label[c] for c in explanation["same"])
    return _("%(same)s相同，%(detail)s") % {"same": same, "detail": detail}


def standings_rows(event, rows, language, *, explain=True):
    """Standings rows joined with names and the explanation sentence, as dicts for tables and exports.

    `explain=False` leaves each row's explanation as data for the page's table to put in words
    (`scoring.web.public.tables.StandingsTable`) on the rows it shows: 100 sentences instead of 5,000."""
    with translation.override(language):
        return _standings_rows(event, rows, explain)


def _standings_rows(event, rows, explain):
    labels = entrant_labels(event)
    result = []
    for row in rows:
        label = labels.get(row.id, {"name": row.id, "club": "", "sort_key": row.id, "pinyin": []})
        result.append(
            {
                **row.as_json(event.kind),
                "total_score": row.total_score,
                "deals": row.deals,
                "name": label["name"],
                "club": label["club"],
                "sort_key": label["sort_key"],
                "pinyin": label.get("pinyin", []),
                "explanation": explanation_text(row.explanation) if explain else row.explanation,
            }
        )
    return result


def filter_rows(rows, query):
    """Rows whose number starts with, or name or club contains, the query; pinyin for two letters or more."""
    query = query.strip().lower()
    if not query:
        return rows
    compact = query.replace(" ", "")

    def matches(row):
        if row["id"].lower().startswith(query) or query in row["name"].lower() or query in row["club"].lower():
            return True
        if len(compact) < 2 or not compact.isascii():
            return False
        for key in [row["sort_key"], *row.get("pinyin", [])]:
            syllables = key.split()
            initials = "".join(s[0] for s in syllables if s)
            if compact in "".join(syllables) or initials.startswith(compact):
                return True
        return False

    return [row for row in rows if matches(row)]
