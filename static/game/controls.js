// The buttons, settings and clock around the table; each becomes an intent for the server.
import { gettext } from "./i18n.js";
import { render } from "./render.js";
import { LOGGED_OUT } from "./socket.js";
import {
  awaitingStart,
  elapsedMs,
  formatTime,
  isOver,
  isPlayable,
  saveSettings,
} from "./state.js";
import { confirmWith, copyText, shareText } from "./windows.js";

const RESIGN_QUESTION = () => gettext("Resign this ranked game? It will count as your result.");
const NEW_GAME_QUESTION = () =>
  gettext("Start a new game? This ranked game will end and count as your result.");

function send(app, message) {
  app.conn.send(message);
  app.ui.root.dataset.pending = String(app.conn.unacked.size);
}

/** What the player can ask for; each checks only what the board knows (the server decides). */
export function makeIntents(app) {
  const { state, ui } = app;
  const playable = () => isPlayable(state);
  return {
    start() {
      if (state.online && awaitingStart(state)) send(app, { type: "start" });
    },
    tap(target) {
      if (playable()) send(app, { type: "tap", target });
    },
    undo() {
      if (playable() && state.view.can_undo) send(app, { type: "undo" });
    },
    async resign() {
      if (!playable()) return;
      if (state.game.ranked && !(await confirmWith(ui.dialogs.confirm, RESIGN_QUESTION()))) return;
      send(app, { type: "resign" });
    },
  };
}

export function sendSettings(app) {
  send(app, { type: "settings", placement_help: app.state.settings.placementHelp });
}

/** On (re)connect: the game's log keeps the setting; send ours only when it differs. */
export function syncSettings(app) {
  const { state } = app;
  const settable = !isOver(state) && !awaitingStart(state);
  if (state.game.placement_help !== state.settings.placementHelp && settable) {
    sendSettings(app);
  }
}

export function onStatus(app, online, closeCode) {
  if (closeCode === LOGGED_OUT) return loggedOut(app);
  app.state.online = online;
  app.ui.offline.hidden = online;
  if (online && app.state.ready) syncSettings(app);
  render(app.ui, app.state);
}

/** Logged out (here or in another tab): reloading leads through the login page and back.
 * A socket refused from the start shows why instead, so a page cannot reload forever. */
function loggedOut(app) {
  if (app.state.ready) return location.reload();
  app.state.online = false;
  app.ui.offline.textContent = gettext("Logged out: log in again to play.");
  app.ui.offline.hidden = false;
  render(app.ui, app.state);
}

function shareUrl(state) {
  return `${location.origin}/play/${state.view.code}/`;
}

async function onAction(app, intents, button) {
  const { state } = app;
  const action = button.dataset.action;
  if (action === "start") intents.start();
  else if (action === "undo") intents.undo();
  else if (action === "resign") intents.resign();
  else if (action === "copy-code") copied(button, await copyText(state.view.code));
  else if (action === "copy-share")
    copied(button, await copyText(shareText(state, shareUrl(state))));
}

/** New game over an open ranked game asks first; the form posts `ending` either way. */
async function onNewGame(app, event) {
  const { state, ui } = app;
  const form = ui.newGame;
  const open = state.game.status === "open" && !state.view.won;
  // Before its Start a ranked game has no clock to end: the server leaves it waiting.
  if (!state.game.ranked || !open || awaitingStart(state) || form.dataset.confirmed) return;
  event.preventDefault();
  for (const dialog of Object.values(ui.dialogs)) if (dialog.open) dialog.close();
  if (await confirmWith(ui.dialogs.confirm, NEW_GAME_QUESTION())) {
    form.dataset.confirmed = "1";
    form.requestSubmit();
  }
}

function bindSettings(app) {
  const { state, ui } = app;
  for (const box of ui.root.querySelectorAll("[data-setting]")) {
    box.checked = Boolean(state.settings[box.dataset.setting]);
    box.addEventListener("change", () => {
      state.settings[box.dataset.setting] = box.checked;
      saveSettings(state.settings);
      const settable = state.online && !awaitingStart(state);
      if (box.dataset.setting === "placementHelp" && settable) sendSettings(app);
      render(ui, state);
    });
  }
}

export function bindControls(app, intents) {
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-action]");
    if (button) onAction(app, intents, button);
  });
  app.ui.newGame?.addEventListener("submit", (event) => onNewGame(app, event));
  bindSettings(app);
}

function copied(button, ok) {
  const label = button.querySelector("[data-slot=copied]");
  if (!label) return;
  label.textContent = ok ? gettext("Copied") : gettext("Copy failed");
  label.hidden = false;
  setTimeout(() => (label.hidden = true), 1600);
}

/** The time ticks from the server's start (corrected for this device's clock). */
export function startClock(app) {
  const node = app.ui.stats.time;
  const tick = () => {
    const text = formatTime(elapsedMs(app.state));
    if (node.textContent !== text) node.textContent = text;
  };
  tick();
  setInterval(tick, 250);
}
