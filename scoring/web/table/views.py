"""The table link (`/t/<token>/`, table-api.md): the players' page and its JSON calls.

Views only read the request, call `scoring.table_entry` and turn its answers and domain
errors into HTTP. The token in the path and the entrant code in the body are the
credentials: no login, cookie or CSRF token (so nothing here reads or sets a session).
"""

import hashlib
import json
import math
import re
from functools import wraps

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from scoring.cache.tables import table_state_body
from scoring.entry.errors import EntryError
from scoring.entry.selectors import check_board, deal_preview, snapshot
from scoring.entry.strings import checked_strings
from scoring.events.lineups import session_notes
from scoring.events.rulebook import rules_text
from scoring.games import game_of
from scoring.games.seats import in_partnerships
from scoring.games.stored import plays_alone
from scoring.messages import message_json
from scoring.rulings.calls import table_call_kinds
from scoring.table_entry import idempotency
from scoring.table_entry.codes import KNOWN_COOKIE, KNOWN_MAX_AGE, Phone, TableGuarded, known_cookie, known_side
from scoring.table_entry.services import (
    deal_of_body,
    signed_sides,
    table_appeal,
    table_call,
    table_deal_put,
    table_dispute,
    table_for_token,
    table_sides,
    table_signoff,
    table_verify,
)
from scoring.table_entry.state import board_detail, state_body, state_stamp, table_state
from scoring.web.api.views import MAX_BODY, _expected_version
from scoring.web.catalog import catalogue_url
from scoring.web.client_address import client_ip
from scoring.web.referee import game_entry
from scoring.web.referee.preview_page import form_preview
from scoring.web.seating import session_note_words

# The one place where a table link's domain error becomes an HTTP status (table-api.md);
# any other code is about the request or the deal: 400.
HTTP_STATUS = {
    "bad_code": 403,
    "same_side": 403,
    "same_phone": 403,
    "other_side": 403,
    "forbidden": 403,
    "players_entry_off": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "signed_off": 409,
    "unconfirmed_boards": 409,
    "disputed": 409,
    "confirmed": 409,
    "not_draft": 409,
    "round_published": 409,
    "round_changed": 409,
    "ruled_penalty": 409,
    "appeal_closed": 409,
    "settled": 409,
    "appeal_open": 409,
    "too_many_appeals": 409,
    "not_played": 409,
    "awaiting_adjusted": 409,
    "stale_version": 412,
    "too_large": 413,
    "idempotency_mismatch": 422,
    "version_required": 428,
    "idempotency_key_required": 428,
    "table_guarded": 429,
}


def _answer(status, body, headers=None):
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    patch_cache_control(response, private=True, no_store=True)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _refused(failure):
    return HTTP_STATUS.get(failure.code, 400), message_json(failure)


def _guarded_answer(failure):
    """`429 table_guarded` with when the window passes, in the body and as `Retry-After`."""
    body = message_json(failure)
    body["error"]["until"] = failure.until.isoformat()
    wait = max(1, math.ceil((failure.until - timezone.now()).total_seconds()))
    return 429, body, {"Retry-After": str(wait)}


def _phone(request, table):
    """The phone calling, as its cookie makes it known (or not) at this table."""
    return Phone(known=known_side(table, request.COOKIES.get(KNOWN_COOKIE)))


def _make_known(request, response, table, phone):
    """A right code makes the phone known for that side at this table (table-api.md): a signed,
    HttpOnly, SameSite=Strict cookie for this link's path only. A phone is one side's: a right
    code of the other side replaces the cookie."""
    if phone.proved is None or phone.proved.side == phone.known:
        return
    response.set_cookie(
        KNOWN_COOKIE,
        known_cookie(table, phone.proved),
        max_age=KNOWN_MAX_AGE,
        path=f"/t/{table.token}/",
        secure=request.is_secure(),
        httponly=True,
        samesite="Strict",
    )


def _not_found():
    return _answer(404, {"error": {"code": "not_found", "message": gettext("没有这个本桌链接（可能已更换）")}})


def _read_body(request):
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isascii() or not length.isdigit() or len(length) > 12:
        raise EntryError("bad_request", gettext("Content-Length 无效"))
    if int(length) > MAX_BODY or len(request.body) > MAX_BODY:
        raise EntryError("too_large", gettext("请求超过 64 KiB"))
    try:
        data = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise EntryError("bad_json", gettext("请求体必须是 JSON 对象")) from None
    if not isinstance(data, dict):
        raise EntryError("bad_json", gettext("请求体必须是 JSON 对象"))
    return checked_strings(data)


def table_write(method):
    """A write through a table link: the body at most 64 KiB, an Idempotency-Key, the table
    not locked by wrong codes; then the view runs once per key (`idempotency.answered_once`)."""

    def decorate(view):
        @csrf_exempt  # the token and the code are the credentials (table-api.md)
        @wraps(view)
        def wrapper(request, token, **kwargs):
            if request.method != method:
                return _answer(405, {"error": {"code": "method_not_allowed", "message": gettext("请求方法不对")}})
            try:
                body = _read_body(request)
                key = idempotency.checked_key(request.headers.get("Idempotency-Key"))
            except EntryError as failure:
                return _answer(*_refused(failure))
            table = table_for_token(token)
            if table is None:
                return _not_found()
            print_ = idempotency.fingerprint(request.method, request.path, request.body)
            phone = _phone(request, table)
            headers = {}

            def act():
                try:
                    status, answer = view(request, table, body, phone=phone, **kwargs)
                except TableGuarded as failure:
                    # Not kept: once the guard ends, the same request is tried again.
                    status, answer, guarded = _guarded_answer(failure)
                    headers.update(guarded)
                    return status, answer, False
                except EntryError as failure:
                    status, answer = _refused(failure)
                return status, answer, True

            try:
                status, answer = idempotency.answered_once(table, key, print_, act)
            except EntryError as failure:  # the key was used for another body
                status, answer = _refused(failure)
            response = _answer(status, answer, headers)
            _make_known(request, response, table, phone)
            return response

        return wrapper

    return decorate


DEVICE = re.compile(r"[A-Za-z0-9-]{1,40}")


def _device(request):
    """The phone's own random id (`X-Table-Device`), or "" when absent or malformed."""
    value = request.headers.get("X-Table-Device", "")
    return value if DEVICE.fullmatch(value) else ""


def _writer(request):
    """What a write records of its request: the version it saw, the address and the phone."""
    return {"expected_version": _expected_version(request), "ip": client_ip(request), "device": _device(request)}


def _deal_answer(deal):
    return {"board": deal.board, **snapshot(deal), "entered_by": deal.entered_side or "referee"}


def _board(table, board):
    check_board(table.round.event, table, board)
    return board


@table_write("PUT")
def board_put(request, table, body, board, phone):
    deal, created = table_deal_put(table, _board(table, board), body, phone=phone, **_writer(request))
    return (201 if created else 200), _deal_answer(deal)


@table_write("POST")
def board_verify(request, table, body, board, phone):
    deal = table_verify(table, board, body, phone=phone, **_writer(request))
    return 200, _deal_answer(deal)


@table_write("POST")
def board_dispute(request, table, body, board, phone):
    deal = table_dispute(table, board, body, phone=phone, **_writer(request))
    return 200, _deal_answer(deal)


@table_write("POST")
def signoff(request, table, body, phone):
    side = table_signoff(table, body, phone)
    return 200, {"side": side.side, "signed_off": signed_sides(table)}


@table_write("POST")
def call_referee(request, table, body, phone):
    # Never refused for wrong codes, and never makes a phone known: its answer must not say
    # whether the code it carried was right.
    call = table_call(table, body)
    return 200, {"call": {"kind": call.kind, "board": call.board, "at": call.at.isoformat()}}


@table_write("POST")
def appeal(request, table, body, phone):
    lodged = table_appeal(table, body, phone)
    return 201, {"appeal": {"id": lodged.pk, "board": lodged.board, "status": lodged.status}}


def _read(view):
    """A read through a table link: GET only, 404 for an unknown token. Never refused for wrong
    codes: a guard holds back guesses, not the table's own players reading (table-api.md)."""

    @wraps(view)
    def wrapper(request, token, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return _answer(405, {"error": {"code": "method_not_allowed", "message": gettext("请求方法不对")}})
        table = table_for_token(token)
        if table is None:
            return _not_found()
        try:
            return view(request, table, **kwargs)
        except EntryError as failure:
            return _answer(*_refused(failure))

    return wrapper


def state(request, token):
    """The table's boards, polled by the page every few seconds. Its ETag comes from one
    statement (`state_stamp`): an unchanged table costs that and a 304, no state built."""
    if request.method not in ("GET", "HEAD"):
        return _answer(405, {"error": {"code": "method_not_allowed", "message": gettext("请求方法不对")}})
    stamped = state_stamp(token)
    if stamped is None:
        return _not_found()
    stamp, _guarded, open_calls, table_id = stamped
    etag = f'"{stamp}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        body = table_state_body(table_id, stamp, lambda: state_body(token, open_calls))
        if body is None:
            return _not_found()
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@_read
def board_get(request, table, board):
    return _answer(200, board_detail(table, _board(table, board)))


@csrf_exempt  # as every table-link call: the token and the code are the credentials
def board(request, token, board):
    """`/t/<token>/boards/<b>`: GET reads the board, PUT enters it."""
    if request.method == "PUT":
        return board_put(request, token, board=board)
    return board_get(request, token, board=board)


@csrf_exempt  # a read: the engine scores the grid as typed; nothing is written
def preview(request, token, board):
    if request.method != "POST":
        return _answer(405, {"error": {"code": "method_not_allowed", "message": gettext("请求方法不对")}})
    table = table_for_token(token)
    if table is None:
        return _not_found()
    try:
        _board(table, board)
        if request.content_type != "application/json":
            return _form_preview(request, table, board)
        body = _read_body(request)
    except EntryError as failure:
        return _answer(*_refused(failure))
    return _answer(200, deal_preview(table, board, deal_of_body(table, body)))


def _form_preview(request, table, board):
    """The preview of the game's fields as the page's form posts them (the referee's page posts
    the same form, `game_entry.entry_form`; `static/js/entry.js` draws both). A client of the
    API posts the deal JSON instead."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isascii() or not length.isdigit() or int(length) > MAX_BODY:
        raise EntryError("too_large", gettext("请求超过 64 KiB"))
    return _answer(200, form_preview(table.round.event, table, board, request.POST, players=True))


def _initial_state(token, table):
    """The state the page starts with and its ETag, from the same kept body as the polls: the
    page's first poll is then a 304 (a hall's phones open their pages at once)."""
    stamped = state_stamp(token)
    body = (
        table_state_body(stamped.table_id, stamped.stamp, lambda: state_body(token, stamped.open_calls))
        if stamped
        else None
    )
    if body is None:
        return {"state": table_state(table), "state_etag": ""}
    return {"state": json.loads(body), "state_etag": f'"{stamped.stamp}"'}


def page(request, token):
    """The table's phone page. Its address is the credential to read: no caching anywhere."""
    table = table_for_token(token)
    if table is None:
        response = render(request, "table/unknown.html", status=404)
    else:
        event = table.round.event
        game = game_of(event)
        response = render(
            request,
            "table/table.html",
            {
                "table": table,
                "event": event,
                "round": table.round,
                # The game's entry fields (a card grid among them), as the referee's page draws them.
                "fields": game_entry.field_rows(event, {}),
                "seats": game.seats,
                # The sides that verify and sign (every seat its own where every player plays alone).
                "sides": table_sides(table),
                "result_sides": game.result_sides,
                # Who verifies and signs: two partnerships, or every player alone (docs/organising.md).
                "two_sides": in_partnerships(game_of(event)),
                "alone": plays_alone(game_of(event)),
                # The reasons a table may give when it calls a referee: those of its game.
                "call_kinds": table_call_kinds(game_of(event)),
                "rules_text": rules_text(event),
                **_initial_state(token, table),
                "session_notes": session_note_words(session_notes(table, event, table.round.sessions)),
            },
        )
    patch_cache_control(response, private=True, no_store=True)
    response["Referrer-Policy"] = "no-referrer"  # the token is in the address
    return response


def service_worker(request, token):
    """The table page's service worker: once the page has loaded, it opens again with the
    network down (the page, its script and styles from the cache; the state and the outbox
    from the phone's storage). Scoped to this table's link."""
    if table_for_token(token) is None:
        return _not_found()
    assets = [
        static("css/site.css"),
        static("js/table.js"),
        static("js/entry.js"),
        static("js/site.js"),
        catalogue_url(),  # in the page's language: another language is another worker
    ]
    # The assets' addresses carry their content hash (the static manifest): a new release is
    # a new cache, and the old one is dropped when the new worker takes over.
    version = hashlib.sha256("|".join(assets).encode()).hexdigest()[:12]
    config = json.dumps({"page": f"/t/{token}/", "assets": assets, "version": version})
    response = render(request, "table/sw.js", {"config": config}, content_type="text/javascript")
    patch_cache_control(response, private=True, no_cache=True)
    return response
