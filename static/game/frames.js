// What a frame from the server does to the page: replace the view, say what happened, open
// the windows the new view calls for.
import { cardName } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";
import { keepTabStop } from "./input.js";
import { render } from "./render.js";
import { applyFrame } from "./state.js";
import { announce, syncWindows, toast } from "./windows.js";
import { showWatchers } from "../live/watchers.js";

/** Bring the whole page in line with the state after a change. */
export function sync(app) {
  const focused = document.activeElement;
  render(app.ui, app.state);
  keepTabStop(app.ui.nodes, focused);
  syncWindows(app.ui, app.state);
}

function describe(state, event) {
  const before = state.previous;
  if (event === "pair" && before) {
    const gone = before.heart.find((card, i) => card && !state.view.heart[i]);
    return gone
      ? interpolate(gettext("Pair removed: %(card)s"), { card: cardName(gone.rank) })
      : "";
  }
  if (event === "draw") return cardName(state.view.waste.top);
  if (event === "redeal") return gettext("Stock turned over");
  if (event === "undo") return gettext("Move undone");
  return "";
}

function endNotice(view) {
  if (view.won) return gettext("You won!");
  if (view.deadlocked) return gettext("No more moves possible");
  return "";
}

function explainMismatch(app, frame) {
  if (frame.event !== "mismatch" || !app.state.settings.moveErrors) return;
  const text = frame.reason === "same_rank" ? gettext("Must be same rank") : frame.message;
  if (text) toast(app.ui.toast, text);
}

function onState(app, frame) {
  const { state, ui } = app;
  const endBefore = endNotice(state.view);
  applyFrame(state, frame);
  ui.root.dataset.event = frame.event || "state";
  explainMismatch(app, frame);
  const end = endNotice(state.view);
  const said = end && end !== endBefore ? end : describe(state, frame.event);
  if (said) announce(ui.live, said);
  if (!state.ready) ready(app);
  sync(app);
  state.event = null; // animated once; a later repaint (a setting, the socket) must not replay it
}

function onError(app, frame) {
  if (frame.error === "duplicate_seq") return; // a resent action that was already applied
  const text = frame.message || gettext("That did not work.");
  toast(app.ui.toast, text);
  announce(app.ui.live, text);
}

function ready(app) {
  app.state.ready = true;
  app.ui.root.dataset.ready = "1";
  performance.mark?.("h2h-ready");
}

/** Handle one frame. The board counts frames and unanswered actions in data attributes, so
 * tests and tools can wait for the server's answer. */
export function onFrame(app, frame) {
  app.ui.root.dataset.frames = String(++app.frames);
  app.ui.root.dataset.pending = String(app.conn.unacked.size);
  if (frame.type === "error") onError(app, frame);
  else if (frame.type === "state" && frame.view) onState(app, frame);
  else if (frame.type === "watchers") showWatchers(frame.count); // spectators (static/live)
}
