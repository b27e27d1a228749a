// What a game socket's frames do to a page, in a small DOM: the board shows the state, the
// player hears what happened in words made from the board's codes, and the page's hook runs.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { onFrame } from "../../static/pages/frames.js";
import { openGame } from "../../static/pages/game.js";
import { page } from "./dom.js";
import { gameOf, LAYOUT, viewOf } from "./table.js";

let root;
let sent;

/** A page on its game, its socket a stand-in that keeps what is sent. */
function gamePage(options = {}) {
  const game = openGame(root, options);
  game.conn = { send: (message) => sent.push(message), unacked: new Map() };
  return game;
}

const greeting = (fields = {}) => ({
  type: "state", view: viewOf({ can_undo: true }), game: gameOf(), layout: LAYOUT, ...fields,
});
const said = () => root.querySelector(".h2h-live").textContent;
const toastShown = () => {
  const toast = root.querySelector(".h2h-toast");
  return toast.hidden ? null : toast.textContent;
};

beforeEach(() => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout"] });
  root = page().document.getElementById("board");
  sent = [];
});

afterEach(() => mock.timers.reset());

test("a board waiting for its socket is laid out from the greeting, then ready", () => {
  const game = gamePage();
  assert.equal(game.board, null);
  assert.equal(root.querySelectorAll(".h2h-heart [data-target]").length, 0);
  onFrame(game, greeting());
  assert.equal(root.querySelectorAll(".h2h-heart [data-target]").length, 27);
  assert.equal(root.dataset.ready, "1");
  assert.equal(root.dataset.frames, "1");
  assert.equal(root.dataset.event, "state");
});

test("a pair is said with the card it removed, in words", () => {
  const game = gamePage();
  onFrame(game, greeting({ view: viewOf({ free: [24, 25] }) }));
  const ranks = Array.from({ length: 25 }, (_, i) => (i === 24 ? null : (i % 13) + 1));
  onFrame(game, { type: "state", seq: 1, event: "pair", view: viewOf({ ranks, score: 10 }) });
  assert.equal(said(), "Pair removed: Queen of hearts");
  assert.equal(root.querySelector("[data-stat=score]").textContent, "10");
  assert.equal(root.dataset.event, "pair");
});

test("a refused tap shows the server's words, only with move errors on", () => {
  const game = gamePage();
  onFrame(game, greeting());
  const mismatch = {
    type: "state", seq: 2, event: "mismatch", view: viewOf(), reason: "same_rank",
    message: "Mesti sama pangkat",
  };
  onFrame(game, mismatch);
  assert.equal(toastShown(), null);
  game.board.state.settings.moveErrors = true;
  onFrame(game, { ...mismatch, seq: 3 });
  assert.equal(toastShown(), "Mesti sama pangkat");
  mock.timers.tick(3000);
  assert.equal(toastShown(), null);
});

test("an error is shown and said; a resent or unstored action's is not", () => {
  const game = gamePage();
  onFrame(game, greeting());
  onFrame(game, { type: "error", seq: 4, error: "duplicate_seq", message: "seen" });
  onFrame(game, { type: "error", seq: 5, error: "storage_unavailable", message: "later" });
  assert.equal(toastShown(), null);
  onFrame(game, { type: "error", seq: 6, error: "bad_target", message: "Not a target" });
  assert.equal(toastShown(), "Not a target");
  assert.equal(said(), "Not a target");
});

test("the number of watchers shows, and hides again at none", () => {
  const game = gamePage();
  const watchers = document.querySelector("[data-watchers]");
  onFrame(game, { type: "watchers", count: 2 });
  assert.deepEqual([watchers.hidden, watchers.textContent], [false, "2 watching"]);
  onFrame(game, { type: "watchers", count: 0 });
  assert.equal(watchers.hidden, true);
});

test("a spectator's page shows the game but says nothing for the player", () => {
  const game = gamePage({ layout: LAYOUT, view: viewOf(), game: gameOf(), readOnly: true });
  const won = viewOf({ won: true, score: 250 });
  onFrame(game, { type: "state", event: "pair", view: won, game: gameOf({ status: "won" }) });
  assert.equal(said(), "");
  assert.ok(root.classList.contains("over"));
});

test("the page's hook runs after each state shown, and after this game's par", () => {
  const shown = [];
  const result = { won: true, par: null, duration_ms: 1000 };
  const game = gamePage({ onShow: (p) => shown.push(p.board.state.game.result?.par) });
  onFrame(game, greeting({ game: gameOf({ status: "won", result }) }));
  onFrame(game, { type: "par", game: 7, par: 31 });
  onFrame(game, { type: "par", game: 8, par: 40 }); // another game's: nothing to show
  assert.deepEqual(shown, [null, 31]);
});

test("a ranked game's start focuses the heart and sends the player's placement help", () => {
  const game = gamePage();
  const waiting = gameOf({ ranked: true, awaiting_start: true, started_at: null });
  onFrame(game, greeting({ view: viewOf({ heart: null }), game: waiting }));
  game.board.state.settings.placementHelp = false;
  game.board.state.online = true;
  const begun = gameOf({ ranked: true, awaiting_start: false });
  onFrame(game, { type: "state", seq: 1, event: "start", view: viewOf(), game: begun });
  assert.equal(document.activeElement, game.board.ui.nodes.get(25));
  assert.deepEqual(sent, [{ type: "settings", placement_help: false }]);
});

test("the clock ticks from the server's start, corrected for this device's clock", () => {
  const game = gamePage();
  const serverAt = (ms) => new Date(Date.now() + 3_600_000 + ms).toISOString(); // an hour ahead
  onFrame(game, greeting({ game: gameOf({ started_at: serverAt(0), server_now: serverAt(65_000) }) }));
  mock.timers.tick(250);
  assert.equal(root.querySelector("[data-stat=time]").textContent, "1:05");
});
