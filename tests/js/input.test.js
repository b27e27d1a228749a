// Input, in a small DOM: pointer and keys become intents, and the one tab stop of the table
// follows the cards that are left.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { bindInput, focusTarget, keepTabStop } from "../../static/board/input.js";
import { createLayout } from "../../static/board/layout.js";
import { buildTable } from "../../static/board/render.js";
import { click, page, press } from "./dom.js";
import { LAYOUT } from "./table.js";

let ui;
let asked;

beforeEach(() => {
  const { document } = page(`<div class="h2h-heart"></div>
    <input id="typed"><button data-action="resign">Resign</button><dialog id="w"></dialog>`);
  const heart = document.querySelector(".h2h-heart");
  const layout = createLayout(LAYOUT);
  ui = { heart, layout, nodes: buildTable(heart, layout) };
  asked = [];
  const intent = (name) => (...args) => asked.push([name, ...args]);
  bindInput(ui, { tap: intent("tap"), undo: intent("undo"), start: intent("start"), resign: intent("resign") });
});

test("a tap on a card or a pile is a tap intent on its target", () => {
  click(ui.nodes.get(12));
  click(ui.nodes.get("stock").lastChild); // the count inside the pile
  assert.deepEqual(asked, [["tap", 12], ["tap", "stock"]]);
});

test("a card that is gone takes no tap", () => {
  ui.nodes.get(12).disabled = true;
  click(ui.nodes.get(12));
  assert.deepEqual(asked, []);
});

test("U, Ctrl+Z and D are undo and draw, but not while typing or under a window", () => {
  press("u");
  press("z", document.body, { ctrlKey: true });
  press("d");
  press("u", document.getElementById("typed"));
  document.getElementById("w").showModal();
  press("u");
  assert.deepEqual(asked, [["undo"], ["undo"], ["tap", "stock"]]);
});

test("the page's Resign button, wherever it is, is the resign intent", () => {
  click(document.querySelector("[data-action=resign]"));
  assert.deepEqual(asked, [["resign"]]);
});

test("arrow keys move the focus to the nearest card still on the table", () => {
  focusTarget(ui.nodes, 25);
  const arrow = (key) => press(key, document.activeElement);
  arrow("ArrowUp");
  assert.equal(document.activeElement, ui.nodes.get(23));
  ui.nodes.get(5).disabled = true;
  focusTarget(ui.nodes, 1);
  arrow("ArrowDown");
  assert.equal(document.activeElement, ui.nodes.get(6)); // 5 is gone: the next one down
  assert.equal(ui.nodes.get(6).tabIndex, 0);
  assert.equal(ui.nodes.get(1).tabIndex, -1);
});

test("when the card holding the tab stop leaves, the nearest card left takes it", () => {
  focusTarget(ui.nodes, 25);
  ui.nodes.get(25).disabled = true;
  keepTabStop(ui, document.activeElement);
  const next = document.activeElement; // the focus followed the stop, one row up
  assert.ok([ui.nodes.get(23), ui.nodes.get(24)].includes(next));
  assert.equal(next.tabIndex, 0);
  assert.equal(ui.nodes.get(25).tabIndex, -1);
});
