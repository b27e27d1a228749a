// A page around one game's board (the play page, a racer's board, a spectator's): the board,
// the socket to its game, the clock, and the messages around the table. The board only shows
// and permits (static/board/); this sends what it permits and shows what the server answers.
import { createBoard, readOnlyState } from "../board/board.js";
import { createState } from "../board/state.js";
import { settingsRequest } from "../board/transitions.js";
import { LOGGED_OUT } from "../socket/close-codes.js";
import { Connection } from "../socket/socket.js";
import { startClock } from "./clock.js";
import { onFrame } from "./frames.js";

function collectUi(root) {
  const offline = root.querySelector(".h2h-offline");
  return {
    time: root.querySelector("[data-stat=time]"),
    toast: root.querySelector(".h2h-toast"),
    live: root.querySelector(".h2h-live"),
    offline,
    offlineText: offline?.textContent ?? "",
  };
}

/** Number and send a message; the root counts those not yet answered, so tests and tools can
 * wait for the server. */
function send(page, message) {
  if (!message || !page.conn || page.readOnly) return;
  page.conn.send(message);
  page.root.dataset.pending = String(page.conn.unacked.size);
}

/** What the board permits goes out, a resignation once the page's question (if any) says yes. */
function onRequest(page, message, intent) {
  const asked = intent === "resign" && page.options.confirmResign?.(page.board.state);
  if (!asked) return send(page, message);
  asked.then((yes) => yes && send(page, message));
}

function makeBoard(page, layout, state = null) {
  const { root, readOnly } = page;
  return createBoard(root, { layout, state, readOnly, onRequest: (...r) => onRequest(page, ...r) });
}

/** The board's offline notice: hidden while online, else "reconnecting", or why the server
 * refused it (`final`: for good; `wait`: too many tabs, retried rarely). */
function showNotice(ui, online, notice) {
  if (!ui.offline) return;
  const reason = !online && notice?.text;
  ui.offline.hidden = online;
  ui.offline.textContent = reason || ui.offlineText;
  ui.offline.dataset.notice = reason ? (notice.final ? "final" : "wait") : "";
}

function onStatus(page, online, closeCode, notice) {
  const state = page.board?.state;
  // Logged out (here or in another tab): reloading leads through the login page and back. A
  // socket refused before its board was ready says why instead, so it cannot reload forever.
  if (closeCode === LOGGED_OUT && state?.ready && !page.readOnly) return location.reload();
  showNotice(page.ui, online, notice);
  if (!state) return;
  state.online = online;
  if (online && state.ready) send(page, settingsRequest(state));
  page.board.redraw();
}

/** Open the game's socket on `path`: numbered messages, each frame shown as it comes. */
function connect(page, path) {
  page.conn = new Connection(path, {
    numbered: !page.readOnly,
    onFrame: (frame) => onFrame(page, frame),
    onStatus: (online, closeCode, notice) => onStatus(page, online, closeCode, notice),
  });
  page.conn.open();
}

function firstState({ view = null, game = null, readOnly }) {
  if (!view) return null;
  return readOnly ? readOnlyState(view, game) : createState(view, game);
}

/** The game page in `root`. Options: `layout`, `view` and `game` (the page's snapshot; without
 * them the board waits for its socket's greeting), `readOnly`, `socket` (the path to open),
 * `confirmResign(state)` (a promise of the player's yes, or null to resign at once),
 * `onShow(page)` (called after each state is shown) and `onOther(frame)` (a frame of a kind
 * the game itself does not use). */
export function openGame(root, options = {}) {
  const readOnly = Boolean(options.readOnly);
  const page = { root, options, readOnly, ui: collectUi(root), board: null, conn: null };
  page.frames = 0;
  page.send = (message) => send(page, message);
  page.makeBoard = (layout, state) => makeBoard(page, layout, state);
  if (options.layout) page.board = page.makeBoard(options.layout, firstState(options));
  startClock(page.ui.time, () => page.board?.state);
  if (options.socket) connect(page, options.socket);
  return page;
}
