// One board for every page that shows a game: the play page, a racer's board, a spectator's
// and a replay's. Split as chessground splits its board: plain state (state.js), pure
// transitions (transitions.js), rendering (render.js), input (input.js) and the socket
// (socket.js). A read-only board binds no input and sends nothing: it shows the server's views.
import { onFrame } from "./frames.js";
import { bindInput, focusTarget } from "./input.js";
import { buildTable, render } from "./render.js";
import { Connection, LOGGED_OUT } from "./socket.js";
import { createState, elapsedMs, formatTime } from "./state.js";
import { request, settingsRequest } from "./transitions.js";
import { confirmWith } from "./windows.js";

const $ = (selector, root) => root.querySelector(selector);

function collectUi(root) {
  const heart = $(".h2h-heart", root);
  const stat = (name) => $(`[data-stat=${name}]`, root);
  const byId = (id) => document.getElementById(id);
  const offline = $(".h2h-offline", root);
  return {
    root,
    heart,
    nodes: buildTable(heart),
    stats: { time: stat("time"), score: stat("score"), moves: stat("moves") },
    // Undo and Resign live in the controls and, on the play page, in the deadlock window too.
    controls: {
      undo: document.querySelectorAll("[data-action=undo]"),
      resign: document.querySelectorAll("[data-action=resign]"),
    },
    toast: $(".h2h-toast", root),
    live: $(".h2h-live", root),
    offline,
    offlineText: offline?.textContent ?? "",
    start: $("[data-start]", root),
    dialogs: {
      deadlock: byId("h2h-deadlock"),
      win: byId("h2h-win"),
      ended: byId("h2h-ended"),
      confirm: byId("h2h-confirm"),
    },
    shownStatus: null,
  };
}

/** A read-only board shows hints as the player's board does (the view has none while their
 * help is off) and is online until its socket, if any, says otherwise. */
function readOnlyState(view, game) {
  const state = createState(view, game);
  state.settings = { ...state.settings, placementHelp: true };
  state.online = true;
  return state;
}

/** Number and send a message; the root counts those not yet answered, so tests and tools can
 * wait for the server. */
function send(board, message) {
  if (!message || !board.conn || board.readOnly) return;
  board.conn.send(message);
  board.root.dataset.pending = String(board.conn.unacked.size);
}

function resign(board) {
  const message = request(board.state, "resign");
  const question = message && board.options.resignQuestion?.(board.state);
  if (!question) return send(board, message);
  confirmWith(board.ui.dialogs.confirm, question).then((yes) => yes && send(board, message));
}

/** What the player can ask for; each checks only what the board knows (the server decides). */
function makeIntents(board) {
  const ask = (intent, target) => board.state && send(board, request(board.state, intent, target));
  return {
    start: () => ask("start"),
    tap: (target) => ask("tap", target),
    undo: () => ask("undo"),
    resign: () => board.state && resign(board),
  };
}

function markReadOnly(nodes) {
  for (const node of nodes.values()) node.setAttribute("aria-disabled", "true");
}

function bindPlayer(board) {
  bindInput(board.ui, board.intents);
  document.addEventListener("click", (event) => {
    const action = event.target.closest?.("[data-action]")?.dataset.action;
    if (["start", "undo", "resign"].includes(action)) board.intents[action]();
  });
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

function onStatus(board, online, closeCode, notice) {
  // Logged out (here or in another tab): reloading leads through the login page and back. A
  // socket refused before its board was ready says why instead, so it cannot reload forever.
  if (closeCode === LOGGED_OUT && board.state?.ready && !board.readOnly) return location.reload();
  showNotice(board.ui, online, notice);
  if (!board.state) return;
  board.state.online = online;
  if (online && board.state.ready) send(board, settingsRequest(board.state));
  render(board.ui, board.state);
}

/** Open the game's socket on `path`: numbered messages, each frame shown as it comes. */
function connect(board, path) {
  board.conn = new Connection(path, {
    numbered: !board.readOnly,
    onFrame: (frame) => onFrame(board, frame),
    onStatus: (online, closeCode, notice) => onStatus(board, online, closeCode, notice),
  });
  board.conn.open();
}

/** The time ticks from the server's start (corrected for this device's clock). */
function startClock(board) {
  const tick = () => {
    const node = board.ui.stats.time;
    if (!board.state || !node) return;
    const text = formatTime(elapsedMs(board.state));
    if (node.textContent !== text) node.textContent = text;
  };
  tick();
  setInterval(tick, 250);
}

/** The board in `root`. Options: `view`, `game` (the first snapshot; without them the board
 * waits for its socket's), `readOnly`, `socket` (the path to open), `clock` (false: the page
 * sets the time itself), `resignQuestion(state)` (a question to confirm first, or null) and
 * `onState(board)` (called after each state frame is shown). */
export function createBoard(root, options = {}) {
  const { view = null, game = null, readOnly = false } = options;
  const board = { root, options, readOnly, ui: collectUi(root), state: null, conn: null };
  board.frames = 0;
  if (view) board.state = readOnly ? readOnlyState(view, game) : createState(view, game);
  board.show = (frame) => onFrame(board, frame);
  board.send = (message) => send(board, message);
  board.connect = (path) => connect(board, path);
  board.intents = makeIntents(board);
  if (readOnly) markReadOnly(board.ui.nodes);
  else bindPlayer(board);
  focusTarget(board.ui.nodes, 25, { move: false });
  if (board.state) render(board.ui, board.state);
  if (options.clock !== false) startClock(board);
  if (options.socket) connect(board, options.socket);
  return board;
}
