// The play page: the board on the server's snapshot (json_script), its socket, and the page's
// own controls around it.
import { createBoard } from "./board.js";
import { bindControls, RESIGN_QUESTION } from "./controls.js";

const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

function boot() {
  const root = document.getElementById("board");
  const board = createBoard(root, {
    view: readJson("h2h-view"),
    game: readJson("h2h-game"),
    socket: root.dataset.wsPath,
    resignQuestion: (state) => (state.game.ranked ? RESIGN_QUESTION() : null),
  });
  bindControls(board, document.getElementById("h2h-new"));
}

boot();
