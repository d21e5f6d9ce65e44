"""Error pages: JSON error objects under /api/ (referee-api.md), Django's pages elsewhere."""

from django.http import JsonResponse
from django.views import defaults

API_PREFIX = "/api/"


def _api_error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def bad_request(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return _api_error(400, "bad_request", "请求无效 / bad request")
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return _api_error(403, "forbidden", "没有权限 / forbidden")
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return _api_error(404, "not_found", "没有这个地址 / not found")
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith(API_PREFIX):
        return _api_error(500, "server_error", "服务器错误，已记录 / server error, logged")
    return defaults.server_error(request)
