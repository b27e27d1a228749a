// The spectator's page: the player's board as they see it, live, and how many watch.
import { elapsedMs, formatTime } from "../game/state.js";
import { fillSlot, LiveSocket, readJson } from "./socket.js";
import { createViewer } from "./viewer.js";

const $ = (selector) => document.querySelector(selector);

function boot() {
  const root = document.getElementById("board");
  const first = readJson("watch-snapshot");
  const viewer = createViewer(root, first.view, first.game);
  const watchers = $("[data-watchers]");
  const ended = $("[data-ended]");
  const badge = $("[data-watch-status]");
  let frames = 0;

  function showEnd() {
    const over = viewer.state.game.status !== "open" || viewer.state.view.won;
    ended.hidden = !over;
    if (over) badge.textContent = badge.dataset.finished;
    badge.classList.toggle("over", over);
  }

  const socket = new LiveSocket(root.dataset.wsPath, {
    onFrame(frame) {
      root.dataset.frames = String(++frames);
      if (frame.type === "state") {
        viewer.show(frame);
        showEnd();
      } else if (frame.type === "watchers") {
        fillSlot(watchers, "n", frame.count);
        watchers.hidden = false;
      } else if (frame.type === "error") {
        $(".h2h-toast", root).textContent = frame.message;
        $(".h2h-toast", root).hidden = false;
      }
    },
    onStatus(online) {
      $(".h2h-offline", root).hidden = online;
      viewer.setOnline(online);
      if (online) root.dataset.ready = "1";
    },
  });

  setInterval(() => {
    const text = formatTime(elapsedMs(viewer.state));
    const node = root.querySelector("[data-stat=time]");
    if (node.textContent !== text) node.textContent = text;
  }, 250);
  showEnd();
  socket.open();
}

boot();
