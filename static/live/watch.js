// The spectator's page: the player's board as they see it, live, and how many watch.
import { createBoard } from "../game/board.js";
import { readJson } from "./dom.js";

function showEnd(board) {
  const { state } = board;
  const over = state.game.status !== "open" || state.view.won;
  const badge = document.querySelector("[data-watch-status]");
  document.querySelector("[data-ended]").hidden = !over;
  if (over) badge.textContent = badge.dataset.finished;
  badge.classList.toggle("over", over);
}

function boot() {
  const root = document.getElementById("board");
  const first = readJson("watch-snapshot");
  const { view, game } = first;
  const board = createBoard(root, { view, game, readOnly: true, onState: showEnd });
  showEnd(board);
  board.connect(root.dataset.wsPath);
}

boot();
