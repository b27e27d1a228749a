// Live leaderboards and "N playing now" on the pages that show them (data-live-ws marks the
// page's socket). New results appear within a second, highlighted; a missed update or a
// reconnect brings a fresh snapshot, so the board shown is never wrong.
import { fillSlot } from "../site/dom.js";
import { interpolate } from "../site/i18n.js";
import { Connection } from "../socket/socket.js";
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

/** A board refused for good, or told to wait (too many tabs), says so under itself; the rows
 * shown stay, as they were when the socket closed. */
function showNotice(root, online, notice) {
  let node = root.querySelector("[data-live-notice]");
  if (!node && !online && notice?.text) {
    node = document.createElement("p");
    node.className = "note";
    node.setAttribute("role", "status");
    node.dataset.liveNotice = "";
    root.append(node);
  }
  if (!node) return;
  node.textContent = notice?.text ?? "";
  node.hidden = online || !notice?.text;
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
  const socket = new Connection(root.dataset.liveWs, {
    onFrame(frame) {
      if (frame.type === "board") table?.snapshot(frame);
      else if (frame.type === "update") table?.update(frame);
      else if (frame.type === "presence") showPresence(frame);
      root.dataset.liveVersion = String(table?.version ?? "");
    },
    onStatus: (online, closeCode, notice) => showNotice(root, online, notice),
  });
  if (tableRoot) {
    const Table = tableRoot.dataset.liveTable === "records" ? RecordsTable : ResultsTable;
    table = new Table(tableRoot, { sync: () => socket.send({ type: "sync" }), announce });
  }
  socket.open();
}

boot();
