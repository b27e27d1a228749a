// What a frame from the server does to the page: replace the view, say what happened, open
// the windows the new view calls for.
import { gettext } from "./i18n.js";
import { focusTarget, keepTabStop } from "./input.js";
import { render } from "./render.js";
import { STORAGE_UNAVAILABLE } from "./socket.js";
import { receivePar, receiveState, settingsRequest } from "./transitions.js";
import { announce, showWatchers, syncWindows, toast } from "./windows.js";

/** Bring the whole page in line with the state after a change. */
export function sync(board) {
  const focused = document.activeElement;
  render(board.ui, board.state);
  keepTabStop(board.ui.nodes, focused);
  if (!board.readOnly) syncWindows(board.ui, board.state);
}

function ready(board) {
  board.state.ready = true;
  board.root.dataset.ready = "1";
  performance.mark?.("h2h-ready");
}

/** The ranked game has started (in this tab or another): the cards take the focus from the
 * hidden Start button, and the board's settings go to the game. */
function started(board) {
  const focus = document.activeElement;
  if (board.ui.start?.contains(focus) || focus === document.body) focusTarget(board.ui.nodes, 25);
  board.send(settingsRequest(board.state));
}

function tell(board, said, shown) {
  if (board.readOnly) return; // a spectator's page does not speak for the player
  if (shown) toast(board.ui.toast, shown);
  if (said) announce(board.ui.live, said);
}

function onState(board, frame) {
  const { state, said, toast: shown } = receiveState(board.state, frame);
  board.state = state;
  board.root.dataset.event = frame.event || "state";
  tell(board, said, shown);
  if (!state.ready) ready(board);
  sync(board);
  if (frame.event === "start") started(board);
  board.options.onState?.(board);
  state.event = null; // animated once; a later repaint (a setting, the socket) must not replay it
}

function onError(board, frame) {
  if (frame.error === "duplicate_seq") return; // a resent action that was already applied
  if (frame.error === STORAGE_UNAVAILABLE) return; // sent again: the notice says so (socket.js)
  const text = frame.message || gettext("That did not work.");
  toast(board.ui.toast, text);
  if (board.ui.live) announce(board.ui.live, text);
}

/** Handle one frame. The board counts frames and unanswered actions in data attributes, so
 * tests and tools can wait for the server's answer. */
export function onFrame(board, frame) {
  board.root.dataset.frames = String(++board.frames);
  board.root.dataset.pending = String(board.conn?.unacked.size ?? 0);
  if (frame.type === "error") onError(board, frame);
  else if (frame.type === "state" && frame.view) onState(board, frame);
  else if (frame.type === "watchers") showWatchers(frame.count);
  else if (frame.type === "par" && receivePar(board.state, frame)) sync(board);
}
