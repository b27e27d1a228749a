// The race's finish window in words: place, time, moves, the rating change, who won, and how
// long the racer may still race again.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createRoom } from "../../static/pages/race-room.js";
import { againLeftS, raceFinish, ratingText } from "../../static/windows/race-finish.js";

const LABELS = {
  finish_won: "You won the race!", finish_over: "Race over", of: "of %(n)s",
  winner: "%(name)s cleared the heart first!", nobody_won: "Nobody cleared the heart.",
  again_left: "%(n)s s left", again_closed: "Too late", rematch_open: "A rematch is open",
};
const NOW = Date.parse("2026-01-01T10:00:00Z");

function finished(fields = {}) {
  const entry = (player, name, more) => ({
    player, name, status: "won", state: "won", heart_left: 0, score: 250, moves: 60,
    duration_ms: 95_000, rating_change: null, game: player, ...more,
  });
  return {
    version: 9, status: "finished", started: true, max: 8, winner: 1, rematch: null,
    server_now: "2026-01-01T10:00:00Z", again_until: "2026-01-01T10:00:21.5Z",
    order: ["-score", "duration_ms", "moves"],
    entries: [
      entry(1, "Ann", { place: 1, rating_change: 12 }),
      entry(2, "Bea", { place: 2, status: "resigned", score: 90, moves: 41, rating_change: -8 }),
    ],
    ...fields,
  };
}

test("a rating change reads with its sign, a fall with a minus sign", () => {
  assert.deepEqual([12, -8, 0, null].map(ratingText), ["+12", "\u22128", "0", ""]);
});

test("the winner's window celebrates and names no other winner", () => {
  const finish = raceFinish(createRoom(finished(), 1, NOW), LABELS, NOW);
  assert.deepEqual(finish, {
    won: true, title: "You won the race!", place: "1", of: "of 2", time: "1:35", moves: "60",
    rating: "+12", winner: "", again: "22 s left",
  });
});

test("another racer's window says who won, and nothing about a rating not yet there", () => {
  const room = finished();
  room.entries[1].rating_change = null;
  const finish = raceFinish(createRoom(room, 2, NOW), LABELS, NOW);
  assert.equal(finish.won, false);
  assert.equal(finish.title, "Race over");
  assert.equal(finish.winner, "Ann cleared the heart first!");
  assert.equal(finish.rating, "");
  assert.equal(finish.moves, "41");
});

test("a race nobody won says so", () => {
  const finish = raceFinish(createRoom(finished({ winner: null }), 1, NOW), LABELS, NOW);
  assert.equal(finish.winner, "Nobody cleared the heart.");
});

test("the seconds to race again run on the server's clock and end at zero", () => {
  const race = createRoom(finished({ server_now: "2026-01-01T10:00:10Z" }), 1, NOW);
  assert.equal(againLeftS(race, NOW), 12); // the server is 10 s ahead of this page
  assert.equal(againLeftS(race, NOW + 60_000), 0);
  assert.equal(raceFinish(race, LABELS, NOW + 60_000).again, "Too late");
});

test("once a rematch is open the window says so", () => {
  const room = finished({ rematch: { room: "M4TQ9B", url: "/race/M4TQ9B/" } });
  assert.equal(raceFinish(createRoom(room, 2, NOW), LABELS, NOW).again, "A rematch is open");
});

test("only a racer of a finished race has a finish window", () => {
  assert.equal(raceFinish(createRoom(finished(), 9, NOW), LABELS, NOW), null);
  const running = finished({ status: "running" });
  assert.equal(raceFinish(createRoom(running, 1, NOW), LABELS, NOW), null);
});
