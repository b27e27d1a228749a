// The spectator's page: the player's board as they see it, live, and how many watch. It shows
// and sends nothing of its own: no window, no share card.
import { readJson } from "../site/dom.js";
import { openGame } from "./game.js";

function showEnd(page) {
  const { state } = page.board;
  const over = state.game.status !== "open" || state.view.won;
  const badge = document.querySelector("[data-watch-status]");
  document.querySelector("[data-ended]").hidden = !over;
  if (over) badge.textContent = badge.dataset.finished;
  badge.classList.toggle("over", over);
}

function boot() {
  const root = document.getElementById("board");
  const { view, game } = readJson("watch-snapshot");
  const layout = readJson("h2h-layout");
  const socket = root.dataset.wsPath;
  showEnd(openGame(root, { layout, view, game, socket, readOnly: true, onShow: showEnd }));
}

boot();
