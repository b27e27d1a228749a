// The board's plain state: what it derives from the server's view, and the saved settings.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applyFrame,
  awaitingStart,
  clockSkew,
  createState,
  elapsedMs,
  formatTime,
  isDimmed,
  isHinted,
  isPlayable,
  loadSettings,
  rankAt,
  saveSettings,
} from "../../static/board/state.js";

const heart = Array.from({ length: 25 }, (_, i) => ({ rank: (i % 13) + 1, free: i > 22 }));

function memoryStorage(text) {
  const items = new Map(text === undefined ? [] : [["h2h.settings", text]]);
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v), items };
}

test("times read as minutes and seconds, then hours", () => {
  assert.deepEqual([0, 59999, 61000, 3600000 + 62000].map(formatTime), ["0:00", "0:59", "1:01", "1:01:02"]);
});

test("the clock corrects for the device's skew and stops at the result", () => {
  const game = { started_at: "2026-01-01T10:00:00Z", server_now: "2026-01-01T10:05:00Z" };
  const localNow = Date.parse("2026-01-01T07:00:00Z"); // this device is 3 h slow
  const state = { game, skewMs: clockSkew(game, localNow) };
  assert.equal(elapsedMs(state, localNow + 1000), 301000);
  state.game = { ...game, result: { duration_ms: 1234 } };
  assert.equal(elapsedMs(state, localNow + 99000), 1234);
});

test("the clock leaves out the servers' outages inside the game, and only those", () => {
  const game = { started_at: "2026-01-01T10:00:00Z", server_now: "2026-01-01T10:05:00Z", paused_ms: 13000 };
  const localNow = Date.parse("2026-01-01T10:05:00Z");
  const state = { game, skewMs: clockSkew(game, localNow) };
  assert.equal(elapsedMs(state, localNow + 1000), 301000 - 13000);
  state.game = { ...game, finished_at: "2026-01-01T10:06:00Z" };
  assert.equal(elapsedMs(state, localNow + 99000), 360000 - 13000);
  state.game = { ...game, result: { duration_ms: 1234 } };
  assert.equal(elapsedMs(state, localNow), 1234); // the result's time has them left out already
});

test("a game not started yet shows no time", () => {
  assert.equal(elapsedMs({ game: { started_at: null }, skewMs: 0 }), 0);
});

test("darkening keeps cards of the selected rank and needs placement help", () => {
  const view = { heart, waste: { top: 12, size: 1 }, selected: 25, hints: [] };
  const on = { view, settings: { placementHelp: true } };
  assert.equal(isDimmed(on, 12), false);
  assert.equal(isDimmed(on, 1), true);
  assert.equal(isDimmed(on, "waste"), false);
  assert.equal(isDimmed(on, 25), false);
  assert.equal(isDimmed({ view, settings: { placementHelp: false } }, 1), false);
});

test("hints show only with placement help", () => {
  const view = { heart, hints: [24, 25] };
  assert.equal(isHinted({ view, settings: { placementHelp: true } }, 25), true);
  assert.equal(isHinted({ view, settings: { placementHelp: false } }, 25), false);
});

test("a rank is read from the heart or the waste, and there is none before the start", () => {
  const view = { heart, waste: { top: 7, size: 3 } };
  assert.equal(rankAt(view, 14), 1);
  assert.equal(rankAt(view, "waste"), 7);
  assert.equal(rankAt({ heart: null }, 3), null);
  assert.equal(rankAt(view, "stock"), null);
});

test("a frame replaces the view, keeps the one before and merges the game", () => {
  const state = { view: { score: 0 }, game: { id: 4, status: "open", last_seq: 1 } };
  applyFrame(state, { view: { score: 20 }, event: "pair", game: { last_seq: 3 } });
  assert.deepEqual(state.previous, { score: 0 });
  assert.equal(state.event, "pair");
  assert.deepEqual(state.game, { id: 4, status: "open", last_seq: 3 });
});

test("only an online open game that has started is playable", () => {
  const state = { online: true, view: { won: false }, game: { status: "open" } };
  assert.equal(isPlayable(state), true);
  assert.equal(isPlayable({ ...state, online: false }), false);
  assert.equal(isPlayable({ ...state, game: { status: "resigned" } }), false);
  const waiting = { ...state, game: { status: "open", awaiting_start: true } };
  assert.equal(awaitingStart(waiting), true);
  assert.equal(isPlayable(waiting), false);
});

test("settings fall back to the defaults when nothing or garbage is saved", () => {
  assert.deepEqual(loadSettings(memoryStorage()), { moveErrors: false, placementHelp: true });
  assert.deepEqual(loadSettings(memoryStorage("{oops")), { moveErrors: false, placementHelp: true });
  const storage = memoryStorage();
  saveSettings({ moveErrors: true, placementHelp: false }, storage);
  assert.deepEqual(loadSettings(storage), { moveErrors: true, placementHelp: false });
});

test("a new state starts offline with the server's view and game", () => {
  const state = createState({ code: "HH1-N-AAAAAAC" }, { status: "open" });
  assert.equal(state.online, false);
  assert.equal(state.view.code, "HH1-N-AAAAAAC");
});
