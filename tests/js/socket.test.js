// The socket's retry policy and its reconnecting, numbered connection, on a fake WebSocket.
import assert from "node:assert/strict";
import { beforeEach, mock, test } from "node:test";

import { backoff, closeNotice, Connection, retryAfter } from "../../static/socket/socket.js";

class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  frame(data) {
    this.onmessage({ data: JSON.stringify(data) });
  }
  closeWith(code) {
    this.readyState = 3;
    this.onclose({ code });
  }
}

let timers;
beforeEach(() => {
  FakeSocket.made = [];
  timers = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "https:", host: "example.test" };
  mock.method(globalThis, "setTimeout", (callback, ms) => timers.push({ callback, ms }));
});

function connection(options = {}) {
  const statuses = [];
  const frames = [];
  const conn = new Connection("/ws/play/HH1-N-AAAAAAC/", {
    onFrame: (frame) => frames.push(frame),
    onStatus: (...status) => statuses.push(status),
    ...options,
  });
  conn.open();
  return { conn, statuses, frames, ws: () => FakeSocket.made.at(-1) };
}

test("backoff grows exponentially with jitter and a cap", () => {
  assert.deepEqual([0, 1, 2, 3, 10].map((n) => backoff(n, () => 0)), [250, 500, 1000, 2000, 7500]);
  assert.deepEqual([0, 1, 2, 3, 10].map((n) => backoff(n, () => 1)), [500, 1000, 2000, 4000, 15000]);
});

test("a login, permission or not-found refusal is final", () => {
  for (const code of [4001, 4003, 4004]) assert.deepEqual(retryAfter(code, 0), { final: true });
});

test("too many sockets waits at least 15 s and up to 5 minutes, never the fast backoff", () => {
  assert.equal(retryAfter(4009, 0, () => 0).delayMs, 15000);
  assert.equal(retryAfter(4009, 20, () => 1).delayMs, 300000);
  assert.ok(retryAfter(4009, 0, () => 0).delayMs >= retryAfter(1006, 9, () => 1).delayMs);
});

test("a dropped or flooding socket retries with the ordinary backoff", () => {
  assert.equal(retryAfter(1006, 0, () => 1).delayMs, 500);
  assert.equal(retryAfter(4008, 1, () => 1).delayMs, 1000);
});

test("the notice is the server's reason when it gave one, else a word for the code", () => {
  assert.equal(closeNotice(4003, "The race is running.", true), "The race is running.");
  assert.equal(closeNotice(4001, undefined, true), "Logged out: log in again to play.");
  assert.match(closeNotice(4004, null, true), /reload/);
  assert.equal(closeNotice(1006, "bad_target text", false), null);
});

test("the socket connects to the page's host, over wss on https", () => {
  const { ws } = connection();
  assert.equal(ws().url, "wss://example.test/ws/play/HH1-N-AAAAAAC/");
});

test("a refusal is final: no retry, and the player is told the server's reason", () => {
  const { statuses, ws } = connection();
  ws().frame({ type: "error", error: "race_running", message: "The race is running." });
  ws().closeWith(4003);
  assert.deepEqual(statuses, [[false, 4003, { final: true, text: "The race is running." }]]);
  assert.equal(timers.length, 0);
});

test("a socket refused as too many keeps backing off longer: opening does not reset it", () => {
  const { ws } = connection();
  for (let i = 0; i < 4; i += 1) {
    ws().frame({ type: "error", error: "too_many_sockets", message: "Too many." });
    ws().closeWith(4009);
    timers.at(-1).callback();
  }
  const delays = timers.map((t) => t.ms);
  assert.ok(delays.every((ms) => ms >= 15000), delays.join());
  assert.ok(delays[3] >= 120000, delays.join());
});

test("coming back to the tab does not reconnect a socket refused as too many", () => {
  const { conn, ws } = connection();
  ws().closeWith(4009);
  conn.reconnectNow();
  assert.equal(FakeSocket.made.length, 1);
});

test("the snapshot after a reconnect resets the backoff", () => {
  const { conn, statuses, ws } = connection();
  ws().closeWith(1006);
  timers.at(-1).callback();
  ws().frame({ type: "state", view: {}, game: { last_seq: 0 } });
  assert.equal(conn.attempts, 0);
  assert.deepEqual(statuses.at(-1), [true]);
});

test("a numbered message is resent once after a reconnect with its seq", () => {
  const { conn, ws } = connection({ numbered: true });
  ws().frame({ type: "state", view: {}, game: { last_seq: 6 } });
  assert.equal(conn.send({ type: "tap", target: "stock" }), 7);
  ws().closeWith(1006);
  timers.at(-1).callback();
  ws().frame({ type: "state", view: {}, game: { last_seq: 6 } });
  assert.deepEqual(ws().sent, [{ type: "tap", target: "stock", seq: 7 }]);
  ws().frame({ type: "state", seq: 7, view: {}, game: { last_seq: 7 } });
  assert.equal(conn.unacked.size, 0);
  assert.equal(conn.send({ type: "undo" }), 8);
});

test("an unnumbered socket sends only while open and adds no seq", () => {
  const { conn, ws } = connection();
  assert.equal(conn.send({ type: "sync" }), true);
  assert.deepEqual(ws().sent, [{ type: "sync" }]);
  ws().closeWith(1006);
  assert.equal(conn.send({ type: "sync" }), false);
});

/** A connection on a play socket, greeted at `last_seq` 6, and one tap sent: seq 7. */
function tapped() {
  const made = connection({ numbered: true });
  made.ws().frame({ type: "state", view: {}, game: { last_seq: 6 } });
  made.conn.send({ type: "tap", target: "stock" });
  return made;
}

const notStored = (seq) => ({ type: "error", seq, error: "storage_unavailable", message: "..." });

test("a move not stored is sent again with its seq after a back-off, and the page says why", () => {
  const { conn, statuses, ws } = tapped();
  ws().frame(notStored(7));
  assert.deepEqual(statuses.at(-1), [false, null, { final: false, text: "Connection trouble — retrying…" }]);
  assert.ok(conn.unacked.has(7) && timers.length === 1);
  assert.ok(timers[0].ms >= 250 && timers[0].ms <= 500, String(timers[0].ms));
  timers[0].callback();
  assert.deepEqual(ws().sent.map((m) => m.seq), [7, 7]);
  ws().frame({ type: "state", seq: 7, view: {}, game: { last_seq: 7 } });
  assert.equal(conn.unacked.size, 0);
  assert.deepEqual(statuses.at(-1), [true]);
  assert.equal(FakeSocket.made.length, 1); // the same socket throughout
});

test("the resends back off, one frame at a time, and never outrun the socket's bucket", () => {
  const { ws } = tapped();
  let now = 0;
  const sentAt = [];
  for (let i = 0; i < 60; i += 1) {
    ws().frame(notStored(7));
    now += timers.at(-1).ms;
    timers.at(-1).callback();
    sentAt.push(now);
  }
  const delays = timers.map((t) => t.ms);
  assert.ok(delays.every((ms) => ms >= 250 && ms <= 5000), delays.join());
  assert.ok(delays.slice(8).every((ms) => ms >= 2500), delays.join());
  assert.equal(ws().sent.length, 61); // the first send and one a resend
  // The server's bucket (game/sockets/ratelimit.py): bursts of 20, refilled at 10 a second.
  let tokens = 20;
  let at = 0;
  for (const t of sentAt) {
    tokens = Math.min(20, tokens + ((t - at) / 1000) * 10) - 1;
    at = t;
    assert.ok(tokens >= 0, `refused at ${t} ms`);
  }
});

test("while moves are not stored, new ones wait their turn and go in order", () => {
  const { conn, statuses, ws } = tapped();
  ws().frame(notStored(7));
  assert.equal(conn.send({ type: "undo" }), 8);
  assert.deepEqual(ws().sent.map((m) => m.seq), [7]); // held
  timers.at(-1).callback();
  assert.deepEqual(ws().sent.map((m) => m.seq), [7, 7]); // the first alone
  ws().frame({ type: "state", seq: 7, view: {}, game: { last_seq: 7 } });
  assert.deepEqual(ws().sent.map((m) => m.seq), [7, 7, 8]); // then the next, at once
  assert.notDeepEqual(statuses.at(-1), [true]);
  ws().frame({ type: "state", seq: 8, view: {}, game: { last_seq: 8 } });
  assert.deepEqual(statuses.at(-1), [true]);
});

test("a move found stored after all (duplicate_seq) ends the trouble", () => {
  const { conn, statuses, ws } = tapped();
  ws().frame(notStored(7));
  timers.at(-1).callback();
  ws().frame({ type: "error", seq: 7, error: "duplicate_seq", message: "..." });
  assert.equal(conn.unacked.size, 0);
  assert.deepEqual(statuses.at(-1), [true]);
});

test("a socket closed while moves wait resends them once, after the reconnect's greeting", () => {
  const { conn, ws } = tapped();
  ws().frame(notStored(7));
  const waiting = timers.at(-1);
  ws().closeWith(4500);
  assert.ok(timers.at(-1).ms <= 500); // 4500 (server_error): reconnect as after any drop
  timers.at(-1).callback();
  waiting.callback(); // the old wait, if it ever ran, sends nothing on the new socket
  ws().frame({ type: "state", view: {}, game: { last_seq: 6 } });
  assert.deepEqual(ws().sent.map((m) => m.seq), [7]);
  assert.equal(conn.unacked.size, 1);
});

test("live updates paused asks again within a few seconds and says why", () => {
  assert.equal(retryAfter(4013, 0, () => 0).delayMs, 500);
  assert.equal(retryAfter(4013, 20, () => 1).delayMs, 3000);
  const said = "Live updates are paused: reconnecting shortly.";
  assert.equal(closeNotice(4013, said, false), said);
  assert.equal(closeNotice(4013, undefined, false), "Live updates paused: reconnecting…");
  const { statuses, ws } = connection();
  ws().frame({ type: "error", error: "live_paused", message: "Live updates are paused." });
  ws().closeWith(4013);
  assert.deepEqual(statuses.at(-1), [false, 4013, { final: false, text: "Live updates are paused." }]);
  assert.ok(timers.at(-1).ms <= 1000);
});
