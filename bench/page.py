"""The play page's weight and speed in Debian's Chromium, on a production-like loopback server.

    .venv/bin/python -m bench.page            # 20 loads
    .venv/bin/python -m bench.page --loads 50

Prints JSON: `js_css_bytes` (the play page's own JS + CSS: its stylesheet and module graph as
templates/game/play.html loads them, uncompressed),
`gzip_bytes` (the same, gzipped one file at a time), and the milliseconds from navigation start
to an interactive board — the moment the board sets `data-ready` after the server's first state
frame (`performance.mark("h2h-ready")`) — as a median over the loads (warm cache, after one
untimed cold load, which is reported separately).
"""

import argparse
import gzip
import json
import re
import statistics
import tempfile
from pathlib import Path

from tests.harness.server import Server, free_port, make_players, manage, server_env

ROOT = Path(__file__).resolve().parent.parent
PLAY_PAGE = ROOT / "templates" / "game" / "play.html"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
CODE = "HH1-N-AAAAAAM"


def board_files() -> list[Path]:
    """The board's stylesheet, the play page's module and every module it preloads (its graph)."""
    named = r"(?:static_prefix }}|static ')([\w/.-]+\.(?:js|css))"
    loaded = re.findall(named, PLAY_PAGE.read_text())
    return sorted(ROOT / "static" / name for name in set(loaded))


def board_bytes() -> dict:
    files = board_files()
    return {
        "js_css_bytes": sum(p.stat().st_size for p in files),
        "gzip_bytes": sum(len(gzip.compress(p.read_bytes())) for p in files),
        "files": len(files),
    }


def ready_ms(page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("#board[data-ready]")
    return page.evaluate("performance.getEntriesByName('h2h-ready')[0].startTime")


def measure(server: Server, sessionid: str, loads: int) -> dict:
    from playwright.sync_api import sync_playwright

    url = f"{server.origin}/play/{CODE}/"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        cookie = {"name": "sessionid", "value": sessionid, "url": server.origin}
        context.add_cookies([cookie])
        page = context.new_page()
        cold = ready_ms(page, url)
        times = [ready_ms(page, url) for _ in range(loads)]
        browser.close()
    return {
        "loads": loads,
        "ready_median_ms": round(statistics.median(times), 1),
        "ready_p90_ms": round(statistics.quantiles(times, n=10)[-1], 1),
        "ready_min_ms": round(min(times), 1),
        "ready_max_ms": round(max(times), 1),
        "ready_cold_ms": round(cold, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(sqlite_path=str(Path(tmp) / "db.sqlite3"))
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "compilemessages", "--ignore=.venv")
        sessionid = make_players(env, 1, prefix="pagebench")[0]["sessionid"]
        with Server(env, port=free_port()) as server:
            figures = measure(server, sessionid, args.loads)
    print(json.dumps({**board_bytes(), **figures}, indent=2))


if __name__ == "__main__":
    main()
