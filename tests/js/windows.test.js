// The play page's windows, in a small DOM: which one the view calls for, each opened once and
// filled from the state (time, moves, rank, the share card drawn on the server's layout), and
// the yes/no question.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { createLayout } from "../../static/board/layout.js";
import { createState } from "../../static/board/state.js";
import { confirmWith } from "../../static/windows/dialogs.js";
import { CLEARED } from "../../static/windows/share.js";
import { syncWindows, windowFor } from "../../static/windows/windows.js";
import { page } from "./dom.js";
import { gameOf, LAYOUT, viewOf } from "./table.js";

// What templates/game/_finish.html gives each end window to fill.
const FINISH = `
  <dd data-slot="time"></dd><span data-slot="moves"></span><span data-slot="par"></span>
  <dd data-slot="score"></dd><span data-slot="rank"></span><span data-slot="rank-of"></span>
  <section data-slot="day" hidden></section>
  <div data-slot="share-box"><textarea data-share data-slot="share"></textarea></div>
  <button data-slot="copy-share"></button><button data-slot="web-share" hidden></button>`;
const WINDOWS = `
  <dialog id="h2h-deadlock"><p>No more moves possible</p></dialog>
  <dialog id="h2h-win">${FINISH}<p data-slot="note"></p></dialog>
  <dialog id="h2h-ended"><p data-slot="ended-note"></p>${FINISH}</dialog>
  <dialog id="h2h-confirm"><p data-slot="question"></p></dialog>`;

const layout = createLayout(LAYOUT);
let ui;

const byId = (id) => document.getElementById(id);
const open = () => [...document.querySelectorAll("dialog[open]")].map((dialog) => dialog.id);
const slot = (dialog, name) => byId(dialog).querySelector(`[data-slot=${name}]`);
const stateOf = (view, game = gameOf()) => createState(view, game);

beforeEach(() => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout"] });
  page(WINDOWS);
  const dialogs = { deadlock: byId("h2h-deadlock"), win: byId("h2h-win"), ended: byId("h2h-ended") };
  ui = { dialogs, shownStatus: null };
});

afterEach(() => mock.timers.reset());

test("the view calls for the won window, the deadlock window, the ended window or none", () => {
  assert.equal(windowFor(stateOf(viewOf())), "open");
  assert.equal(windowFor(stateOf(viewOf({ won: true }))), "won");
  assert.equal(windowFor(stateOf(viewOf({ deadlocked: true }))), "deadlock");
  assert.equal(windowFor(stateOf(viewOf(), gameOf({ status: "resigned" }))), "ended");
  const resignedStuck = stateOf(viewOf({ deadlocked: true }), gameOf({ status: "resigned" }));
  assert.equal(windowFor(resignedStuck), "ended");
});

test("a win opens its window once, with time, moves, score, rank and undos", () => {
  const result = { won: true, score: 250, moves: 40, duration_ms: 125_000, rank: 3, of: 9, par: 38 };
  const ranks = Array(25).fill(null);
  const won = stateOf(viewOf({ ranks, won: true, score: 250, moves: 40, undos: 2 }),
    gameOf({ status: "won", result }));
  syncWindows(ui, won, layout);
  assert.deepEqual(open(), ["h2h-win"]);
  const texts = ["time", "moves", "par", "score", "rank", "rank-of", "note"].map(
    (name) => slot("h2h-win", name).textContent);
  assert.deepEqual(texts, ["2:05", "40", "par 38", "250", "#3", "of 9", "2 undos"]);
  byId("h2h-win").close();
  syncWindows(ui, won, layout); // the same win: the window stays closed
  assert.deepEqual(open(), []);
});

test("the share card draws the cleared heart on the server's layout, with the game's link", () => {
  const result = { won: true, moves: 40, duration_ms: 125_000, clean: false, par: null };
  const won = stateOf(viewOf({ ranks: Array(25).fill(null), won: true }),
    gameOf({ status: "won", result }));
  syncWindows(ui, won, layout);
  const card = slot("h2h-win", "share").value;
  assert.equal([...card].filter((c) => c === CLEARED).length, 25);
  assert.match(card, /\nhttps:\/\/hearts\.example\/play\/HH1-N-AAAAAAM\/$/);
});

test("a game stuck opens the deadlock window; resigning it replaces it with the ended one", () => {
  syncWindows(ui, stateOf(viewOf({ deadlocked: true })), layout);
  assert.deepEqual(open(), ["h2h-deadlock"]);
  const result = { won: false, moves: 12, duration_ms: 61_000, rank: null };
  const resigned = stateOf(viewOf({ deadlocked: true, moves: 12 }),
    gameOf({ status: "resigned", result }));
  syncWindows(ui, resigned, layout);
  assert.deepEqual(open(), ["h2h-ended"]);
  assert.equal(slot("h2h-ended", "rank").textContent, "–");
  assert.equal(slot("h2h-ended", "ended-note").hidden, false); // no ranked daily's standing
});

test("a question resolves yes or no as the player closes its window", async () => {
  const question = byId("h2h-confirm");
  const yes = confirmWith(question, "Resign?");
  assert.equal(slot("h2h-confirm", "question").textContent, "Resign?");
  assert.deepEqual(open(), ["h2h-confirm"]);
  question.close("yes");
  assert.equal(await yes, true);
  const no = confirmWith(question, "Resign?");
  question.close("no");
  assert.equal(await no, false);
});
