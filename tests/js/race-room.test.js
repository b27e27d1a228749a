// A race room's state from its socket's frames: the server's order, places and winner.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applyProgress,
  applyRoom,
  boardCode,
  buttonsFor,
  countdownText,
  createRoom,
  statusText,
} from "../../static/pages/race-room.js";

const LABELS = {
  lobby: "Waiting", racing: "Race on!", winner: "%(name)s cleared the heart first!",
  stuck_you: "No more moves", finished: "The race is over.", go: "Go!",
};
const NOW = Date.parse("2026-01-01T10:00:00Z");

function entry(player, name, fields = {}) {
  return {
    player, name, ready: false, status: "playing", state: "playing", game: player * 10,
    heart_left: 25, score: 0, moves: 0, stuck: false, duration_ms: null, place: player, ...fields,
  };
}

function room(fields = {}) {
  return {
    version: 5, status: "running", started: true, code: "HH1-N-AAAAAAC", max: 8, me: 1,
    server_now: "2026-01-01T10:00:00Z", starts_at: "2026-01-01T09:59:00Z", winner: null,
    order: ["-score", "duration_ms", "moves"],
    entries: [entry(1, "Ann"), entry(2, "Bea")],
    ...fields,
  };
}

test("an older room frame than the one shown is ignored", () => {
  const race = createRoom(room(), 1, NOW);
  assert.equal(applyRoom(race, room({ version: 4, status: "lobby" }), NOW), false);
  assert.equal(race.room.status, "running");
  assert.equal(applyRoom(race, room({ version: 6, status: "finished" }), NOW), true);
  assert.equal(race.room.status, "finished");
});

test("progress re-sorts the table by the order the server sent, a running time last", () => {
  const race = createRoom(room(), 1, NOW);
  applyProgress(race, { type: "progress", player: 2, score: 40, moves: 5, status: "playing" });
  assert.deepEqual(race.entries.map((e) => [e.name, e.place]), [["Bea", 1], ["Ann", 2]]);
  const resigned = { score: 40, moves: 9, duration_ms: 9000, status: "resigned" };
  applyProgress(race, { type: "progress", player: 1, ...resigned });
  assert.deepEqual(race.entries.map((e) => e.name), ["Ann", "Bea"]);
});

test("progress gives a racer the state the server says, and an unknown racer changes nothing", () => {
  const race = createRoom(room(), 1, NOW);
  const stuck = { type: "progress", player: 1, stuck: true, status: "playing", state: "stuck" };
  applyProgress(race, stuck);
  assert.equal(race.entries.find((e) => e.player === 1).state, "stuck");
  assert.equal(applyProgress(race, { type: "progress", player: 9, score: 250 }), false);
});

test("the winner is the one the server names, not the best score shown", () => {
  const entries = [entry(2, "Bea", { status: "won", score: 250 }), entry(1, "Ann")];
  const race = createRoom(room({ entries }), 1, NOW);
  assert.equal(statusText(race, LABELS), "Race on!");
  applyRoom(race, room({ version: 6, entries, winner: 2 }), NOW);
  assert.equal(statusText(race, LABELS), "Bea cleared the heart first!");
  applyRoom(race, room({ version: 7, entries, winner: 2, status: "finished" }), NOW);
  assert.equal(statusText(race, LABELS), "The race is over. Bea cleared the heart first!");
});

test("a stuck racer is told to undo or resign", () => {
  const race = createRoom(room({ entries: [entry(1, "Ann", { state: "stuck" })] }), 1, NOW);
  assert.equal(statusText(race, LABELS), "No more moves");
});

test("the countdown counts the server's seconds to the start, then says go", () => {
  const counting = room({ started: false, starts_at: "2026-01-01T10:00:02.500Z" });
  const race = createRoom(counting, 1, NOW - 3600000); // this device is an hour slow
  assert.equal(countdownText(race, LABELS, NOW - 3600000), "3");
  assert.equal(countdownText(race, LABELS, NOW - 3600000 + 3000), "Go!");
  assert.equal(countdownText(createRoom(room(), 1, NOW), LABELS, NOW), null);
  assert.equal(statusText(race, LABELS), "");
});

test("the racer's board opens once the race has started and their game exists", () => {
  assert.equal(boardCode(createRoom(room(), 1, NOW)), "HH1-N-AAAAAAC");
  assert.equal(boardCode(createRoom(room({ started: false, code: null }), 1, NOW)), null);
  assert.equal(boardCode(createRoom(room({ me: null }), null, NOW)), null);
});

test("the lobby offers join to a logged-in visitor and ready or leave to a racer", () => {
  const waiting = [entry(1, "Ann", { status: "waiting" })];
  const lobby = room({ status: "lobby", started: false, entries: waiting });
  const visitor = createRoom({ ...lobby, me: null }, 3, NOW);
  const none = {
    join: false, ready: false, unready: false, leave: false, again: false, open: false,
  };
  assert.deepEqual(buttonsFor(visitor, true), { ...none, join: true });
  assert.equal(buttonsFor(visitor, false).join, false);
  const racer = createRoom(lobby, 1, NOW);
  assert.deepEqual(buttonsFor(racer, true), { ...none, ready: true, leave: true });
  const over = room({ status: "finished" });
  assert.deepEqual(buttonsFor(createRoom(over, 1, NOW), true), { ...none, again: true });
  assert.deepEqual(buttonsFor(createRoom(over, 9, NOW), true), { ...none, open: true });
});

test("a quick room shows no Join and no Ready: it starts by itself", () => {
  const waiting = [entry(1, "Ann", { status: "waiting" })];
  const lobby = room({ status: "lobby", started: false, quick: true, entries: waiting });
  const visitor = createRoom({ ...lobby, me: null }, 3, NOW);
  assert.equal(buttonsFor(visitor, true).join, false);
  const racer = createRoom(lobby, 1, NOW);
  assert.equal(buttonsFor(racer, true).ready, false);
  const labels = { ...LABELS, quick_lobby: "Waiting for a rival" };
  assert.equal(statusText(racer, labels), "Waiting for a rival");
});
