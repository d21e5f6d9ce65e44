"""Error pages: JSON error objects under /api/ (referee-api.md), Django's pages elsewhere."""

from django.views import defaults

from scoring.views.api import error

API_PREFIX = "/api/"


def bad_request(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(400, "bad_request", "请求无效 / bad request")
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(403, "forbidden", "没有权限 / forbidden")
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(404, "not_found", "没有这个地址 / not found")
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith(API_PREFIX):
        return error(500, "server_error", "服务器错误，已记录 / server error, logged")
    return defaults.server_error(request)
