// A read-only board: the play page's own rendering (static/game) fed with views from the
// server, for spectators and replays. No input is bound; the server's view is all it shows.
import { buildTable, render } from "../game/render.js";
import { applyFrame, createState } from "../game/state.js";

const $ = (selector, root) => root.querySelector(selector);

export function createViewer(root, view, game) {
  const heart = $(".h2h-heart", root);
  const stat = (name) => $(`[data-stat=${name}]`, root);
  const ui = {
    root,
    heart,
    nodes: buildTable(heart),
    stats: { time: stat("time"), score: stat("score"), moves: stat("moves") },
    controls: { undo: [], resign: {} }, // a viewer has none
  };
  for (const node of ui.nodes.values()) node.setAttribute("aria-disabled", "true");
  const state = createState(view, game);
  // Hints as the player's board shows them: the view carries none while their help is off.
  state.settings = { ...state.settings, placementHelp: true };
  state.online = true;
  render(ui, state);
  return {
    state,
    ui,
    /** Show a frame {view, event?, game?} from the server. */
    show(frame) {
      applyFrame(state, frame);
      render(ui, state);
    },
    setOnline(online) {
      state.online = online;
      render(ui, state);
    },
  };
}
