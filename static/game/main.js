// The play page: reads the server's view from json_script, draws it, and talks to the referee.
import { bindControls, makeIntents, onStatus, startClock, syncSettings } from "./controls.js";
import { onFrame } from "./frames.js";
import { bindInput, focusTarget } from "./input.js";
import { buildTable, render } from "./render.js";
import { Connection } from "./socket.js";
import { createState } from "./state.js";

const $ = (selector, root = document) => root.querySelector(selector);
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

function collectUi(root) {
  const heart = $(".h2h-heart", root);
  const stat = (name) => $(`[data-stat=${name}]`, root);
  const control = (name) => $(`.h2h-controls [data-action=${name}]`, root);
  return {
    root,
    heart,
    nodes: buildTable(heart),
    stats: { time: stat("time"), score: stat("score"), moves: stat("moves") },
    // Undo lives in the controls and in the deadlock window.
    controls: { undo: document.querySelectorAll("[data-action=undo]"), resign: control("resign") },
    toast: $(".h2h-toast", root),
    live: $(".h2h-live", root),
    offline: $(".h2h-offline", root),
    start: $("[data-start]", root),
    newGame: $("#h2h-new", root),
    dialogs: {
      deadlock: $("#h2h-deadlock"),
      win: $("#h2h-win"),
      ended: $("#h2h-ended"),
      confirm: $("#h2h-confirm"),
    },
    shownStatus: null,
  };
}

/** The ranked game has started (in this tab or another): the cards take the focus from the
 * hidden Start button, and the board's settings go to the game. */
function started(app) {
  if (app.ui.start?.contains(document.activeElement) || document.activeElement === document.body)
    focusTarget(app.ui.nodes, 25);
  syncSettings(app);
}

function boot() {
  const root = document.getElementById("board");
  const app = {
    ui: collectUi(root),
    state: createState(readJson("h2h-view"), readJson("h2h-game")),
    frames: 0,
  };
  app.conn = new Connection(root.dataset.wsPath, {
    onFrame: (frame) => {
      onFrame(app, frame);
      if (frame.event === "start") started(app);
    },
    onStatus: (online, closeCode) => onStatus(app, online, closeCode),
  });
  const intents = makeIntents(app);
  bindInput(app.ui, intents);
  bindControls(app, intents);
  startClock(app);
  focusTarget(app.ui.nodes, 25, { move: false });
  render(app.ui, app.state);
  app.conn.open();
}

boot();
