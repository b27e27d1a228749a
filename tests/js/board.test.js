// The board only shows and permits: it hands on what the player may ask for now, and shows
// whatever state it is given; a read-only board takes no input at all.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { createBoard, readOnlyState } from "../../static/board/board.js";
import { createState } from "../../static/board/state.js";
import { click, page, press } from "./dom.js";
import { gameOf, LAYOUT, viewOf } from "./table.js";

let root;
let requests;

function playing(view = viewOf({ can_undo: true })) {
  const state = createState(view, gameOf());
  state.online = true;
  return state;
}

function boardWith(state, options = {}) {
  const onRequest = (message, intent) => requests.push([intent, message]);
  return createBoard(root, { layout: LAYOUT, state, onRequest, ...options });
}

beforeEach(() => {
  root = page().document.getElementById("board");
  requests = [];
});

test("a tap, an undo and a resignation the game allows are handed on as messages", () => {
  const board = boardWith(playing());
  click(board.ui.nodes.get(25));
  press("u");
  click(document.querySelector("[data-action=resign]"));
  assert.deepEqual(requests, [
    ["tap", { type: "tap", target: 25 }],
    ["undo", { type: "undo" }],
    ["resign", { type: "resign" }],
  ]);
});

test("nothing is handed on while offline, or before the first state", () => {
  const offline = playing();
  offline.online = false;
  boardWith(offline);
  click(root.querySelector("[data-target='25']"));
  press("u");
  assert.deepEqual(requests, []);
});

test("a board shows each state it is given", () => {
  const board = boardWith(playing());
  const next = playing(viewOf({ score: 20, moves: 1 }));
  board.show(next);
  assert.equal(board.state, next);
  assert.equal(root.querySelector("[data-stat=score]").textContent, "20");
});

test("a read-only board shows hints, takes no input and says its cards cannot be pressed", () => {
  const state = readOnlyState(viewOf(), gameOf({ placement_help: false }));
  assert.equal(state.settings.placementHelp, true);
  const board = boardWith(state, { readOnly: true });
  click(board.ui.nodes.get(25));
  press("d");
  assert.deepEqual(requests, []);
  assert.equal(board.ui.nodes.get(25).getAttribute("aria-disabled"), "true");
});

test("the tab stop starts on the heart's tip", () => {
  const board = boardWith(playing());
  assert.equal(board.ui.nodes.get(25).tabIndex, 0);
});
