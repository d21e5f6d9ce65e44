"""The referee JSON API (shared/formats/referee-api.md). Views only authenticate,
parse and translate `scoring.entry.services` results and errors into HTTP."""

import json
import re
from functools import wraps

from django.http import JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.csrf import csrf_exempt

from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import board_lookup
from scoring.entry.selectors import api_view, check_board, history_rows
from scoring.entry.services import deal_confirm, deal_save
from scoring.entry.strings import checked_strings
from scoring.events.permissions import is_official, remember_roles
from scoring.messages import message_json
from scoring.web.client_address import client_ip

MAX_BODY = 64 * 1024
# ASCII digits only (str.isdigit() also accepts "²", which int() refuses), at most
# nine of them: a version, like every number that enters, fits its column.
VERSION = re.compile(r"[0-9]{1,9}")


# The one place where a domain error becomes an HTTP status (referee-api.md); any
# other code is a client error about the request or the deal: 400.
HTTP_STATUS = {
    "unauthenticated": 401,
    "forbidden": 403,
    "csrf": 403,
    "round_official": 403,
    "self_confirmation": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "round_changed": 409,
    "awaiting_adjusted": 409,
    "stale_version": 412,
    "too_large": 413,
    "version_required": 428,
}


def error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def error_response(failure):
    return JsonResponse(message_json(failure), status=HTTP_STATUS.get(failure.code, 400))


def _authenticate(request, board):
    """The board's look-up for the user behind a token, or for the session user
    (whose writes must pass CSRF); or an error response."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header:
        scheme, _, key = header.partition(" ")
        if scheme.lower() != "token" or not key.strip():
            return None, error(401, "unauthenticated", gettext("Authorization 必须是 “Token <key>”"))
        lookup = board_lookup(token=key.strip(), **board)
        if lookup is None or not lookup.user.is_active:
            return None, error(401, "unauthenticated", gettext("令牌无效"))
        return lookup, None
    if not request.user.is_authenticated:
        return None, error(401, "unauthenticated", gettext("需要登录或令牌"))
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if rejected is not None:
            return None, error(403, "csrf", gettext("CSRF 校验失败"))
    return board_lookup(user=request.user, **board), None


def board_endpoint(view):
    """Authenticate, check the role, find the board; errors become JSON."""

    @csrf_exempt  # token clients have no CSRF cookie; session writes are checked in _authenticate
    @wraps(view)
    def wrapper(request, slug, round_number, table_number, board):
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not re.fullmatch(r"[0-9]{1,12}", length):
            return error(400, "bad_request", gettext("Content-Length 无效"))
        if int(length) > MAX_BODY:
            return error(413, "too_large", gettext("请求超过 64 KiB"))
        where = {"slug": slug, "round_number": round_number, "table_number": table_number, "board": board}
        lookup, failure = _authenticate(request, where)
        if failure:
            return failure
        if lookup.event is None:
            return error(404, "not_found", gettext("没有这个赛事"))
        remember_roles(lookup.user, lookup.event, lookup.roles)
        if not is_official(lookup.user, lookup.event):
            return error(403, "forbidden", gettext("你不是本赛事的裁判或组织者"))
        try:
            check_board(lookup.event, lookup.table, board)
            return view(request, lookup, board)
        except EntryError as failure:
            return error_response(failure)

    return wrapper


def _expected_version(request):
    value = request.META.get("HTTP_IF_MATCH")
    if value is None:
        return None
    value = value.strip().removeprefix("W/").strip('"')
    if not VERSION.fullmatch(value):
        raise EntryError("bad_version", gettext_noop("If-Match 必须是版本号"))
    return int(value)


def _body(request):
    if len(request.body) > MAX_BODY:
        raise EntryError("too_large", gettext_noop("请求超过 64 KiB"))
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as failure:
        raise EntryError("bad_json", gettext_noop("不是有效的 JSON：{detail}"), detail=str(failure)[:200]) from None
    except RecursionError:
        raise EntryError("bad_json", gettext_noop("JSON 嵌套过深")) from None
    if not isinstance(data, dict):
        raise EntryError("bad_json", gettext_noop("请求体必须是 JSON 对象"))
    # A reason keeps its own rule and code (`bad_reason`), which refuses lone surrogates too.
    return checked_strings(data, own_rules=("reason", "adjusted_reason"))


def _deal_response(deal, status=200):
    response = JsonResponse(api_view(deal), status=status)
    response["ETag"] = f'"{deal.version}"'
    return response


@board_endpoint
def deal_detail(request, lookup, board):
    if request.method == "GET":
        if lookup.deal is None:
            return error(404, "not_found", gettext("这一副还没有录入"))
        return _deal_response(lookup.deal)
    if request.method != "PUT":
        return error(405, "method_not_allowed", gettext("只支持 GET 和 PUT"))
    body = _body(request)
    reason = body.pop("reason", "")
    body.pop("ruleset", None)  # the event's rules and options apply
    body.pop("options", None)
    deal, created = deal_save(
        table=lookup.table,
        board=board,
        deal_json=body,
        user=lookup.user,
        expected_version=_expected_version(request),
        reason=reason,
        ip=client_ip(request),
        existing=lookup.deal,
    )
    return _deal_response(deal, status=201 if created else 200)


@board_endpoint
def deal_confirm_view(request, lookup, board):
    if request.method != "POST":
        return error(405, "method_not_allowed", gettext("只支持 POST"))
    if lookup.deal is None:
        return error(404, "not_found", gettext("这一副还没有录入"))
    deal = deal_confirm(
        deal=lookup.deal, user=lookup.user, expected_version=_expected_version(request), ip=client_ip(request)
    )
    return _deal_response(deal)


@board_endpoint
def deal_history_view(request, lookup, board):
    if request.method != "GET":
        return error(405, "method_not_allowed", gettext("只支持 GET"))
    return JsonResponse(history_rows(lookup.table, board), safe=False)
