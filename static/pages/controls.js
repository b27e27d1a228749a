// The play page's own controls around the board: the settings switches, the copy buttons and
// New game. The board (static/board/) handles Start, Undo and Resign.
import { awaitingStart, saveSettings } from "../board/state.js";
import { settingsRequest } from "../board/transitions.js";
import { copyText } from "../site/clipboard.js";
import { gettext } from "../site/i18n.js";
import { confirmWith } from "../windows/dialogs.js";
import { shareTextNear } from "../windows/summary.js";

export const RESIGN_QUESTION = () =>
  gettext("Resign this ranked game? It will count as your result.");
const NEW_GAME_QUESTION = () =>
  gettext("Start a new game? This ranked game will end and count as your result.");

async function onCopy(page, button) {
  const { state } = page.board;
  const action = button.dataset.action;
  if (action === "copy-code") copied(button, await copyText(state.view.code));
  else if (action === "copy-share") copied(button, await copyText(shareTextNear(button)));
}

/** The Web Share API where the browser has it (phones): the system's own share sheet. */
async function onShare(button) {
  try {
    await navigator.share({ text: shareTextNear(button) });
  } catch {
    // The player closed the sheet, or the browser refused: the Copy button is beside it.
  }
}

/** New game over an open ranked game asks first; the form posts `ending` either way. */
async function onNewGame(page, form, event) {
  const { ui } = page;
  const { state } = page.board;
  const open = state.game.status === "open" && !state.view.won;
  // Before its Start a ranked game has no clock to end: the server leaves it waiting.
  if (!state.game.ranked || !open || awaitingStart(state) || form.dataset.confirmed) return;
  event.preventDefault();
  for (const dialog of Object.values(ui.dialogs)) if (dialog?.open) dialog.close();
  if (await confirmWith(ui.dialogs.confirm, NEW_GAME_QUESTION())) {
    form.dataset.confirmed = "1";
    form.requestSubmit();
  }
}

function bindSettings(page) {
  const { board } = page;
  const { state } = board;
  for (const box of page.root.querySelectorAll("[data-setting]")) {
    box.checked = Boolean(state.settings[box.dataset.setting]);
    box.addEventListener("change", () => {
      state.settings[box.dataset.setting] = box.checked;
      saveSettings(state.settings);
      if (box.dataset.setting === "placementHelp") page.send(settingsRequest(state));
      board.redraw();
    });
  }
}

export function bindControls(page, newGame) {
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-action^=copy], [data-action=share]");
    if (button?.dataset.action === "share") onShare(button);
    else if (button) onCopy(page, button);
  });
  newGame?.addEventListener("submit", (event) => onNewGame(page, newGame, event));
  bindSettings(page);
}

function copied(button, ok) {
  const label = button.querySelector("[data-slot=copied]");
  if (!label) return;
  label.textContent = ok ? gettext("Copied") : gettext("Copy failed");
  label.hidden = false;
  setTimeout(() => (label.hidden = true), 1600);
}
