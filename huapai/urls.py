from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("scoring.urls_api")),
    path("", include("scoring.urls_referee")),
    path("", include("scoring.urls_public")),
]
