// The end-of-game windows, confirmations and the little messages around the board.
import { interpolate, ngettext } from "./i18n.js";
import { fillFinish } from "./summary.js";
import { windowFor } from "./transitions.js";

/** Open a window at its top, over the page as it was: showModal() focuses the window's first
 * control and scrolls the window, and the page, to bring it into view, which on a short screen
 * hid the window's title and result. The control keeps the focus; nothing moves. */
function show(dialog) {
  if (!dialog || dialog.open) return;
  const [x, y] = [window.scrollX, window.scrollY];
  dialog.showModal();
  dialog.scrollTop = 0;
  window.scrollTo(x, y);
}

function hide(dialog) {
  if (dialog?.open) dialog.close();
}

/** Ask a yes/no question in the page's own dialog; resolves true on yes. */
export function confirmWith(dialog, message) {
  dialog.querySelector("[data-slot=question]").textContent = message;
  show(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

function fill(dialog, slot, text) {
  const node = dialog.querySelector(`[data-slot=${slot}]`);
  if (node) node.textContent = text;
}

function fillWin(dialog, state) {
  const { view } = state;
  fillFinish(dialog, state);
  fill(dialog, "score", String(view.score));
  const undos = view.undos || 0;
  fill(
    dialog,
    "note",
    undos ? interpolate(ngettext("%(n)s undo", "%(n)s undos", undos), { n: undos }) : "",
  );
}

/** Open or close the windows the view calls for; each opens once per occurrence. */
export function syncWindows(ui, state) {
  const { deadlock, win, ended } = ui.dialogs;
  if (!win) return; // only the play page has them
  const status = windowFor(state);
  if (status === "won") fillWin(win, state);
  if (status === "ended") fillFinish(ended, state);
  if (status === ui.shownStatus) return;
  ui.shownStatus = status;
  [deadlock, win, ended].forEach(hide);
  show({ won: win, deadlock, ended }[status]);
}

/** Copy text to the clipboard; falls back to a selection copy on insecure origins. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "vh";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

let toastTimer = null;

/** A short visible message over the table (it is also read out by the live region). */
export function toast(node, text, ms = 2600) {
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), ms);
}

/** Tell screen readers; the same text twice in a row is still announced. */
export function announce(node, text) {
  node.textContent = node.textContent === text ? `${text}\u00a0` : text;
}

/** How many watch the player's game (the "watchers" frames, docs/protocol.md "Spectating"):
 * the page's [data-watchers] element shows the number, hidden while nobody watches. */
export function showWatchers(count) {
  const node = document.querySelector("[data-watchers]");
  if (!node) return;
  node.querySelector("[data-slot=n]").textContent = String(count);
  node.hidden = !count;
}
