// The share card: the heart's picture in its own shape, and no card rank or leaderboard place.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createLayout } from "../../static/board/layout.js";
import * as share from "../../static/windows/share.js";
import { LAYOUT } from "./table.js";

const { CLEARED, LEFT, sharePath } = share;
const layout = createLayout(LAYOUT);
const heartPicture = (heart) => share.heartPicture(heart, layout);
const shareCard = (game, view, url) => share.shareCard(game, view, url, layout);

const cells = (text) => [...text].filter((c) => c === CLEARED || c === LEFT);
const card = { rank: 12, free: true };
const left = (positions) =>
  Array.from({ length: 25 }, (_, i) => (positions.includes(i + 1) ? card : null));

test("the picture has the heart's rows of 4, 6, 5, 4, 3, 2 and 1 cells", () => {
  const lines = heartPicture(left([])).split("\n");
  assert.deepEqual(lines.map((line) => cells(line).length), [4, 6, 5, 4, 3, 2, 1]);
  assert.equal(cells(lines.join("")).length, 25);
});

test("rows sit half a card apart and the top row has the notch in the middle", () => {
  const lines = heartPicture(left([])).split("\n");
  const indent = (line) => line.length - line.trimStart().length;
  assert.deepEqual(lines.map(indent), [1, 0, 1, 2, 3, 4, 5]);
  assert.equal(lines[0], `\u2002${CLEARED}${CLEARED}\u2002\u2002${CLEARED}${CLEARED}`);
});

test("cells left on the heart and cleared ones differ, in position order", () => {
  const picture = cells(heartPicture(left([1, 10, 25])));
  assert.deepEqual(
    picture.map((c, i) => (c === LEFT ? i + 1 : 0)).filter(Boolean),
    [1, 10, 25],
  );
});

test("the share text has the day, the picture, time, moves, clean, the link, and no par", () => {
  const game = {
    code: "HH1-D-ABCDEFG",
    daily_date: "2026-12-01",
    result: { won: true, moves: 45, par: 38, duration_ms: 192_000, clean: true, rank: 3 },
  };
  const text = shareCard(game, { heart: left([]) }, "https://hearts.example/x/");
  assert.match(text, /^Heart to Heart · Daily deal 2026-12-01\n/);
  assert.match(text, /⏱ 3:12 · 45 moves · ✨ clean\nhttps:\/\/hearts\.example\/x\/$/);
  assert.doesNotMatch(text, /par|38/); // posted while others still play the day's deal
  assert.equal(cells(text).length, 25);
  assert.doesNotMatch(text, /#|Rank|HH1-D/); // neither the place nor the code of a daily
});

test("an unclean game with no par yet says only its moves; other deals name their code", () => {
  const game = { code: "HH1-N-ABCDEFG", daily_date: null,
    result: { moves: 1, par: null, duration_ms: 5000, clean: false } };
  const text = shareCard(game, { heart: left([25]) }, "u");
  assert.match(text, /^Heart to Heart · HH1-N-ABCDEFG\n/);
  assert.match(text, /⏱ 0:05 · 1 move\nu$/);
});

test("another deal's card gives its moves against par", () => {
  const game = { code: "HH1-N-ABCDEFG", daily_date: null,
    result: { moves: 45, par: 38, duration_ms: 192_000, clean: false } };
  assert.match(shareCard(game, { heart: left([]) }, "u"), /⏱ 3:12 · 45 moves \(par 38\)\nu$/);
});

test("a daily's link is its day's public leaderboard, any other deal's its play page", () => {
  const daily = { daily_date: "2026-12-01", code: "HH1-D-A" };
  assert.equal(sharePath(daily), "/leaderboard/daily/2026-12-01/");
  assert.equal(sharePath({ daily_date: null, code: "HH1-N-A" }), "/play/HH1-N-A/");
});
