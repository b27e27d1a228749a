// Live leaderboard tables: rows from the server's snapshot, then one row per new result,
// applied in version order. A version gap means a missed update: ask for a fresh snapshot.
import { duration, fillSlot } from "../site/dom.js";
import { insertionIndex } from "./order.js";

const FRESH_MS = 4000;

function link(node, href, text) {
  node.textContent = text;
  node.href = href;
}

class LiveTable {
  constructor(root, { sync, announce }) {
    this.root = root;
    this.body = root.querySelector("[data-live-rows]");
    this.template = root.querySelector("template[data-live-row]");
    this.sync = sync;
    this.announce = announce;
    this.version = null;
    this.rows = [];
  }

  /** A complete board: it replaces whatever is shown. */
  snapshot(frame) {
    this.version = frame.version;
    this.size = frame.size;
    this.rows = frame.rows;
    this.body.replaceChildren(...this.rows.map((row) => this.rowNode(row)));
    this.renumber();
    if (frame.fresh) this.highlight((row) => row.player === frame.fresh);
  }

  renumber() {
    [...this.body.rows].forEach((tr, i) => fillSlot(tr, "rank", i + 1));
    const empty = this.rows.length === 0;
    for (const node of this.root.querySelectorAll("[data-live-shown]")) node.hidden = empty;
    for (const node of this.root.querySelectorAll("[data-live-empty]")) node.hidden = !empty;
  }

  highlight(match) {
    const index = this.rows.findIndex(match);
    const tr = this.body.rows[index];
    if (!tr) return;
    tr.classList.add("fresh");
    setTimeout(() => tr.classList.remove("fresh"), FRESH_MS);
    const name = this.rows[index].player;
    if (name) this.announce(name, index + 1);
  }

  rowNode(row) {
    const tr = this.template.content.firstElementChild.cloneNode(true);
    this.fill(tr, row);
    tr.classList.toggle("you", Boolean(row.you));
    return tr;
  }

  /** The player's name links to their page; an account without a public name says so. */
  fillPlayer(tr, row) {
    const name = tr.querySelector("[data-slot=player]");
    const unnamed = tr.querySelector("[data-slot=unnamed]");
    if (row.player_url) {
      link(name, row.player_url, row.player);
      unnamed.remove();
    } else name.remove();
    this.fillRating(tr, row.rating);
  }

  /** The player's Daily rating beside the name, "?" while provisional; nothing if unrated. */
  fillRating(tr, rating) {
    const node = tr.querySelector("[data-slot=rating]");
    if (!rating) return node.remove();
    fillSlot(node, "rating-value", `${rating.value}${rating.provisional ? "?" : ""}`);
    node.classList.toggle("provisional", rating.provisional);
  }
}

/** A daily or deal board: rows are results, and an update inserts one in rank order. */
export class ResultsTable extends LiveTable {
  snapshot(frame) {
    this.order = frame.order;
    super.snapshot(frame);
  }

  update(frame) {
    if (this.version === null || frame.version <= this.version) return;
    if (frame.version > this.version + 1) return this.sync();
    this.version = frame.version;
    const row = frame.row;
    if (!row) return; // a following board: a result of someone it does not show
    if (this.rows.some((shown) => shown.id === row.id)) return; // the snapshot had it already
    const index = insertionIndex(this.rows, row, this.order);
    if (index >= this.size) return;
    this.rows.splice(index, 0, row);
    this.body.insertBefore(this.rowNode(row), this.body.rows[index] || null);
    while (this.rows.length > this.size) {
      this.rows.pop();
      this.body.lastElementChild.remove();
    }
    this.renumber();
    this.highlight((shown) => shown.id === row.id);
  }

  fill(tr, row) {
    tr.dataset.id = row.id;
    this.fillPlayer(tr, row);
    fillSlot(tr, "score", row.score).classList.toggle("won", row.won);
    fillSlot(tr, "time", duration(row.duration_ms));
    fillSlot(tr, "moves", row.moves);
    fillSlot(tr, "undos", row.undos);
    const clean = tr.querySelector("[data-slot=clean]");
    if (row.clean) clean.classList.add("clean");
    else clean.remove();
    tr.querySelector("[data-slot=replay]").href = row.replay_url;
    tr.querySelector("[data-slot=play]").href = row.play_url;
  }
}

/** The all-time board: aggregates, so every change comes as a whole new snapshot. */
export class RecordsTable extends LiveTable {
  update() {}

  fill(tr, row) {
    this.fillPlayer(tr, row);
    fillSlot(tr, "wins", row.wins);
    fillSlot(tr, "rate", `${row.win_percent}%`);
    fillSlot(tr, "best", row.best_ms == null ? "—" : duration(row.best_ms));
    fillSlot(tr, "streak", row.current_streak);
    fillSlot(tr, "best-streak", row.best_streak);
  }
}
