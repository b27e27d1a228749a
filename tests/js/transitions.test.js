// The board's pure transitions: a server frame into the state and what it tells, as codes, and
// which message each intent sends.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  receivePar,
  receiveState,
  request,
  settingsRequest,
} from "../../static/board/transitions.js";

function heartOf(ranks) {
  return ranks.map((rank) => (rank ? { rank, free: true } : null));
}

function boardState(overrides = {}) {
  const view = { heart: heartOf([7, 7, 3]), waste: { top: 5, size: 2 }, won: false, can_undo: true };
  return {
    view,
    previous: null,
    game: { status: "open", placement_help: true },
    settings: { moveErrors: false, placementHelp: true },
    online: true,
    ...overrides,
  };
}

test("the first frame makes the state", () => {
  const { state } = receiveState(null, { view: { heart: null }, game: { status: "open" } });
  assert.equal(state.game.status, "open");
  assert.equal(state.online, false);
});

test("a pair tells the rank of the card it removed", () => {
  const state = boardState();
  const view = { ...state.view, heart: heartOf([null, null, 3]) };
  const { said } = receiveState(state, { view, event: "pair" });
  assert.deepEqual(said, { code: "pair", rank: 7 });
});

test("a draw tells the card drawn, and the win is told once", () => {
  const state = boardState();
  const drawn = { ...state.view, waste: { top: 1, size: 3 } };
  assert.deepEqual(receiveState(state, { view: drawn, event: "draw" }).said, { code: "draw", rank: 1 });
  const won = { ...state.view, won: true };
  assert.deepEqual(receiveState(state, { view: won, event: "pair" }).said, { code: "won" });
  assert.equal(receiveState(state, { view: won, event: "none" }).said, null);
});

test("a redeal and an undo tell their codes; a game stuck is told once", () => {
  const state = boardState();
  assert.deepEqual(receiveState(state, { view: state.view, event: "redeal" }).said, { code: "redeal" });
  assert.deepEqual(receiveState(state, { view: state.view, event: "undo" }).said, { code: "undo" });
  const stuck = { ...state.view, deadlocked: true };
  assert.deepEqual(receiveState(state, { view: stuck, event: "draw" }).said, { code: "deadlocked" });
  assert.equal(receiveState(state, { view: stuck, event: "selected" }).said, null);
});

test("a refused tap passes on the server's reason and words, only with move errors on", () => {
  const frame = {
    view: boardState().view, event: "mismatch", reason: "same_rank", message: "Mesti sama pangkat",
  };
  assert.equal(receiveState(boardState(), frame).refused, null);
  const on = boardState({ settings: { moveErrors: true, placementHelp: true } });
  const { refused } = receiveState(on, frame);
  assert.deepEqual(refused, { reason: "same_rank", message: "Mesti sama pangkat" });
  assert.equal(receiveState(on, { view: on.view, event: "selected" }).refused, null);
});

test("intents become messages only while the game is playable", () => {
  assert.deepEqual(request(boardState(), "tap", 12), { type: "tap", target: 12 });
  assert.deepEqual(request(boardState(), "undo"), { type: "undo" });
  assert.deepEqual(request(boardState(), "resign"), { type: "resign" });
  assert.equal(request(boardState({ online: false }), "tap", 12), null);
  assert.equal(request(boardState({ game: { status: "won" } }), "resign"), null);
  const stuck = boardState();
  stuck.view.can_undo = false;
  assert.equal(request(stuck, "undo"), null);
});

test("start is sent only by a ranked game waiting for it", () => {
  const waiting = boardState({ game: { status: "open", awaiting_start: true } });
  assert.deepEqual(request(waiting, "start"), { type: "start" });
  assert.equal(request(waiting, "tap", 25), null);
  assert.equal(request(boardState(), "start"), null);
});

test("the placement help setting is sent only when the game's differs", () => {
  assert.equal(settingsRequest(boardState()), null);
  const off = boardState({ settings: { placementHelp: false } });
  assert.deepEqual(settingsRequest(off), { type: "settings", placement_help: false });
  assert.equal(settingsRequest({ ...off, online: false }), null);
  assert.equal(settingsRequest({ ...off, game: { status: "resigned", placement_help: true } }), null);
});

test("a par frame fills in the par of this game's result only", () => {
  const state = { game: { id: 7, result: { won: true, par: null } } };
  assert.equal(receivePar(state, { type: "par", game: 8, par: 30 }), false);
  assert.equal(receivePar(state, { type: "par", game: 7, par: "30" }), false);
  assert.equal(state.game.result.par, null);
  assert.equal(receivePar(state, { type: "par", game: 7, par: 30 }), true);
  assert.equal(state.game.result.par, 30);
  const open = { game: { id: 7, result: null } }; // never before the game has ended
  assert.equal(receivePar(open, { type: "par", game: 7, par: 30 }), false);
});
