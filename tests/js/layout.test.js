// Where the cards sit and how arrow keys move between them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { neighbour, POSITIONS, SPOTS } from "../../static/game/layout.js";

const all = [...SPOTS.keys()];

test("the table has 25 positions in rows of 4, 6, 5, 4, 3, 2, 1 and the two piles", () => {
  assert.deepEqual(POSITIONS, Array.from({ length: 25 }, (_, i) => i + 1));
  const rows = POSITIONS.map((t) => SPOTS.get(t).r);
  const sizes = [0, 1, 2, 3, 4, 5, 6].map((r) => rows.filter((x) => x === r).length);
  assert.deepEqual(sizes, [4, 6, 5, 4, 3, 2, 1]);
  assert.deepEqual([SPOTS.get("stock"), SPOTS.get("waste")], [{ x: 0, r: 6 }, { x: 5, r: 6 }]);
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
