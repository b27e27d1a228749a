// A racer's own board: the play page's modules (static/game) on the player's race game, over
// the play socket. It appears when the race starts; the server decides everything it shows.
import { gettext } from "../game/i18n.js";
import { bindInput, focusTarget, keepTabStop } from "../game/input.js";
import { buildTable, render } from "../game/render.js";
import { Connection } from "../game/socket.js";
import { applyFrame, createState, elapsedMs, formatTime, isOver } from "../game/state.js";
import { announce, confirmWith, toast } from "../game/windows.js";

export class RaceBoard {
  /** `onView(view, game)` hears every state the board shows. */
  constructor(root, { onView, confirm }) {
    const $ = (selector) => root.querySelector(selector);
    const heart = $(".h2h-heart");
    this.root = root;
    this.onView = onView;
    this.confirm = confirm;
    this.ui = {
      root,
      heart,
      nodes: buildTable(heart),
      stats: { time: $("[data-stat=time]"), score: $("[data-stat=score]"), moves: $("[data-stat=moves]") },
      controls: { undo: root.querySelectorAll("[data-action=undo]"), resign: $("[data-action=resign]") },
      toast: $(".h2h-toast"),
      live: $(".h2h-live"),
    };
    this.state = null;
    this.conn = null;
    this.frames = 0;
  }

  get started() {
    return this.conn !== null;
  }

  /** Show the board and open the play socket on the player's game of `code`. */
  start(code) {
    if (this.conn) return;
    this.root.querySelector("[data-stat=code]").textContent = code;
    this.conn = new Connection(`/ws/play/${code}/`, {
      onFrame: (frame) => this.frame(frame),
      onStatus: (online) => this.status(online),
    });
    bindInput(this.ui, this.intents());
    this.root.addEventListener("click", (event) => {
      const action = event.target.closest?.("[data-action]")?.dataset.action;
      if (action === "undo") this.intents().undo();
      if (action === "resign") this.intents().resign();
    });
    focusTarget(this.ui.nodes, 25, { move: false });
    setInterval(() => this.tick(), 250);
    this.conn.open();
  }

  playable() {
    return this.state?.online && !isOver(this.state);
  }

  intents() {
    return {
      tap: (target) => this.playable() && this.send({ type: "tap", target }),
      undo: () => this.playable() && this.state.view.can_undo && this.send({ type: "undo" }),
      resign: async () => {
        if (!this.playable()) return;
        if (await confirmWith(this.confirm, gettext("Resign? Your result is what the board shows now."))) {
          this.send({ type: "resign" });
        }
      },
    };
  }

  /** Send an action; the element counts those not yet answered, as the play page does. */
  send(message) {
    this.conn.send(message);
    this.root.dataset.pending = String(this.conn.unacked.size);
  }

  frame(frame) {
    // Counted on the element so tests can wait for the server's answer, as on the play page.
    this.root.dataset.frames = String(++this.frames);
    this.root.dataset.pending = String(this.conn.unacked.size);
    if (frame.type === "error") {
      if (frame.error !== "duplicate_seq") toast(this.ui.toast, frame.message);
      return;
    }
    if (frame.type !== "state" || !frame.view) return;
    if (this.state === null) {
      this.state = createState(frame.view, frame.game);
      this.state.online = true;
      this.syncHelp();
      this.root.dataset.ready = "1";
    } else applyFrame(this.state, frame);
    this.root.dataset.event = frame.event || "state";
    if (frame.event === "mismatch" && this.state.settings.moveErrors) toast(this.ui.toast, frame.message);
    if (this.state.view.won) announce(this.ui.live, gettext("You won!"));
    this.draw();
    this.onView(this.state.view, this.state.game);
  }

  /** The game keeps the player's "placement help" setting: tell it if theirs differs. */
  syncHelp() {
    const { game, settings } = this.state;
    if (game.placement_help !== settings.placementHelp && !isOver(this.state)) {
      this.send({ type: "settings", placement_help: settings.placementHelp });
    }
  }

  status(online) {
    this.root.querySelector(".h2h-offline").hidden = online;
    if (!this.state) return;
    this.state.online = online;
    this.draw();
  }

  draw() {
    const focused = document.activeElement;
    render(this.ui, this.state);
    keepTabStop(this.ui.nodes, focused);
  }

  tick() {
    if (!this.state) return;
    const text = formatTime(elapsedMs(this.state));
    if (this.ui.stats.time.textContent !== text) this.ui.stats.time.textContent = text;
  }
}
