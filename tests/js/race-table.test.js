// The racers' table as race.js draws it: each racer's row, and what the race did to their rating.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RacersTable } from "../../static/pages/race-table.js";
import { page } from "./dom.js";

// templates/race/_racer_row.html's slots, in templates/race/room.html's table.
const ROW = `<tr><td data-slot="place"></td><td><span data-slot="name"></span>
  <small data-slot="played_before" hidden></small> <small data-slot="rating_change" hidden></small></td>
  <td><span data-slot="state"></span></td><td><span data-slot="left"></span><progress data-slot="bar"></progress></td>
  <td data-slot="score"></td><td data-slot="moves"></td><td data-slot="time"></td>
  <td><a data-slot="replay" hidden></a><a data-slot="watch" hidden></a></td></tr>`;
const ROOM = `<section><span data-race-count></span><table><tbody data-racers></tbody></table>
  <template data-racer>${ROW}</template></section>`;

const racer = (player, name, rating_change) => ({
  player, name, rating_change, place: player, state: "won", heart_left: 0, score: 250,
  moves: 60, duration_ms: 95000, played_before: false, replay_url: null, watch_url: null,
});

function drawn(entries) {
  const { document } = page(ROOM);
  const table = new RacersTable(document.querySelector("section"), { you: "you", won: "won" });
  table.render(entries, { me: 1, max: 8, racing: false });
  return [...document.querySelectorAll("[data-racers] tr")].map(
    (tr) => tr.querySelector("[data-slot=rating_change]"),
  );
}

test("a rated race shows every racer's rating change beside their name, a fall with a minus sign", () => {
  const [ann, bea] = drawn([racer(1, "Ann", 12), racer(2, "Bea", -8)]);
  assert.deepEqual([ann.textContent, ann.hidden], ["+12", false]);
  assert.deepEqual([bea.textContent, bea.hidden], ["\u22128", false]);
});

test("before the race is rated nothing shows beside the names", () => {
  const [ann] = drawn([racer(1, "Ann", null)]);
  assert.equal(ann.hidden, true);
});
