// The ghost's panel beside the board: the numbers of each ghost frame, a few words for screen
// readers (its start, each fifth heart, its finish) and who won, never a word per move.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { bindGhost, ghostNews, winnerText } from "../../static/pages/ghost.js";
import { page } from "./dom.js";

const PANEL = `
<aside data-ghost>
  <dd data-ghost-stat="heart_left">25</dd><dd data-ghost-stat="score">0</dd>
  <dd data-ghost-stat="moves">0</dd>
  <p data-ghost-say>The ghost starts with your first move.</p>
  <p data-ghost-live aria-live="polite"></p>
</aside>`;

let panel;
const at = (t_ms, heart_left, score, moves) => ({ type: "ghost", t_ms, heart_left, score, moves });
const stat = (name) => panel.querySelector(`[data-ghost-stat=${name}]`).textContent;
const line = () => panel.querySelector("[data-ghost-say]").textContent;
const spoken = () => panel.querySelector("[data-ghost-live]").textContent;

beforeEach(() => {
  const { document } = page();
  document.body.innerHTML = PANEL;
  panel = document.querySelector("[data-ghost]");
});

test("each ghost frame shows its three numbers", () => {
  const receive = bindGhost(panel);
  receive(at(1200, 21, 40, 9));
  assert.deepEqual([stat("heart_left"), stat("score"), stat("moves")], ["21", "40", "9"]);
  assert.equal(panel.dataset.moves, "9");
});

test("screen readers hear the start and each fifth heart, not every move", () => {
  const receive = bindGhost(panel);
  receive(at(0, 25, 0, 1));
  assert.equal(spoken(), "The ghost is off.");
  assert.equal(line(), "Racing the ghost.");
  receive(at(500, 23, 20, 2));
  assert.equal(spoken(), "The ghost is off."); // nothing new worth saying
  receive(at(900, 20, 50, 4));
  assert.equal(spoken(), "The ghost has 20 hearts left.");
  assert.equal(line(), "Racing the ghost."); // the line never goes stale
});

test("the ghost's finish stays on the panel, then who won", () => {
  const receive = bindGhost(panel);
  receive(at(0, 25, 0, 1));
  receive(at(83_000, 0, 250, 90));
  assert.equal(line(), "The ghost cleared the heart in 1:23.");
  receive({ type: "ghost_end", winner: "ghost", t_ms: 83_000, heart_left: 0, score: 250, moves: 90 });
  assert.equal(line(), "The ghost won this race.");
  assert.equal(spoken(), "The ghost won this race.");
  assert.equal(panel.dataset.winner, "ghost");
});

test("frames that are not the ghost's are left alone", () => {
  bindGhost(panel)({ type: "watchers", count: 2 });
  assert.equal(stat("moves"), "0");
});

test("the winner's words say how long a beaten ghost took, if it cleared the heart", () => {
  const end = (winner, heart_left) => ({ type: "ghost_end", winner, heart_left, t_ms: 318_000 });
  assert.equal(winnerText(end("you", 4)), "You beat the ghost!");
  assert.equal(winnerText(end("you", 0)), "You beat the ghost! It took 5:18 to clear the heart.");
  assert.equal(winnerText(end("tie", 0)), "A tie with the ghost.");
  assert.equal(winnerText(end("ghost", 0)), "The ghost won this race.");
  assert.equal(ghostNews(at(0, 25, 0, 3), at(10, 25, 0, 4)), "");
});
