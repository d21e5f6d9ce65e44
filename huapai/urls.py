from django.contrib import admin
from django.urls import include, path, register_converter

from scoring.web.catalog import javascript_catalog, unversioned_catalog
from scoring.web.converters import CodeConverter, NameConverter, NumberConverter, TokenConverter
from scoring.web.public.views import favicon

register_converter(NumberConverter, "num")
register_converter(NameConverter, "name")
register_converter(CodeConverter, "code")
register_converter(TokenConverter, "token")

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page links; the icon is the SVG in static/.
    path("favicon.ico", favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    # The entry pages' script texts, from the same .po files (domain djangojs), at an address
    # naming the language and the content (scoring/web/catalog.py).
    path("jsi18n/<str:language>/<str:digest>.js", javascript_catalog, name="javascript-catalog"),
    path("jsi18n/", unversioned_catalog),
    path("api/", include("scoring.web.api.urls")),
    path("", include("scoring.web.table.urls")),
    path("", include("scoring.web.organiser.urls")),
    path("", include("scoring.web.referee.urls")),
    path("", include("scoring.web.public.urls")),
]

# Every /api/ answer is JSON (referee-api.md), errors included; other pages get Django's.
handler400 = "scoring.web.errors.bad_request"
handler403 = "scoring.web.errors.permission_denied"
handler404 = "scoring.web.errors.page_not_found"
handler500 = "scoring.web.errors.server_error"
