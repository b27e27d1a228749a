// The play page: reads the server's view from json_script, draws it, and talks to the referee.
import { cardName } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";
import { bindInput, focusTarget, keepTabStop } from "./input.js";
import { buildTable, render } from "./render.js";
import { Connection } from "./socket.js";
import { applyFrame, createState, elapsedMs, formatTime, isOver, saveSettings } from "./state.js";
import { announce, confirmWith, copyText, shareText, syncWindows, toast } from "./windows.js";

const $ = (selector, root = document) => root.querySelector(selector);
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

function collectUi(root) {
  const heart = $(".h2h-heart", root);
  const stat = (name) => $(`[data-stat=${name}]`, root);
  const control = (name) => $(`[data-action=${name}]`, root);
  return {
    root,
    heart,
    nodes: buildTable(heart),
    stats: { time: stat("time"), score: stat("score"), moves: stat("moves") },
    controls: { undo: control("undo"), resign: control("resign"), code: control("copy-code") },
    toast: $(".h2h-toast", root),
    live: $(".h2h-live", root),
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

function describe(state, frame) {
  const before = state.previous;
  if (frame.event === "pair" && before) {
    const gone = before.heart.find((c, i) => c && !state.view.heart[i]);
    return gone ? interpolate(gettext("Pair removed: %(card)s"), { card: cardName(gone.rank) }) : "";
  }
  if (frame.event === "draw") return cardName(state.view.waste.top);
  if (frame.event === "redeal") return gettext("Stock turned over");
  if (frame.event === "undo") return gettext("Move undone");
  return "";
}

function endNotice(state) {
  if (state.view.won) return gettext("You won!");
  if (state.view.deadlocked) return gettext("No more moves possible");
  return "";
}

function boot() {
  const root = document.getElementById("board");
  const ui = collectUi(root);
  const state = createState(readJson("h2h-view"), readJson("h2h-game"));
  const sync = () => {
    const focused = document.activeElement;
    render(ui, state);
    keepTabStop(ui.nodes, focused);
    syncWindows(ui, state);
  };

  let frames = 0;

  function onFrame(frame) {
    // Counted on the element so tests and tools can wait for the server's answer.
    root.dataset.frames = String(++frames);
    if (frame.type === "error") return onError(frame);
    if (frame.type !== "state" || !frame.view) return;
    const wasEnd = endNotice(state);
    applyFrame(state, frame);
    root.dataset.event = frame.event || "state";
    if (frame.event === "mismatch" && state.settings.moveErrors) {
      const text = frame.reason === "same_rank" ? gettext("Must be same rank") : frame.message;
      if (text) toast(ui.toast, text);
    }
    const end = endNotice(state);
    const said = end && end !== wasEnd ? end : describe(state, frame);
    if (said) announce(ui.live, said);
    if (!state.ready) ready();
    sync();
  }

  function onError(frame) {
    if (frame.error === "duplicate_seq") return;
    const text = frame.message || gettext("That did not work.");
    toast(ui.toast, text);
    announce(ui.live, text);
  }

  function ready() {
    state.ready = true;
    root.dataset.ready = "1";
    performance.mark?.("h2h-ready");
  }

  const conn = new Connection(root.dataset.wsPath, {
    onFrame,
    onStatus(online) {
      state.online = online;
      $(".h2h-offline", root).hidden = online;
      if (online && state.ready) syncSettings();
      render(ui, state);
    },
  });

  function sendSettings() {
    conn.send({ type: "settings", placement_help: state.settings.placementHelp });
  }

  // The server keeps the setting in the game's log; tell it only when it differs from ours.
  function syncSettings() {
    if (state.game.placement_help !== state.settings.placementHelp && !isOver(state)) sendSettings();
  }

  const intents = {
    tap(target) {
      if (state.online && !isOver(state)) conn.send({ type: "tap", target });
    },
    undo() {
      if (state.online && state.view.can_undo && !state.view.won) conn.send({ type: "undo" });
    },
    async resign() {
      if (!state.online || isOver(state)) return;
      if (state.game.ranked && !(await confirmWith(ui.dialogs.confirm, gettext("Resign this ranked game? It will count as your result.")))) return;
      conn.send({ type: "resign" });
    },
  };

  bindInput(ui, intents);
  bindControls(ui, state, intents, sendSettings);
  startClock(ui, state);
  focusTarget(ui.nodes, 25, { move: false });
  render(ui, state);
  conn.open();
}

function bindControls(ui, state, intents, sendSettings) {
  document.addEventListener("click", async (event) => {
    const button = event.target.closest?.("[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "undo") intents.undo();
    else if (action === "resign") intents.resign();
    else if (action === "copy-code") copied(button, await copyText(state.view.code));
    else if (action === "copy-share") copied(button, await copyText(shareText(state, `${location.origin}/play/${state.view.code}/`)));
  });
  ui.newGame?.addEventListener("submit", async (event) => {
    const open = state.game.status === "open" && !state.view.won;
    if (!state.game.ranked || !open || ui.newGame.dataset.confirmed) return;
    event.preventDefault();
    for (const d of Object.values(ui.dialogs)) if (d.open) d.close();
    if (await confirmWith(ui.dialogs.confirm, gettext("Start a new game? This ranked game will end and count as your result."))) {
      ui.newGame.dataset.confirmed = "1";
      ui.newGame.requestSubmit();
    }
  });
  for (const box of ui.root.querySelectorAll("[data-setting]")) {
    box.checked = Boolean(state.settings[box.dataset.setting]);
    box.addEventListener("change", () => {
      state.settings[box.dataset.setting] = box.checked;
      saveSettings(state.settings);
      if (box.dataset.setting === "placementHelp" && state.online) sendSettings();
      render(ui, state);
    });
  }
}

function copied(button, ok) {
  const label = button.querySelector("[data-slot=copied]");
  if (!label) return;
  label.textContent = ok ? gettext("Copied") : gettext("Copy failed");
  label.hidden = false;
  setTimeout(() => (label.hidden = true), 1600);
}

function startClock(ui, state) {
  const tick = () => {
    const text = formatTime(elapsedMs(state));
    if (ui.stats.time.textContent !== text) ui.stats.time.textContent = text;
  };
  tick();
  setInterval(tick, 250);
}

boot();
