"""The board's pure helpers, imported as ES modules into a real page and checked there."""

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture
def page(open_page):
    return open_page("ana", "/play/HH1-N-AAAAAAM/").page


def run(page, module: str, body: str):
    """Evaluate `body` (an expression using `m`, the module) in the page."""
    return page.evaluate(
        f"async () => {{ const m = await import('/static/{module}'); return {body}; }}"
    )


def test_backoff_grows_exponentially_with_jitter_and_a_cap(page):
    low = run(page, "socket/socket.js", "[0, 1, 2, 3, 10].map(n => m.backoff(n, () => 0))")
    high = run(page, "socket/socket.js", "[0, 1, 2, 3, 10].map(n => m.backoff(n, () => 1))")
    assert low == [250, 500, 1000, 2000, 7500]
    assert high == [500, 1000, 2000, 4000, 15000]


def test_a_socket_reconnects_at_once_when_the_network_comes_back(page):
    calls = run(
        page,
        "socket/socket.js",
        """(() => {
            const socket = { calls: 0, reconnectNow() { this.calls += 1; } };
            m.reconnectWhenBack(socket);
            window.dispatchEvent(new Event("online"));
            return socket.calls;
        })()""",
    )
    assert calls == 1


def test_arrow_keys_move_between_neighbours_of_the_heart_the_page_lays_out(page):
    moves = run(
        page,
        "board/layout.js",
        """(() => {
          const sent = document.getElementById("h2h-layout").textContent;
          const layout = m.createLayout(JSON.parse(sent));
          const all = [...layout.spots.keys()];
          const neighbour = (...args) => m.neighbour(layout, ...args);
          return {
            tipLeft: neighbour(25, "ArrowLeft", all),
            tipRight: neighbour(25, "ArrowRight", all),
            tipUp: neighbour(25, "ArrowUp", all),
            oneRight: neighbour(1, "ArrowRight", all),
            oneDown: neighbour(1, "ArrowDown", all),
            fourRight: neighbour(4, "ArrowRight", all),
            stockUp: neighbour("stock", "ArrowUp", all),
            onlyTip: neighbour(1, "ArrowDown", [25]),
          };
        })()""",
    )
    assert moves == {
        "tipLeft": "stock",
        "tipRight": "waste",
        "tipUp": 23,
        "oneRight": 2,
        "oneDown": 5,
        "fourRight": 10,
        "stockUp": 23,
        "onlyTip": 25,
    }


def test_times_read_as_minutes_and_seconds_then_hours(page):
    texts = run(page, "board/state.js", "[0, 59999, 61000, 3600000 + 62000].map(m.formatTime)")
    assert texts == ["0:00", "0:59", "1:01", "1:01:02"]


def test_the_clock_corrects_for_the_devices_skew_and_stops_at_the_result(page):
    times = run(
        page,
        "board/state.js",
        """(() => {
          const game = {started_at: "2026-01-01T10:00:00Z", server_now: "2026-01-01T10:05:00Z"};
          const localNow = Date.parse("2026-01-01T07:00:00Z");  // this device is 3 h slow
          const state = {game, skewMs: m.clockSkew(game, localNow)};
          const running = m.elapsedMs(state, localNow + 1000);
          state.game = {...game, result: {duration_ms: 1234}};
          return [running, m.elapsedMs(state, localNow + 99000)];
        })()""",
    )
    assert times == [301000, 1234]


def test_darkening_keeps_cards_of_the_selected_rank_and_needs_placement_help(page):
    dims = run(
        page,
        "board/state.js",
        """(() => {
          const heart = Array.from({length: 25}, (_, i) => ({rank: i % 13 + 1, free: i > 22}));
          const view = {heart, waste: {top: 12, size: 1}, selected: 25, hints: []};
          const on = {view, settings: {placementHelp: true}};
          const off = {view, settings: {placementHelp: false}};
          return {
            same: m.isDimmed(on, 12), other: m.isDimmed(on, 1), waste: m.isDimmed(on, "waste"),
            self: m.isDimmed(on, 25), off: m.isDimmed(off, 1),
          };
        })()""",
    )
    assert dims == {"same": False, "other": True, "waste": False, "self": False, "off": False}
