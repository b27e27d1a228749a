// The end-of-game window's texts and chart geometry, from the result the server sends.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  barLabel,
  chartBars,
  chartSummary,
  countdownText,
  localMoment,
  parText,
  standingText,
} from "../../static/windows/finish.js";

const MIN = 60_000;
const bars = [
  { won: true, from_ms: 0, to_ms: 2 * MIN, count: 4 },
  { won: true, from_ms: 2 * MIN, to_ms: 3 * MIN, count: 2 },
  { won: true, from_ms: 15 * MIN, to_ms: null, count: 0 },
  { won: false, from_ms: null, to_ms: null, count: 1 },
];

test("par is the word par and the number, and nothing while it is not known", () => {
  assert.equal(parText(38), "par 38");
  assert.equal(parText(null), "");
  assert.equal(parText(undefined), "");
});

test("a winner is told the share of today's winners they beat", () => {
  const result = { won: true, daily: { cleared: 25, percentile: 62 } };
  assert.equal(standingText(result), "Faster than 62\u00a0% of today's winners");
  const first = { won: true, daily: { cleared: 25, percentile: null } };
  assert.equal(standingText(first), "The first winner of the day so far");
});

test("a winner with nobody after them is one of today's winners, not faster than 0 %", () => {
  const second = { won: true, daily: { cleared: 25, percentile: 0, compared: 1 } };
  assert.equal(standingText(second), "One of today's 2 winners so far");
  const last = { won: true, daily: { cleared: 25, percentile: 0, compared: 140 } };
  assert.equal(standingText(last), "One of today's 141 winners so far");
  assert.doesNotMatch(standingText(second), /0\u00a0%/);
});

test("a loss with nobody after it is told the cards it cleared, not better than 0 %", () => {
  const last = { won: false, daily: { cleared: 7, percentile: 0, compared: 3 } };
  assert.equal(standingText(last), "Cleared 7 of 25");
});

test("a loss is told the cards it cleared and the share of today's players it beat", () => {
  const result = { won: false, daily: { cleared: 18, percentile: 40 } };
  assert.equal(standingText(result), "Cleared 18 of 25: better than 40\u00a0% of today's players");
  const alone = { won: false, daily: { cleared: 3, percentile: null } };
  assert.equal(standingText(alone), "Cleared 3 of 25");
});

test("the countdown is hh:mm:ss, rounds up to the next second and stops at zero", () => {
  assert.equal(countdownText(((5 * 60 + 7) * 60 + 9) * 1000), "05:07:09");
  assert.equal(countdownText(1), "00:00:01");
  assert.equal(countdownText(23 * 3600 * 1000 + 59 * 60 * 1000 + 59_500), "24:00:00");
  assert.equal(countdownText(-5000), "00:00:00");
});

test("the next deal's moment is shown in the player's own time zone", () => {
  const next = "2026-12-02T00:00:00+00:00";
  assert.equal(localMoment(next, "en-GB", "Asia/Kuala_Lumpur"), "Wed 08:00");
  assert.equal(localMoment(next, "en-GB", "UTC"), "Wed 00:00");
  assert.equal(localMoment(next, "en-GB", "America/New_York"), "Tue 19:00");
});

test("bars are labelled in minutes, the last open-ended, and one not cleared", () => {
  assert.deepEqual(bars.map(barLabel), ["<2", "2–3", "15+", "not cleared"]);
});

test("the chart's text alternative names every bar's count and the player's bar", () => {
  const text = chartSummary({ bars, you: 1 });
  assert.match(text, /<2 min: 4, 2–3 min: 2, 15\+ min: 0, not cleared: 1\./);
  assert.match(text, /Yours: 2–3 min\.$/);
});

test("the tallest bar fills the chart, an empty one is a hairline, the player's marked", () => {
  const drawn = chartBars({ bars, you: 3 }, 200, 100);
  assert.deepEqual(drawn.map((b) => b.height), [100, 50, 1, 25]);
  assert.deepEqual(drawn.map((b) => b.y), [0, 50, 99, 75]);
  assert.deepEqual(drawn.map((b) => b.yours), [false, false, false, true]);
  assert.equal(drawn[1].x, 50 + 2);
  assert.ok(drawn.every((b) => b.x + b.width <= 200));
});
