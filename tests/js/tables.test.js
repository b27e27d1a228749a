// The live boards' rows as the script draws them: each player's Daily rating beside the name.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RecordsTable, ResultsTable } from "../../static/boards/tables.js";
import { page } from "./dom.js";

// templates/boards/_result_row.html and _record_row.html: the name's cell is the same.
const WHO = `<td class="who"><a data-slot="player"></a><span data-slot="unnamed">unnamed player</span>
  <span class="rating" data-slot="rating"><span>Daily rating </span><span data-slot="rating-value"></span></span></td>`;
const TABLE = (cells) => `<div data-live-table><table><tbody data-live-rows></tbody></table>
  <template data-live-row><tr><td data-slot="rank"></td>${WHO}${cells}</tr></template></div>`;

/** The rows the table draws for a snapshot's `rows` (linkedom has no tbody.rows to number). */
function drawn(Table, cells, rows) {
  const { document } = page(TABLE(cells));
  const table = new Table(document.querySelector("[data-live-table]"), { sync() {}, announce() {} });
  return rows.map((row) => table.rowNode(row));
}

const row = (player, rating) => ({
  id: player.length, player, player_url: `/players/${player}/`, rating, score: 250, won: true,
  duration_ms: 90000, moves: 40, undos: 0, clean: false, replay_url: "/replay/1/", play_url: "/play/x/",
});

test("a rated player's row shows the rating, with ? while it is provisional", () => {
  const rows = [
    row("Ann", { value: 1623, provisional: true }),
    row("Bea", { value: 1710, provisional: false }),
  ];
  const cells = `<td data-slot="score"></td><td data-slot="time"></td><td data-slot="moves"></td>
    <td data-slot="undos"></td><td><span data-slot="clean"></span></td>
    <td><a data-slot="replay"></a><a data-slot="play"></a></td>`;
  const [ann, bea] = drawn(ResultsTable, cells, rows);
  assert.equal(ann.querySelector("[data-slot=rating-value]").textContent, "1623?");
  assert.ok(ann.querySelector("[data-slot=rating]").classList.contains("provisional"));
  assert.equal(bea.querySelector("[data-slot=rating-value]").textContent, "1710");
});

test("a player never rated has nothing beside the name", () => {
  const cells = `<td data-slot="wins"></td><td data-slot="rate"></td><td data-slot="best"></td>
    <td data-slot="streak"></td><td data-slot="best-streak"></td>`;
  const record = { player: "Cid", player_url: "/players/Cid/", rating: null, wins: 1, win_percent: 50,
    best_ms: null, current_streak: 0, best_streak: 1 };
  const [cid] = drawn(RecordsTable, cells, [record]);
  assert.equal(cid.querySelector("[data-slot=rating]"), null);
  assert.equal(cid.querySelector("[data-slot=player]").textContent, "Cid");
});
