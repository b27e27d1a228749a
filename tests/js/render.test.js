// Rendering, in a small DOM: the table laid out from the server's geometry, and each card, pile
// and control as the state says, in words a screen reader reads.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { createLayout } from "../../static/board/layout.js";
import { buildTable, render } from "../../static/board/render.js";
import { createState } from "../../static/board/state.js";
import { page } from "./dom.js";
import { gameOf, LAYOUT, viewOf } from "./table.js";

let ui;

function uiOf(document) {
  const root = document.getElementById("board");
  const heart = root.querySelector(".h2h-heart");
  const layout = createLayout(LAYOUT);
  return {
    root, heart, layout, nodes: buildTable(heart, layout),
    stats: { score: root.querySelector("[data-stat=score]"), moves: root.querySelector("[data-stat=moves]") },
    controls: {
      undo: document.querySelectorAll("[data-action=undo]"),
      resign: document.querySelectorAll("[data-action=resign]"),
    },
    start: root.querySelector("[data-start]"),
  };
}

function stateOf(view = viewOf(), game = gameOf()) {
  const state = createState(view, game);
  state.online = true;
  return state;
}

beforeEach(() => {
  ui = uiOf(page().document);
});

test("the table has a button for each of the layout's cards and the two piles, in place", () => {
  const targets = [...ui.heart.children].map((node) => node.dataset.target);
  assert.deepEqual(targets, [...Array.from({ length: 25 }, (_, i) => String(i + 1)), "stock", "waste"]);
  const at = (t) => ui.nodes.get(t).getAttribute("style");
  assert.equal(at(1), "--x:0.5;--r:0");
  assert.equal(at(25), "--x:2.5;--r:6");
  assert.equal(at("stock"), "--x:0;--r:6");
  assert.equal(at("waste"), "--x:5;--r:6");
});

test("a card shows its rank and says whether it is free", () => {
  render(ui, stateOf(viewOf({ free: [25] })));
  const tip = ui.nodes.get(25);
  assert.equal(tip.firstChild.dataset.face, "Q"); // the 25th card of the test's deal: a queen
  assert.equal(tip.getAttribute("aria-label"), "Queen of hearts, free");
  assert.ok(tip.classList.contains("free"));
  assert.equal(ui.nodes.get(1).getAttribute("aria-label"), "Ace of hearts, covered");
  assert.ok(ui.nodes.get(1).classList.contains("covered"));
});

test("a removed card is gone and cannot be pressed", () => {
  const ranks = Array.from({ length: 25 }, (_, i) => (i === 24 ? null : (i % 13) + 1));
  render(ui, stateOf(viewOf({ ranks })));
  const tip = ui.nodes.get(25);
  assert.ok(tip.classList.contains("gone"));
  assert.equal(tip.disabled, true);
  assert.equal(tip.hasAttribute("aria-label"), false);
});

test("the piles say how many cards they hold and what lies on the waste", () => {
  render(ui, stateOf(viewOf({ stock: 3, waste: { top: 13, size: 2 } })));
  assert.equal(ui.nodes.get("stock").getAttribute("aria-label"), "Stock, 3 cards");
  assert.equal(ui.nodes.get("stock").lastChild.textContent, "3");
  assert.equal(ui.nodes.get("waste").getAttribute("aria-label"), "Waste: King of hearts, 2 cards");
  render(ui, stateOf(viewOf({ stock: 0, waste: { top: 13, size: 2 } })));
  assert.equal(ui.nodes.get("stock").getAttribute("aria-label"), "Stock empty: tap to redeal");
});

test("a selection is pressed, and placement help dims the cards that cannot pair with it", () => {
  const view = viewOf({ selected: 25, free: [23, 24, 25], hints: [] });
  render(ui, stateOf(view));
  assert.equal(ui.nodes.get(25).getAttribute("aria-pressed"), "true");
  assert.ok(ui.nodes.get(23).classList.contains("dim")); // a 10 cannot pair with the queen
});

test("Undo and Resign are enabled only while the game can be played", () => {
  const [undo, resign] = [ui.controls.undo[0], ui.controls.resign[0]];
  render(ui, stateOf(viewOf({ can_undo: true, score: 20, moves: 3 })));
  assert.deepEqual([undo.disabled, resign.disabled], [false, false]);
  assert.deepEqual([ui.stats.score.textContent, ui.stats.moves.textContent], ["20", "3"]);
  const offline = stateOf(viewOf({ can_undo: true }));
  offline.online = false;
  render(ui, offline);
  assert.deepEqual([undo.disabled, resign.disabled], [true, true]);
  assert.ok(ui.root.classList.contains("offline"));
  render(ui, stateOf(viewOf({ can_undo: true }), gameOf({ status: "resigned" })));
  assert.deepEqual([undo.disabled, resign.disabled], [true, true]);
  assert.ok(ui.root.classList.contains("over"));
});

test("a ranked game waiting for its Start shows no card, only Start", () => {
  const waiting = viewOf({ heart: null, waste: { top: null, size: 1 } });
  render(ui, stateOf(waiting, gameOf({ ranked: true, awaiting_start: true, started_at: null })));
  assert.equal(ui.start.hidden, false);
  assert.ok(ui.root.classList.contains("awaiting-start"));
  assert.ok([...ui.nodes.values()].slice(0, 25).every((node) => node.disabled));
  assert.equal(ui.nodes.get("waste").lastChild.textContent, "");
});
