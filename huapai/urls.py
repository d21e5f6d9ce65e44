from django.contrib import admin
from django.urls import include, path, register_converter
from django.views.i18n import JavaScriptCatalog

from scoring.converters import CodeConverter, NameConverter, NumberConverter

register_converter(NumberConverter, "num")
register_converter(NameConverter, "name")
register_converter(CodeConverter, "code")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # The entry page's texts, from the same .po files (domain djangojs).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/", include("scoring.urls_api")),
    path("", include("scoring.urls_organiser")),
    path("", include("scoring.urls_referee")),
    path("", include("scoring.urls_public")),
]

# Every /api/ answer is JSON (referee-api.md), errors included; other pages get Django's.
handler400 = "scoring.views.errors.bad_request"
handler403 = "scoring.views.errors.permission_denied"
handler404 = "scoring.views.errors.page_not_found"
handler500 = "scoring.views.errors.server_error"
