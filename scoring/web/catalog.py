"""The pages' texts for their scripts (Django's JavaScriptCatalog, domain djangojs, from the same
.po files) at an address that names the language and the catalogue's own content:
/jsi18n/<language>/<digest>.js.

At one address for both languages, /jsi18n/, the table page's service worker kept the first
catalogue it fetched, cache first: a player who switched to English kept the Chinese texts of the
scripts, and a release's new texts were never fetched. Named by its content, the catalogue is
kept by browsers and by the service worker for a year, like the static files, and is built once
per process and language rather than on every entry page.

Not a cache of results (those are `scoring.cache`'s): the catalogue changes only with a release.
"""

import functools
import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
A_YEAR = 365 * 24 * 3600


@functools.cache
def catalogue(language):
    """(digest, the script's bytes) of `language`'s catalogue, built once per process."""
    request = HttpRequest()  # the view reads only the active language, not its request
    request.method = "GET"
    with translation.override(language):
        body = JavaScriptCatalog.as_view()(request).content
    return hashlib.sha256(body).hexdigest()[:12], body


def page_language():
    """The language the page is drawn in, as one of settings.LANGUAGES."""
    language = translation.get_language()
    return language if language in LANGUAGE_CODES else settings.LANGUAGE_CODE


def catalogue_url(language=None):
    """The address of the catalogue in `language` (the page's by default)."""
    language = language or page_language()
    digest, _body = catalogue(language)
    return reverse("javascript-catalog", args=[language, digest])


def javascript_catalog(request, language, digest):
    if language not in LANGUAGE_CODES:
        raise Http404("no such language")
    current, body = catalogue(language)
    if digest != current:  # the address of an earlier release, kept by a page loaded before it
        return redirect(catalogue_url(language))
    response = HttpResponse(body, content_type='text/javascript; charset="utf-8"')
    patch_cache_control(response, public=True, max_age=A_YEAR, immutable=True)
    return response


def unversioned_catalog(request):
    """/jsi18n/, which pages loaded before the catalogue had its own address still name."""
    return redirect(catalogue_url())
