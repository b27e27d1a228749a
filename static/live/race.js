// A race room: the lobby (join, ready), the countdown to the server's start instant, the
// racer's own board, and everyone's progress live. The room socket sends the whole room on
// connect and after each change, so a dropped racer who comes back sees the race as it is.
import { interpolate } from "../game/i18n.js";
import { copyText } from "../game/windows.js";
import { RaceBoard } from "./race-board.js";
import { entryState, RacersTable } from "./race-table.js";
import { LiveSocket, readJson } from "./socket.js";

const $ = (selector, root = document) => root.querySelector(selector);
const ACTIONS = {
  join: { type: "join" },
  ready: { type: "ready", ready: true },
  unready: { type: "ready", ready: false },
  leave: { type: "leave" },
};

function boot() {
  const root = $("[data-race]");
  const labels = readJson("race-labels");
  const table = new RacersTable(root, labels);
  const board = new RaceBoard($("#board"), { onView: () => draw(), confirm: $("#h2h-confirm") });
  const entries = new Map();
  let room = readJson("race-room");
  let me = Number(root.dataset.me) || null;
  let skew = 0;
  let frames = 0;

  function mine() {
    return entries.get(me);
  }

  function applyRoom(frame) {
    if (frame.version < room.version) return; // an older room, overtaken on the way
    room = frame;
    me = frame.me;
    skew = Date.parse(frame.server_now) - Date.now();
    entries.clear();
    for (const entry of frame.entries) entries.set(entry.player, entry);
    if (frame.started && frame.code && mine()?.game) {
      $("[data-race-board]", root).hidden = false;
      board.start(frame.code);
    }
  }

  function applyProgress(frame) {
    const entry = entries.get(frame.player);
    if (!entry) return;
    const { type, ...progress } = frame;
    Object.assign(entry, progress);
    entry.state = entryState(entry);
  }

  function draw() {
    root.dataset.status = room.status;
    const racing = Boolean(mine()) && room.status !== "lobby";
    table.render([...entries.values()], { me, max: room.max, racing });
    showButtons();
    showStatus();
    showDeal();
  }

  function showButtons() {
    const lobby = room.status === "lobby";
    const entry = mine();
    const show = (name, on) => {
      const button = $(`[data-race-do=${name}]`, root);
      if (button) button.hidden = !on;
    };
    show("join", lobby && !entry && entries.size < room.max && root.dataset.loggedIn === "1");
    show("ready", lobby && entry && !entry.ready);
    show("unready", lobby && entry?.ready);
    show("leave", lobby && entry);
    $("[data-race-again]", root).hidden = !["finished", "expired"].includes(room.status);
  }

  function winner() {
    return [...entries.values()]
      .filter((entry) => entry.status === "won")
      .sort((a, b) => a.duration_ms - b.duration_ms)[0];
  }

  function showStatus() {
    const first = winner();
    let text = labels[room.status] || "";
    if (room.status === "running" && room.started) {
      text = first ? interpolate(labels.winner, { name: first.name }) : labels.racing;
      if (mine()?.state === "stuck") text = labels.stuck_you;
    } else if (room.status === "running") {
      text = "";
    } else if (room.status === "finished" && first) {
      text = `${labels.finished} ${interpolate(labels.winner, { name: first.name })}`;
    }
    const status = $("[data-race-status]", root);
    if (status.textContent !== text) status.textContent = text;
    status.hidden = !text;
  }

  function showDeal() {
    const deal = $("[data-race-deal]", root);
    if (room.code && !deal.dataset.code) {
      deal.dataset.code = room.code;
      const link = document.createElement("a");
      link.className = "code";
      link.href = `/leaderboard/deal/${room.code}/`;
      link.textContent = room.code;
      deal.replaceChildren(`${deal.dataset.label} `, link);
    }
  }

  function countdown() {
    const node = $("[data-race-countdown]", root);
    const counting = room.status === "running" && !room.started;
    node.hidden = !counting;
    if (!counting) return;
    const left = Date.parse(room.starts_at) - (Date.now() + skew);
    const text = left > 0 ? String(Math.ceil(left / 1000)) : labels.go;
    if (node.textContent !== text) node.textContent = text;
  }

  const socket = new LiveSocket(root.dataset.wsPath, {
    onFrame(frame) {
      root.dataset.frames = String(++frames);
      if (frame.type === "room") applyRoom(frame);
      else if (frame.type === "progress") applyProgress(frame);
      else if (frame.type === "error") $("[data-race-status]", root).textContent = frame.message;
      if (frame.type !== "error") draw();
    },
    onStatus(online) {
      root.classList.toggle("offline", !online);
    },
  });

  root.addEventListener("click", async (event) => {
    const name = event.target.closest?.("[data-race-do]")?.dataset.raceDo;
    if (!name) return;
    if (name === "copy") {
      const ok = await copyText($("#race-link").value);
      event.target.textContent = ok ? labels.copied : event.target.textContent;
      return;
    }
    socket.send(ACTIONS[name]);
  });

  for (const entry of room.entries) entries.set(entry.player, entry);
  draw();
  setInterval(countdown, 100);
  socket.open();
}

boot();
