// Sorting by the rank order the server sends as data.
import assert from "node:assert/strict";
import { test } from "node:test";

import { compareBy, insertionIndex } from "../../static/boards/order.js";

const ORDER = ["-score", "duration_ms", "moves", "finished_at"];

test("keys apply in turn, a leading minus descending", () => {
  const rows = [
    { id: 1, score: 100, duration_ms: 50, moves: 9 },
    { id: 2, score: 250, duration_ms: 90, moves: 9 },
    { id: 3, score: 100, duration_ms: 50, moves: 4 },
    { id: 4, score: 100, duration_ms: 20, moves: 30 },
  ];
  assert.deepEqual(rows.sort(compareBy(ORDER)).map((r) => r.id), [2, 4, 3, 1]);
});

test("a missing value sorts after every value, ascending or descending", () => {
  const rows = [{ id: 1, score: null }, { id: 2, score: 5 }, { id: 3, score: 9 }];
  assert.deepEqual([...rows].sort(compareBy(["-score"])).map((r) => r.id), [3, 2, 1]);
  assert.deepEqual([...rows].sort(compareBy(["score"])).map((r) => r.id), [2, 3, 1]);
});

test("a new row goes after the rows it does not beat", () => {
  const rows = [{ score: 250, duration_ms: 10 }, { score: 100, duration_ms: 10 }];
  assert.equal(insertionIndex(rows, { score: 250, duration_ms: 10 }, ORDER), 1);
  assert.equal(insertionIndex(rows, { score: 300, duration_ms: 99 }, ORDER), 0);
  assert.equal(insertionIndex(rows, { score: 1, duration_ms: 1 }, ORDER), 2);
});
