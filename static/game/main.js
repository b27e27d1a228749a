// The play page: the board on the server's snapshot (json_script), its socket, and the page's
// own controls around it.
import { createBoard } from "./board.js";
import { bindControls, RESIGN_QUESTION } from "./controls.js";
import { syncWindows } from "./windows.js";

const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

/** A page with no socket shows a finished game, the ranked daily's back on /daily/: its end
 * window opens on arrival, as when it ended, and again from "Your result". */
function showResult(board) {
  const open = () => {
    board.ui.shownStatus = null;
    syncWindows(board.ui, board.state);
  };
  document.querySelector("[data-action=show-result]")?.addEventListener("click", open);
  open();
  board.root.dataset.ready = "1";
}

function boot() {
  const root = document.getElementById("board");
  const socket = root.dataset.wsPath;
  const board = createBoard(root, {
    view: readJson("h2h-view"),
    game: readJson("h2h-game"),
    socket,
    readOnly: !socket,
    resignQuestion: (state) => (state.game.ranked ? RESIGN_QUESTION() : null),
  });
  bindControls(board, document.getElementById("h2h-new"));
  if (!socket) showResult(board);
}

boot();
