"""Error pages: JSON error objects under /api/ (referee-api.md), Django's pages elsewhere."""

from django.utils.translation import gettext
from django.views import defaults

from scoring.web.api.views import error

API_PREFIX = "/api/"


def bad_request(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(400, "bad_request", gettext("请求无效"))
    return defaults.bad_request(request, exception)


def permission_denied(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(403, "forbidden", gettext("没有权限"))
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return error(404, "not_found", gettext("没有这个地址"))
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith(API_PREFIX):
        return error(500, "server_error", gettext("服务器错误，已记录"))
    return defaults.server_error(request)
