// Live leaderboards and "N playing now" on the pages that show them (data-live-ws marks the
// page's socket). New results appear within a second, highlighted; a missed update or a
// reconnect brings a fresh snapshot, so the board shown is never wrong.
import { interpolate } from "../game/i18n.js";
import { fillSlot, LiveSocket } from "./socket.js";
import { RecordsTable, ResultsTable } from "./tables.js";

function showPresence(frame) {
  for (const node of document.querySelectorAll("[data-playing]")) {
    fillSlot(node, "n", frame.playing);
    node.hidden = false;
  }
  const list = document.querySelector("[data-daily-list]");
  if (!list) return;
  const item = list.querySelector("template");
  const items = frame.daily.map((entry) => {
    const li = item.content.firstElementChild.cloneNode(true);
    const a = li.querySelector("a");
    a.href = entry.watch_url;
    a.textContent = entry.player || a.textContent;
    return li;
  });
  list.querySelector("ul").replaceChildren(...items);
  list.hidden = items.length === 0;
}

function boot() {
  const root = document.querySelector("[data-live-ws]");
  if (!root) return;
  const live = root.querySelector("[data-live-announce]");
  const announce = (name, rank) => {
    if (live) live.textContent = interpolate(live.dataset.liveAnnounce, { name, rank });
  };
  const tableRoot = root.querySelector("[data-live-table]");
  let table = null;
  const socket = new LiveSocket(root.dataset.liveWs, {
    onFrame(frame) {
      if (frame.type === "board") table?.snapshot(frame);
      else if (frame.type === "update") table?.update(frame);
      else if (frame.type === "presence") showPresence(frame);
      root.dataset.liveVersion = String(table?.version ?? "");
    },
  });
  if (tableRoot) {
    const Table = tableRoot.dataset.liveTable === "records" ? RecordsTable : ResultsTable;
    table = new Table(tableRoot, { sync: () => socket.send({ type: "sync" }), announce });
  }
  socket.open();
}

boot();
