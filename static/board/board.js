// The board: it shows the state it is given and permits what the player may ask for, as
// chessground's board does. Split like it: plain state (state.js), pure transitions
// (transitions.js), rendering (render.js) and input (input.js), on a table laid out from the
// server's geometry (layout.js). No socket, no window, no clock: a page (static/pages/) wires
// those, shows each state with `show` and sends what the board hands to `onRequest`.
import { bindInput, focusTarget, keepTabStop } from "./input.js";
import { createLayout } from "./layout.js";
import { buildTable, render } from "./render.js";
import { createState } from "./state.js";
import { request } from "./transitions.js";

const $ = (selector, root) => root.querySelector(selector);

function collectUi(root, layout) {
  const heart = $(".h2h-heart", root);
  const stat = (name) => $(`[data-stat=${name}]`, root);
  return {
    root,
    heart,
    layout,
    nodes: buildTable(heart, layout),
    stats: { score: stat("score"), moves: stat("moves") },
    // Undo and Resign live in the controls and, on the play page, in the deadlock window too.
    controls: {
      undo: document.querySelectorAll("[data-action=undo]"),
      resign: document.querySelectorAll("[data-action=resign]"),
    },
    start: $("[data-start]", root),
  };
}

/** A read-only board shows hints as the player's board does (the view has none while their
 * help is off) and is online until its page says otherwise. */
export function readOnlyState(view, game) {
  const state = createState(view, game);
  state.settings = { ...state.settings, placementHelp: true };
  state.online = true;
  return state;
}

/** What the player can ask for: each checks only what the board knows (the server decides),
 * and hands a message to send on to `onRequest(message, intent)`. */
function makeIntents(board, onRequest) {
  const ask = (intent, target) => {
    const message = board.state && request(board.state, intent, target);
    if (message) onRequest(message, intent);
  };
  return {
    start: () => ask("start"),
    tap: (target) => ask("tap", target),
    undo: () => ask("undo"),
    resign: () => ask("resign"),
  };
}

function markReadOnly(nodes) {
  for (const node of nodes.values()) node.setAttribute("aria-disabled", "true");
}

/** Show `state`: the table and its controls in line with it, the tab stop kept on a card. */
function show(board, state) {
  const focused = document.activeElement;
  board.state = state;
  render(board.ui, state);
  keepTabStop(board.ui, focused);
}

/** The ranked game has started (in this tab or another): the cards take the focus from the
 * hidden Start button, unless the player has it elsewhere. */
function started(board) {
  const { ui, layout } = board;
  const focus = document.activeElement;
  if (ui.start?.contains(focus) || focus === document.body) focusTarget(ui.nodes, layout.tip);
}

/** The board in `root`, its table laid out from `layout` (the server's, docs/protocol.md).
 * Options: `state` (the first to show, or null), `readOnly` (no input: it only shows) and
 * `onRequest(message, intent)` (a message the player's intent sends now). The page calls
 * `show(state)` for each new state, `redraw()` when the same state changed in place (online,
 * a setting) and `started()` once a ranked game's Start has shown its cards. */
export function createBoard(root, { layout, state = null, readOnly = false, onRequest } = {}) {
  const table = createLayout(layout);
  const board = { root, readOnly, layout: table, ui: collectUi(root, table), state: null };
  board.show = (next) => show(board, next);
  board.redraw = () => board.state && show(board, board.state);
  board.started = () => started(board);
  board.intents = makeIntents(board, onRequest ?? (() => {}));
  if (readOnly) markReadOnly(board.ui.nodes);
  else bindInput(board.ui, board.intents);
  focusTarget(board.ui.nodes, table.tip, { move: false });
  if (state) board.show(state);
  return board;
}
