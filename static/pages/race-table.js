// The racers' table: everyone's progress, in the server's order, redrawn from plain data.
import { duration, fillSlot } from "../site/dom.js";
import { ratingText } from "../windows/race-finish.js";

const HEART = 25;
const NO_TIME = "–"; // still racing: the column stays, on a phone too, where an empty cell hides

function link(tr, slot, href) {
  const a = tr.querySelector(`[data-slot=${slot}]`);
  a.hidden = !href;
  if (href) a.href = href;
}

export class RacersTable {
  constructor(root, labels) {
    this.body = root.querySelector("[data-racers]");
    this.template = root.querySelector("template[data-racer]");
    this.count = root.querySelector("[data-race-count]");
    this.labels = labels;
  }

  /** Redraw every row of `entries` (in table order); `me` is the viewer's player id, `racing`
   * whether they race here. */
  render(entries, { me, max, racing }) {
    this.body.replaceChildren(...entries.map((entry) => this.row(entry, me, racing)));
    this.count.textContent = `${entries.length}/${max}`;
  }

  row(entry, me, racing) {
    const tr = this.template.content.firstElementChild.cloneNode(true);
    const { state } = entry;
    tr.dataset.player = entry.player;
    tr.dataset.state = state;
    tr.classList.toggle("you", entry.player === me);
    fillSlot(tr, "place", entry.place);
    this.fillName(tr, entry, me);
    const badge = fillSlot(tr, "state", this.labels[state] ?? state);
    badge.className = `badge state-${state}`;
    this.fillProgress(tr, entry);
    link(tr, "replay", entry.replay_url);
    // Racers never watch each other: a rival's waste would show them the stock. (The server
    // sends no watch link while the race runs anyway.)
    link(tr, "watch", racing ? null : entry.watch_url);
    return tr;
  }

  fillName(tr, entry, me) {
    const you = entry.player === me ? ` (${this.labels.you})` : "";
    fillSlot(tr, "name", `${entry.name ?? "?"}${you}`);
    // Anyone may race a deal they know; everyone sees that they knew it.
    tr.querySelector("[data-slot=played_before]").hidden = !entry.played_before;
    // Once the race is rated, everyone sees what it did to each racer's Race rating.
    const change = fillSlot(tr, "rating_change", ratingText(entry.rating_change));
    change.hidden = entry.rating_change == null;
  }

  fillProgress(tr, entry) {
    fillSlot(tr, "left", entry.heart_left);
    tr.querySelector("[data-slot=bar]").value = HEART - entry.heart_left;
    fillSlot(tr, "score", entry.score);
    fillSlot(tr, "moves", entry.moves);
    fillSlot(tr, "time", duration(entry.duration_ms) || NO_TIME);
  }
}
