"""Installing the site on a phone: the web app manifest, the service worker and its offline pages.

The worker (templates/install/sw.js) keeps the static shell and the offline pages, and nothing
else: every page carries a CSRF token, many a player's game, so pages always come from the server.
"""

import functools
import hashlib
import json

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

# site.css's light --surface (the header, so a standalone window's bar continues it) and --bg;
# templates/base.html's theme-color metas hold the same and the dark theme's.
THEME_COLOR = "#ffffff"
BACKGROUND_COLOR = "#faf6f3"
SHELL_SUFFIXES = (".css", ".js", ".svg", ".png")
ICONS = [
    ("site/icon-192.png", 192, "any"),
    ("site/icon-512.png", 512, "any"),
    ("site/icon-maskable-192.png", 192, "maskable"),
    ("site/icon-maskable-512.png", 512, "maskable"),
]


def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "id": "/",
        "name": "Heart to Heart",
        "short_name": "Hearts",
        "description": _("The daily solitaire of twenty-five hearts, with live leaderboards."),
        "lang": translation.get_language(),
        "dir": "ltr",
        "start_url": reverse("daily"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": [icon(*entry) for entry in ICONS],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


def icon(name: str, size: int, purpose: str) -> dict:
    return {"src": static(name), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}


def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root, so its scope is every page; revalidated on every update check."""
    response = HttpResponse(worker_source(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def offline(request: HttpRequest, language: str) -> HttpResponse:
    """The page the worker shows when the server cannot be reached, one per language.

    Rendered without the request: it holds no session, no user and no CSRF token, so it is
    safe to keep in the browser's cache."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    response = HttpResponse(offline_page(language))
    response["Content-Language"] = language
    response["Cache-Control"] = "no-cache"
    return response


def offline_page(language: str) -> str:
    with translation.override(language):
        return render_to_string(
            "install/offline.html",
            {
                "language": language,
                "own_path": reverse("offline", args=[language]),
                "probe": reverse("manifest"),
                "start": reverse("daily"),
            },
        )


def worker_source() -> str:
    """Rendered once where static names are hashed (production): there the files change only
    with a deployment. In development a file may change between two requests."""
    return deployed_worker() if names_are_hashed() else render_worker()


def names_are_hashed() -> bool:
    return isinstance(staticfiles_storage, ManifestFilesMixin)


@functools.cache
def deployed_worker() -> str:
    return render_worker()


def render_worker() -> str:
    files = shell_files()
    shell = [static(path) for path in files]  # as the pages name them: hashed in production
    offline_pages = {code: reverse("offline", args=[code]) for code, _name in settings.LANGUAGES}
    constants = {
        "VERSION": shell_version(files, shell, offline_pages),
        "SHELL": shell,
        "OFFLINE_PAGES": offline_pages,
        "DEFAULT_LANGUAGE": settings.LANGUAGE_CODE,
    }
    return render_to_string("install/sw.js", {"constants": constants_source(constants)})


def constants_source(constants: dict) -> str:
    return "\n".join(f"const {name} = {json.dumps(value)};" for name, value in constants.items())


def shell_files() -> list[str]:
    """The site's own static files a page loads (its styles, modules, art and icons), sorted."""
    listed = FileSystemFinder().list(apps.get_app_config("staticfiles").ignore_patterns)
    return sorted(path for path, _storage in listed if path.endswith(SHELL_SUFFIXES))


def shell_version(files: list[str], shell: list[str], offline_pages: dict[str, str]) -> str:
    """Changes with any file of the shell or an offline page: a new worker, a fresh cache.

    The contents count, not only the (in production, hashed) names: in development the names
    stay the same when a file changes."""
    digest = hashlib.sha256(json.dumps(shell).encode())
    finder = FileSystemFinder()
    for path in files:
        with open(finder.find(path), "rb") as file:
            digest.update(file.read())
    for language in offline_pages:
        digest.update(offline_page(language).encode())
    return digest.hexdigest()[:16]
