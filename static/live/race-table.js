// The racers' table: everyone's progress, in the race's order, redrawn from plain data.
import { duration, fillSlot } from "./socket.js";

const HEART = 25;

/** Table order: score desc, then time asc (a racer still playing has no time yet), then moves
 * asc: the server's order too (game/realtime/race_view.py, `standings`). */
export function standings(entries) {
  const time = (entry) => entry.duration_ms ?? Infinity;
  return [...entries].sort(
    (a, b) => b.score - a.score || time(a) - time(b) || a.moves - b.moves,
  );
}

/** One word for a racer's row, as race_view.entry_state says it. */
export function entryState(entry) {
  if (entry.status === "waiting") return entry.ready ? "ready" : "waiting";
  if (entry.status === "playing" && entry.stuck) return "stuck";
  return entry.status;
}

export class RacersTable {
  constructor(root, labels) {
    this.body = root.querySelector("[data-racers]");
    this.template = root.querySelector("template[data-racer]");
    this.count = root.querySelector("[data-race-count]");
    this.labels = labels;
  }

  /** Redraw every row; `me` is the viewer's player id, `racing` whether they race here. */
  render(entries, { me, max, racing }) {
    const rows = standings(entries).map((entry, i) => this.row(entry, i + 1, me, racing));
    this.body.replaceChildren(...rows);
    this.count.textContent = `${entries.length}/${max}`;
  }

  row(entry, place, me, racing) {
    const tr = this.template.content.firstElementChild.cloneNode(true);
    const state = entryState(entry);
    tr.dataset.player = entry.player;
    tr.dataset.state = state;
    tr.classList.toggle("you", entry.player === me);
    fillSlot(tr, "place", place);
    const you = entry.player === me ? ` (${this.labels.you})` : "";
    fillSlot(tr, "name", `${entry.name ?? "?"}${you}`);
    // Anyone may race a deal they know; everyone sees that they knew it.
    tr.querySelector("[data-slot=played_before]").hidden = !entry.played_before;
    const badge = fillSlot(tr, "state", this.labels[state] ?? state);
    badge.className = `badge state-${state}`;
    fillSlot(tr, "left", entry.heart_left);
    tr.querySelector("[data-slot=bar]").value = HEART - entry.heart_left;
    fillSlot(tr, "score", entry.score);
    fillSlot(tr, "moves", entry.moves);
    fillSlot(tr, "time", duration(entry.duration_ms));
    this.link(tr, "replay", entry.replay_url);
    // Racers never watch each other: a rival's waste would show them the stock. (The server
    // sends no watch link while the race runs anyway.)
    this.link(tr, "watch", racing ? null : entry.watch_url);
    return tr;
  }

  link(tr, slot, href) {
    const a = tr.querySelector(`[data-slot=${slot}]`);
    a.hidden = !href;
    if (href) a.href = href;
  }
}
