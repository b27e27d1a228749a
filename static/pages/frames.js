// What a frame from a game's socket does to its page (game.js): the board shows the new state,
// the player hears what happened, and the page's own hook (`onShow`) brings in the rest, such as
// the play page's windows.
import { receivePar, receiveState, settingsRequest } from "../board/transitions.js";
import { STORAGE_UNAVAILABLE } from "../socket/socket.js";
import { announce, showWatchers, toast } from "./messages.js";
import { errorText, refusalText, saidText } from "./news.js";

/** Show the board's state, then whatever else of the page goes with it. */
export function showState(page) {
  page.board.show(page.board.state);
  page.options.onShow?.(page);
}

function ready(page) {
  page.board.state.ready = true;
  page.root.dataset.ready = "1";
  performance.mark?.("h2h-ready");
}

/** The ranked game has started (in this tab or another): the board takes the focus to its
 * cards, and the player's settings go to the game. */
function started(page) {
  page.board.started();
  page.send(settingsRequest(page.board.state));
}

function tell(page, said, refused) {
  if (page.readOnly) return; // a spectator's page does not speak for the player
  const shown = refusalText(refused);
  if (shown) toast(page.ui.toast, shown);
  const heard = saidText(said);
  if (heard) announce(page.ui.live, heard);
}

function onState(page, frame) {
  const { state, said, refused } = receiveState(page.board?.state ?? null, frame);
  page.board ??= page.makeBoard(frame.layout);
  page.board.state = state;
  page.root.dataset.event = frame.event || "state";
  tell(page, said, refused);
  if (!state.ready) ready(page);
  showState(page);
  if (frame.event === "start") started(page);
  state.event = null; // animated once; a later repaint (a setting, the socket) must not replay it
}

function onError(page, frame) {
  if (frame.error === "duplicate_seq") return; // a resent action that was already applied
  if (frame.error === STORAGE_UNAVAILABLE) return; // sent again: the notice says so (socket.js)
  const text = errorText(frame);
  toast(page.ui.toast, text);
  if (page.ui.live) announce(page.ui.live, text);
}

/** Handle one frame. The page counts frames and unanswered actions in data attributes, so
 * tests and tools can wait for the server's answer. */
export function onFrame(page, frame) {
  page.root.dataset.frames = String(++page.frames);
  page.root.dataset.pending = String(page.conn?.unacked.size ?? 0);
  if (frame.type === "error") onError(page, frame);
  else if (frame.type === "state" && frame.view) onState(page, frame);
  else if (frame.type === "watchers") showWatchers(frame.count);
  else if (frame.type === "par" && receivePar(page.board?.state, frame)) showState(page);
  else page.options.onOther?.(frame); // the page's own frames, such as the ghost's
}
