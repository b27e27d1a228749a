"""Installing the site: the manifest every page links, the service worker at the site's root and
the offline pages it keeps (the worker's behaviour in a browser: tests/e2e/test_install.py)."""

import json
import re
import struct

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

from game.web import install

pytestmark = pytest.mark.django_db

SITE_CSS = settings.BASE_DIR / "static" / "site" / "site.css"
PAGES = ["/", "/accounts/login/", "/leaderboard/daily/", "/leaderboard/all-time/"]


def png(url: str) -> tuple[int, int, int]:
    """(width, height, colour type) of the PNG a static URL names."""
    path = finders.find(url.removeprefix("/static/"))
    with open(path, "rb") as file:
        head = file.read(26)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height, head[25]


def css_colour(name: str, dark: bool = False) -> str:
    """A custom property of site.css: the light theme's, or the dark one's."""
    css = SITE_CSS.read_text()
    block = css.split("@media (prefers-color-scheme: dark)", 1)[1 if dark else 0]
    return re.search(rf"{name}:\s*(#[0-9a-f]+)", block)[1]


def worker_constants(source: str) -> dict:
    return {
        name: json.loads(value)
        for name, value in re.findall(r"^const ([A-Z_]+) = (.*);$", source, re.MULTILINE)
        if not value.startswith(("`", "new "))
    }


def test_the_manifest_is_served_as_a_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Heart to Heart" and manifest["short_name"] == "Hearts"
    assert manifest["start_url"] == "/daily/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"


def test_the_manifests_icons_are_pngs_of_their_sizes_with_a_full_bleed_maskable_one(client):
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    kinds = set()
    for icon in icons:
        width, height, colour_type = png(icon["src"])
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        if icon["purpose"] == "maskable":
            assert colour_type == 2, "a maskable icon is opaque to its edges (RGB, no alpha)"
        kinds.add((width, icon["purpose"]))
    assert kinds == {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")}


def test_the_manifests_colours_are_the_light_themes(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["theme_color"] == css_colour("--surface")
    assert manifest["background_color"] == css_colour("--bg")


def test_the_manifest_speaks_the_visitors_language(client):
    response = client.get("/manifest.webmanifest", headers={"accept-language": "ms"})
    manifest = json.loads(response.content)
    assert manifest["lang"] == "ms" and manifest["description"].startswith("Solitaire harian")


@pytest.mark.parametrize("url", PAGES)
def test_every_page_links_the_manifest_registers_the_worker_and_colours_the_bar(client, url):
    content = client.get(url).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in content
    assert re.search(
        r'<script type="module" src="/static/site/install.js" '
        r'data-service-worker="/sw.js">',
        content,
    )
    light = css_colour("--surface")
    dark = css_colour("--surface", dark=True)
    assert f'content="{light}" media="(prefers-color-scheme: light)"' in content
    assert f'content="{dark}" media="(prefers-color-scheme: dark)"' in content


def test_the_worker_is_served_from_the_root_as_javascript_and_revalidated_each_time(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"


def test_the_worker_keeps_every_style_module_and_icon_and_both_offline_pages_only(client):
    constants = worker_constants(client.get("/sw.js").content.decode())
    shell = constants["SHELL"]
    for expected in [
        "site/site.css",
        "board/board.css",
        "pages/pages.css",
        "boards/boards.css",
        "pages/play.js",
        "board/board.js",
        "boards/boards.js",
        "site/offline.js",
        "site/icon-512.png",
    ]:
        assert f"/static/{expected}" in shell
    assert all(url.startswith("/static/") for url in shell)
    assert constants["OFFLINE_PAGES"] == {"ms": "/offline/ms/", "en": "/offline/en/"}
    assert constants["DEFAULT_LANGUAGE"] == settings.LANGUAGE_CODE


def test_the_workers_version_changes_with_any_file_of_the_shell(client, settings, tmp_path):
    (tmp_path / "site.css").write_text("body { color: red; }")
    settings.STATICFILES_DIRS = [tmp_path]
    before = worker_constants(client.get("/sw.js").content.decode())
    (tmp_path / "site.css").write_text("body { color: blue; }")
    after = worker_constants(client.get("/sw.js").content.decode())
    assert before["SHELL"] == after["SHELL"] == ["/static/site.css"]
    assert before["VERSION"] != after["VERSION"]


def test_a_file_moved_to_another_folder_is_a_new_shell_and_version(client, settings, tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "board.js").write_text("export {};")
    settings.STATICFILES_DIRS = [tmp_path]
    before = worker_constants(client.get("/sw.js").content.decode())
    (tmp_path / "board").mkdir()
    (tmp_path / "game" / "board.js").rename(tmp_path / "board" / "board.js")
    after = worker_constants(client.get("/sw.js").content.decode())
    assert before["SHELL"] == ["/static/game/board.js"]
    assert after["SHELL"] == ["/static/board/board.js"]
    assert before["VERSION"] != after["VERSION"]  # the old name leaves with the old cache


def test_where_static_names_are_hashed_the_worker_is_rendered_once(monkeypatch):
    monkeypatch.setattr(install, "names_are_hashed", lambda: True)
    install.deployed_worker.cache_clear()
    renders = []
    monkeypatch.setattr(install, "render_worker", lambda: renders.append(1) or "worker")
    assert install.worker_source() == install.worker_source() == "worker"
    assert renders == [1]
    install.deployed_worker.cache_clear()


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "The server cannot be reached"), ("ms", "Pelayan tidak dapat dihubungi")],
)
def test_the_offline_page_says_the_game_needs_the_server_in_each_language(client, language, title):
    response = client.get(f"/offline/{language}/")
    content = response.content.decode()
    assert response.status_code == 200 and response["Content-Language"] == language
    assert f'<html lang="{language}">' in content and title in content
    assert 'src="/static/site/offline.js"' in content and "data-retry" in content


def test_the_offline_page_carries_nothing_of_the_visitor(client, player):
    client.force_login(player)
    response = client.get("/offline/en/")
    content = response.content.decode()
    assert "csrfmiddlewaretoken" not in content and "Ann" not in content
    assert not response.cookies


def test_an_offline_page_in_a_language_the_site_does_not_speak_is_not_found(client):
    assert client.get("/offline/fr/").status_code == 404
