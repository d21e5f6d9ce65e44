"""Public pages: no login, published (provisional or official) rounds only."""

import io
import threading

from django.conf import settings
from django.core.paginator import EmptyPage, Paginator
from django.db.models import Count
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from scoring.cache.page_query import DEFAULT_PER_PAGE, PageQuery, past_the_last
from scoring.cache.pages import public_page
from scoring.events.rulebook import game_name, rules_in_force
from scoring.exports import image
from scoring.games import EVENT_GAMES, game_of
from scoring.games.stored import event_rules, plays_alone
from scoring.messages import joined, standings_labels
from scoring.models import Event, Round, public_rounds
from scoring.results.cross_table import event_cross_table
from scoring.results.labels import entrant_labels, standings_rows
from scoring.results.penalties import penalty_list
from scoring.results.records import entrant_record
from scoring.results.round_results import played_boards, published_round, round_results
from scoring.results.search import filter_rows
from scoring.results.standings import event_standings, public_standing
from scoring.results.statistics import STATISTICS_ORDER, statistics_columns, statistics_rows
from scoring.results.travellers import board_traveller
from scoring.rounds import draws
from scoring.rounds.final_stage import stage_summary
from scoring.rounds.publication import changes_since_publication
from scoring.rulings.appeals import public_appeals
from scoring.web.public.tables import (
    STANDINGS_SORTS,
    IndividualStandingsTable,
    StandingsTable,
    TablePointsStandingsTable,
)


def favicon(request):
    """/favicon.ico, which browsers ask for whatever a page links: the icon in static/ (its
    hashed name is read at request time, after collectstatic)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def home(request):
    events = Event.objects.annotate(published_rounds=Count("rounds", filter=public_rounds("rounds__"))).order_by(
        "-start_date", "name"
    )
    # The games the site runs events of, from the registry (a new game is named without a new text).
    games = joined(str(game_name(game)) for game in EVENT_GAMES.values())
    return render(request, "scoring/home.html", {"events": events, "games": games})


def _published_rounds(event):
    return list(event.rounds.published().order_by("number"))


@public_page
def event_detail(request, slug):
    event = get_object_or_404(Event, slug=slug)
    rounds = list(event.rounds.order_by("number"))
    context = {"event": event, "rounds": rounds, "rules": rules_in_force(event)}
    context["stage"] = any(r.stage and r.draw_released for r in rounds)
    return render(request, "scoring/event.html", context)


def _per_page(request):
    """`?per_page=` as one of the offered sizes (`page_query.PAGE_SIZES`); anything else
    (negative, huge, text) is the default."""
    return PageQuery.read(request.GET).value("per_page", DEFAULT_PER_PAGE)


def _page(request):
    """`?page=` as the page cache keeps it (1 to 999); anything else is the first page."""
    return PageQuery.read(request.GET).value("page", 1)


def _configure_table(table, request):
    """Order from the query, and paginate with a page size only from `page_query.PAGE_SIZES`:
    django-tables2's own pagination takes any integer the query gives for the size,
    and a negative one is a server error. A page past the last: a redirect to the last, returned
    (`page_query.past_the_last`), else None."""
    RequestConfig(request, paginate=False).configure(table)
    try:
        table.paginate(page=_page(request), per_page=_per_page(request))
    except EmptyPage:
        table.paginate(page=table.paginator.num_pages, per_page=_per_page(request))
        return past_the_last(request, table.paginator.num_pages)
    return None


def _after_round(request, published):
    """`?after=`: a published round's number, or None when absent or empty; 404 for anything else."""
    query = PageQuery.read(request.GET)
    if query.refused("after"):
        raise Http404("bad round")
    number = query.value("after")
    if number is None:
        return None
    if number not in {r.number for r in published}:
        raise Http404("round not published")
    return number


@public_page(sorts=STANDINGS_SORTS)
def standings(request, slug):
    event = get_object_or_404(Event, slug=slug)
    published = _published_rounds(event)
    after = _after_round(request, published)
    rows = event_standings(event, published_only=True, after_round=after) if published else []
    query = request.GET.get("q", "").strip()
    data = filter_rows(
        standings_rows(event, rows, get_language() or "zh-hans", explain=False, after_round=after), query
    )
    table_class = IndividualStandingsTable if event.kind == Event.Kind.INDIVIDUAL else StandingsTable
    if rows and rows[0].by_table_points:
        table_class = TablePointsStandingsTable
    game = game_of(event)
    # A game without penalty points has no 罚分 column; its own words for the figures (升级: 级差).
    exclude = None if game.takes_penalties else (*(table_class._meta.exclude or ()), "penalties")
    table = table_class(data, exclude=exclude)
    table.figure_words = standings_labels(game)  # the explanations name them so too
    for name, label in table.figure_words.items():
        if name in table.columns.names():
            table.columns[name].column.verbose_name = label
    past = _configure_table(table, request)
    if past is not None:
        return past
    provisional = any(r.status == Round.Status.PROVISIONAL for r in published if after is None or r.number <= after)
    return render(
        request,
        "scoring/standings.html",
        {
            "event": event,
            "table": table,
            "published": published,
            "after": after,
            "query": query,
            "provisional": provisional,
        },
    )


# A picture costs far more than a page (Pillow draws every glyph: ~15 ms a row for a 600-pair
# event), so one has at most 100 rows — longer ones are asked for by `?after=`-less pages of the
# table, not by one image — and a process draws one at a time; the page cache keeps each
# canonical address once per public version.
IMAGE_ROWS = 100
_drawing = threading.BoundedSemaphore(1)


@public_page
def standings_png(request, slug):
    """The standings as a long image for a chat group: the public standings (after `?after=`),
    the first `?per_page=` rows (100 by default, as on the page, and at most)."""
    if _per_page(request) > IMAGE_ROWS:
        query = request.GET.copy()
        query["per_page"] = str(IMAGE_ROWS)
        return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
    event = get_object_or_404(Event, slug=slug)
    published = _published_rounds(event)
    after = _after_round(request, published)
    rows = event_standings(event, published_only=True, after_round=after) if published else []
    # The explanations as data: the picture marks a row that head-to-head separated.
    shown = standings_rows(
        event, rows[: _per_page(request)], get_language() or "zh-hans", explain=False, after_round=after
    )
    counted = [r for r in published if after is None or r.number <= after]
    body = io.BytesIO()
    with _drawing:
        image.write_public_standings(
            body, event, shown, counted=counted, total=len(rows), address=public_address(event_standings_path(event))
        )
    return HttpResponse(body.getvalue(), content_type="image/png")


def event_standings_path(event):
    return reverse("standings", args=[event.slug])


def public_address(path):
    """An address to print (on a picture shared in chat groups): the site's own public address
    (`PUBLIC_URL`), never the Host header of whoever asked first — the picture is cached and
    handed to everyone. Without `PUBLIC_URL`, the path alone."""
    return settings.PUBLIC_URL.rstrip("/") + path if settings.PUBLIC_URL else path


@public_page
def entrant(request, slug, code):
    event = get_object_or_404(Event, slug=slug)
    record = entrant_record(event, code)
    if record is None:
        raise Http404("no such entrant")
    standing, count = public_standing(event, code)
    context = {"event": event, "standing": standing, "count": count, **record}
    context["statistics_columns"] = statistics_columns(event)
    context["figure_labels"] = standings_labels(game_of(event))  # 升级: 级差 for 得分差
    return render(request, "scoring/entrant.html", context)


@public_page
def changes(request, slug):
    """Every change to published results since publication: board, before, after, why."""
    event = get_object_or_404(Event, slug=slug)
    # Each change's scores by the game's seats (跑胡子: E S W, no North).
    context = {"event": event, "changes": changes_since_publication(event), "seats": game_of(event).seats}
    return render(request, "scoring/changes.html", context)


@public_page
def round_detail(request, slug, number):
    event = get_object_or_404(Event, slug=slug)
    rnd = published_round(event, number)
    if rnd is None:
        raise Http404("round not published")
    boards = played_boards(event, rnd)
    return render(
        request, "scoring/round.html", {"event": event, "round": rnd, "boards": boards, **round_results(event, rnd)}
    )


@public_page
def board_detail(request, slug, number, board):
    event = get_object_or_404(Event, slug=slug)
    rnd = published_round(event, number)
    if rnd is None:
        raise Http404("round not published")
    rows = board_traveller(event, rnd, board)
    if not rows:
        raise Http404("no such board")
    game = game_of(event)
    context = {"event": event, "round": rnd, "board": board, "rows": rows, "seats": game.seats}
    context["normalised"] = game.normalises(event_rules(event))
    context["alone"] = plays_alone(game)  # no sides to total: each seat's player instead
    # The board's rulings and its changes since publication, each back to the call (or appeal) it came from.
    context["rulings"] = penalty_list(event, rnd, board)
    context["changes"] = changes_since_publication(event, rnd, board)
    return render(request, "scoring/board.html", context)


@public_page
def draw(request, slug, number):
    """The draw (对阵表) of a round whose draw the organiser released (event-archive.md),
    before or after it is played; searchable by number, name, club or pinyin (`?q=`)."""
    event = get_object_or_404(Event, slug=slug)
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None or not rnd.draw_released:
        raise Http404("draw not released")
    found = draws.draw_rows(rnd)
    query = request.GET.get("q", "")[:50].strip().lower()
    rows = [dict(row, search=draws.search_text(row)) for row in found["tables"]]
    shown = [row for row in rows if query in row["search"]] if query else rows
    return render(
        request,
        "scoring/draw.html",
        {
            "event": event,
            "round": rnd,
            "rows": shown,
            "byes": found["byes"],
            "query": query,
            "total": len(rows),
            "seats": game_of(event).seats,  # an individual's table: the game's seats (跑胡子: E S W)
        },
    )


@public_page
def final_stage(request, slug):
    """The final stage's bracket (knockout) or table (final round robin), as published."""
    event = get_object_or_404(Event, slug=slug)
    summary = stage_summary(event, public=True)
    if summary is None:
        raise Http404("no final stage")
    labels = entrant_labels(event)
    return render(
        request,
        "scoring/final_stage.html",
        {"event": event, "stage": summary, "labels": labels, "figure_labels": standings_labels(game_of(event))},
    )


def switch_language(request, code):
    """The language links of every page (a GET, so that public pages carry no CSRF token
    and can be cached whole): remember the choice in the language cookie and go back."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=True,
    )
    return response


@public_page(sorts=STATISTICS_ORDER)
def statistics(request, slug):
    """Per-player statistics over the published rounds, 100 players a page."""
    event = get_object_or_404(Event, slug=slug)
    order = request.GET.get("sort", "")
    rows = statistics_rows(event, order)
    pages = Paginator(rows, 100)
    past = past_the_last(request, pages.num_pages)
    if past is not None:
        return past
    page = pages.get_page(_page(request))
    columns = statistics_columns(event)  # a game that names its own figures: its own columns
    return render(
        request,
        "scoring/statistics_game.html" if columns else "scoring/statistics.html",
        {
            "event": event,
            "page": page,
            "order": order if order in game_of(event).statistics else "",
            "columns": columns,
        },
    )


@public_page
def penalties(request, slug):
    """Every penalty and ruling of the published rounds, with the referee's reasons."""
    event = get_object_or_404(Event, slug=slug)
    return render(
        request,
        "scoring/penalties.html",
        {
            "event": event,
            "rows": penalty_list(event),
            "appeals": public_appeals(event),
            # A game without penalty points (跑胡子, 升级…) has rulings and adjusted scores only.
            "takes_penalties": game_of(event).takes_penalties,
        },
    )


@public_page
def cross_table(request, slug):
    """Every entrant against every opponent it met in the published rounds: 场分 and score
    difference from the row's side (pairs and teams; an individual meets no one opponent)."""
    event = get_object_or_404(Event, slug=slug)
    table = event_cross_table(event, published_only=True)
    if table is None:
        raise Http404("an individual event has no cross table")
    provisional = any(r.status == Round.Status.PROVISIONAL for r in table["rounds"])
    context = {"event": event, "table": table, "provisional": provisional}
    context["figure_labels"] = standings_labels(game_of(event))  # 升级: 级差 for 得分差
    return render(request, "scoring/cross_table.html", context)
