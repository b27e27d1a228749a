// The play page: the board on the server's snapshot (json_script), its socket and clock, the
// end-of-game windows, and the page's own controls around it.
import { readJson } from "../site/dom.js";
import { confirmWith } from "../windows/dialogs.js";
import { syncWindows } from "../windows/windows.js";
import { bindControls, RESIGN_QUESTION } from "./controls.js";
import { openGame } from "./game.js";
import { bindGhost } from "./ghost.js";

function collectDialogs() {
  const byId = (id) => document.getElementById(id);
  return {
    deadlock: byId("h2h-deadlock"),
    win: byId("h2h-win"),
    ended: byId("h2h-ended"),
    confirm: byId("h2h-confirm"),
  };
}

/** A page with no socket shows a finished game, the ranked daily's back on /daily/: its end
 * window opens on arrival, as when it ended, and again from "Your result". */
function showResult(page) {
  const open = () => {
    page.ui.shownStatus = null;
    syncWindows(page.ui, page.board.state, page.board.layout);
  };
  document.querySelector("[data-action=show-result]")?.addEventListener("click", open);
  open();
  page.root.dataset.ready = "1";
}

function boot() {
  const root = document.getElementById("board");
  const socket = root.dataset.wsPath;
  const dialogs = collectDialogs();
  const ghost = root.querySelector("[data-ghost]");
  const page = openGame(root, {
    layout: readJson("h2h-layout"),
    view: readJson("h2h-view"),
    game: readJson("h2h-game"),
    socket,
    readOnly: !socket,
    confirmResign: (state) =>
      state.game.ranked ? confirmWith(dialogs.confirm, RESIGN_QUESTION()) : null,
    onShow: (shown) => syncWindows(shown.ui, shown.board.state, shown.board.layout),
    onOther: ghost ? bindGhost(ghost) : null,
  });
  Object.assign(page.ui, { dialogs, shownStatus: null });
  bindControls(page, document.getElementById("h2h-new"));
  if (!socket) showResult(page);
}

boot();
