"""The referee JSON API (shared/formats/referee-api.md). Views only authenticate,
parse and translate `scoring.entry` results and errors into HTTP."""

import json
from functools import wraps

from django.http import JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from scoring.entry import (
    EntryError,
    api_view,
    check_board,
    deal_confirm,
    deal_save,
    history_rows,
)
from scoring.lookups import event_table_roles, user_for_token
from scoring.models import Deal
from scoring.permissions import is_official, remember_roles

MAX_BODY = 64 * 1024


def error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def client_ip(request):
    return request.META.get("REMOTE_ADDR")


def _authenticate(request):
    """The user behind a token, or the session user (whose writes must pass CSRF)."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header:
        scheme, _, key = header.partition(" ")
        if scheme.lower() != "token" or not key.strip():
            return None, error(401, "unauthenticated", "Authorization 必须是 “Token <key>” / use Token <key>")
        user = user_for_token(key.strip())
        if user is None or not user.is_active:
            return None, error(401, "unauthenticated", "令牌无效 / invalid token")
        return user, None
    if not request.user.is_authenticated:
        return None, error(401, "unauthenticated", "需要登录或令牌 / credentials required")
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
        if rejected is not None:
            return None, error(403, "csrf", "CSRF 校验失败 / CSRF check failed")
    return request.user, None


def board_endpoint(view):
    """Authenticate, check the role, find the board; errors become JSON."""

    @csrf_exempt  # token clients have no CSRF cookie; session writes are checked in _authenticate
    @wraps(view)
    def wrapper(request, slug, round_number, table_number, board):
        length = request.META.get("CONTENT_LENGTH") or "0"
        if length.isdigit() and int(length) > MAX_BODY:
            return error(413, "too_large", "请求超过 64 KiB / request larger than 64 KiB")
        user, failure = _authenticate(request)
        if failure:
            return failure
        event, table, roles = event_table_roles(user, slug, round_number, table_number)
        if event is None:
            return error(404, "not_found", "没有这个赛事 / no such event")
        remember_roles(user, event, roles)
        if not is_official(user, event):
            return error(403, "forbidden", "你不是本赛事的裁判或组织者 / no role on this event")
        try:
            table, board_number = check_board(event, table, board)
            return view(request, event, table, board_number, user)
        except EntryError as failure:
            return JsonResponse(failure.as_json(), status=failure.status)

    return wrapper


def _expected_version(request):
    value = request.META.get("HTTP_IF_MATCH")
    if value is None:
        return None
    value = value.strip().strip('"').removeprefix("W/").strip('"')
    if not value.isdigit():
        raise EntryError(412, "stale_version", "If-Match 必须是版本号 / If-Match must be a version number")
    return int(value)


def _body(request):
    if len(request.body) > MAX_BODY:
        raise EntryError(413, "too_large", "请求超过 64 KiB / request larger than 64 KiB")
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as failure:
        raise EntryError(400, "bad_json", f"不是有效的 JSON / not valid JSON: {failure}") from None
    if not isinstance(data, dict):
        raise EntryError(400, "bad_json", "请求体必须是 JSON 对象 / the body must be a JSON object")
    return data


def _deal_response(deal, status=200):
    response = JsonResponse(api_view(deal), status=status)
    response["ETag"] = f'"{deal.version}"'
    return response


@board_endpoint
def deal_detail(request, event, table, board, user):
    if request.method == "GET":
        found = Deal.objects.select_related("entered_by", "confirmed_by").filter(table=table, board=board)
        deal = found.order_by().first()
        if deal is None:
            return error(404, "not_found", "这一副还没有录入 / nothing entered yet")
        return _deal_response(deal)
    if request.method != "PUT":
        return error(405, "method_not_allowed", "只支持 GET 和 PUT / use GET or PUT")
    body = _body(request)
    reason = body.pop("reason", "") or ""
    if not isinstance(reason, str):
        raise EntryError(400, "bad_json", "reason 必须是文字 / reason must be a string")
    body.pop("ruleset", None)  # the event's rules apply
    deal, created = deal_save(
        table=table,
        board=board,
        deal_json=body,
        user=user,
        expected_version=_expected_version(request),
        reason=reason,
        ip=client_ip(request),
    )
    return _deal_response(deal, status=201 if created else 200)


@board_endpoint
def deal_confirm_view(request, event, table, board, user):
    if request.method != "POST":
        return error(405, "method_not_allowed", "只支持 POST / use POST")
    deal = Deal.objects.select_related("entered_by", "confirmed_by").filter(table=table, board=board).first()
    if deal is None:
        return error(404, "not_found", "这一副还没有录入 / nothing entered yet")
    deal = deal_confirm(deal=deal, user=user, expected_version=_expected_version(request), ip=client_ip(request))
    return _deal_response(deal)


@board_endpoint
def deal_history_view(request, event, table, board, user):
    if request.method != "GET":
        return error(405, "method_not_allowed", "只支持 GET / use GET")
    return JsonResponse(history_rows(table, board), safe=False)
