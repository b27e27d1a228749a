// Where the cards sit, laid out from the server's geometry, and how arrow keys move between them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createLayout, neighbour as next } from "../../static/board/layout.js";
import { LAYOUT } from "./table.js";

const layout = createLayout(LAYOUT);
const { spots, positions } = layout;
const all = [...spots.keys()];
const neighbour = (...args) => next(layout, ...args);

test("the table has 25 positions in rows of 4, 6, 5, 4, 3, 2, 1 and the two piles", () => {
  assert.deepEqual(positions, Array.from({ length: 25 }, (_, i) => i + 1));
  assert.equal(layout.tip, 25);
  const rows = positions.map((t) => spots.get(t).r);
  const sizes = [0, 1, 2, 3, 4, 5, 6].map((r) => rows.filter((x) => x === r).length);
  assert.deepEqual(sizes, [4, 6, 5, 4, 3, 2, 1]);
  assert.deepEqual([spots.get("stock"), spots.get("waste")], [{ x: 0, r: 6 }, { x: 5, r: 6 }]);
});

test("the piles flank the tip of whatever heart the server lays out", () => {
  const small = createLayout({ rows: [[0, 1, 2], [0.5, 1.5], [1]] });
  assert.deepEqual(small.positions, [1, 2, 3, 4, 5, 6]);
  assert.equal(small.tip, 6);
  assert.deepEqual([small.spots.get("stock"), small.spots.get("waste")], [{ x: 0, r: 2 }, { x: 2, r: 2 }]);
});

test("arrow keys move between neighbours of the heart", () => {
  assert.equal(neighbour(25, "ArrowLeft", all), "stock");
  assert.equal(neighbour(25, "ArrowRight", all), "waste");
  assert.equal(neighbour(25, "ArrowUp", all), 23);
  assert.equal(neighbour(1, "ArrowRight", all), 2);
  assert.equal(neighbour(1, "ArrowDown", all), 5);
  assert.equal(neighbour(4, "ArrowRight", all), 10);
  assert.equal(neighbour("stock", "ArrowUp", all), 23);
});

test("an arrow key finds the nearest card left in its direction, or none", () => {
  assert.equal(neighbour(1, "ArrowDown", [25]), 25);
  assert.equal(neighbour(1, "ArrowUp", all.filter((t) => t !== 1)), null);
  assert.equal(neighbour(1, "ArrowLeft", all), 5); // one row down is still "left"
  assert.equal(neighbour(5, "ArrowLeft", all), null);
});
