// The play page's end-of-game windows: won, no more moves, and ended, each opened once as the
// view calls for it and filled from the state (summary.js).
import { interpolate, ngettext } from "../site/i18n.js";
import { hide, show } from "./dialogs.js";
import { fillFinish } from "./summary.js";

function fill(dialog, slot, text) {
  const node = dialog.querySelector(`[data-slot=${slot}]`);
  if (node) node.textContent = text;
}

function fillWin(dialog, state, layout) {
  const { view } = state;
  fillFinish(dialog, state, layout);
  fill(dialog, "score", String(view.score));
  const undos = view.undos || 0;
  fill(
    dialog,
    "note",
    undos ? interpolate(ngettext("%(n)s undo", "%(n)s undos", undos), { n: undos }) : "",
  );
}

/** Which end-of-game window the view calls for: "won", "deadlock", "ended" or "open". A game
 * resigned while deadlocked is over: its summary replaces the deadlock window. */
export function windowFor(state) {
  if (state.view.won) return "won";
  if (state.game.status !== "open") return "ended";
  return state.view.deadlocked ? "deadlock" : "open";
}

/** Open or close the windows the view calls for; each opens once per occurrence. `ui` holds
 * the page's `dialogs` and which one it shows; `layout` draws the share card's heart. */
export function syncWindows(ui, state, layout) {
  const { deadlock, win, ended } = ui.dialogs;
  if (!win) return; // only the play page has them
  const status = windowFor(state);
  if (status === "won") fillWin(win, state, layout);
  if (status === "ended") fillFinish(ended, state, layout);
  if (status === ui.shownStatus) return;
  ui.shownStatus = status;
  [deadlock, win, ended].forEach(hide);
  show({ won: win, deadlock, ended }[status]);
}
