// A race room: the lobby (join, ready), the countdown to the server's start instant, the
// racer's own board, and everyone's progress live. The room socket sends the whole room on
// connect and after each change, so a dropped racer who comes back sees the race as it is.
import { copyText } from "../site/clipboard.js";
import { readJson } from "../site/dom.js";
import { gettext } from "../site/i18n.js";
import { Connection } from "../socket/socket.js";
import { confirmWith } from "../windows/dialogs.js";
import { openGame } from "./game.js";
import {
  applyProgress,
  applyRoom,
  boardCode,
  buttonsFor,
  countdownText,
  createRoom,
  mine,
  statusText,
} from "./race-room.js";
import { RacersTable } from "./race-table.js";

const $ = (selector, root = document) => root.querySelector(selector);
const ACTIONS = {
  join: { type: "join" },
  ready: { type: "ready", ready: true },
  unready: { type: "ready", ready: false },
  leave: { type: "leave" },
};
const RESIGN_QUESTION = () => gettext("Resign? Your result is what the board shows now.");

/** The racer's own board, once the race starts: the play page's board on the race game, laid
 * out when its socket's greeting comes. */
function openBoard(page) {
  const code = boardCode(page.race);
  if (!code || page.game) return;
  $("[data-race-board]", page.root).hidden = false;
  const root = $("#board");
  $("[data-stat=code]", root).textContent = code;
  const confirm = document.getElementById("h2h-confirm");
  const confirmResign = () => confirmWith(confirm, RESIGN_QUESTION());
  page.game = openGame(root, { socket: `/ws/play/${code}/`, confirmResign });
}

/** The room's buttons send on its socket: until it is open they wait, disabled, rather than
 * take a tap that would go nowhere. */
function showButtons(page) {
  const shown = buttonsFor(page.race, page.root.dataset.loggedIn === "1");
  for (const name of ["join", "ready", "unready", "leave"]) {
    const button = $(`[data-race-do=${name}]`, page.root);
    if (!button) continue;
    button.hidden = !shown[name];
    button.disabled = !page.online;
  }
  $("[data-race-again]", page.root).hidden = !shown.again;
}

function showStatus(page, text = statusText(page.race, page.labels)) {
  const status = $("[data-race-status]", page.root);
  if (status.textContent !== text) status.textContent = text;
  status.hidden = !text;
}

/** A fresh deal's code shows from the start on. */
function showDeal(page) {
  const { code } = page.race.room;
  const deal = $("[data-race-deal]", page.root);
  if (!code || deal.dataset.code) return;
  deal.dataset.code = code;
  const link = document.createElement("a");
  link.className = "code";
  link.href = `/leaderboard/deal/${code}/`;
  link.textContent = code;
  deal.replaceChildren(`${deal.dataset.label} `, link);
}

function draw(page) {
  const { race, root } = page;
  root.dataset.status = race.room.status;
  const racing = Boolean(mine(race)) && race.room.status !== "lobby";
  page.table.render(race.entries, { me: race.me, max: race.room.max, racing });
  showButtons(page);
  showStatus(page);
  showDeal(page);
}

function showCountdown(page) {
  const node = $("[data-race-countdown]", page.root);
  const text = countdownText(page.race, page.labels);
  node.hidden = text === null;
  if (text !== null && node.textContent !== text) node.textContent = text;
}

function onFrame(page, frame) {
  page.root.dataset.frames = String(++page.frames);
  if (frame.type === "error") return showStatus(page, frame.message);
  if (frame.type === "room" && applyRoom(page.race, frame)) openBoard(page);
  else if (frame.type === "progress") applyProgress(page.race, frame);
  draw(page);
}

/** Offline, the room is greyed; refused for good, the status line says why. */
function onStatus(page, online, closeCode, notice) {
  page.online = online;
  page.root.classList.toggle("offline", !online);
  showButtons(page);
  if (!online && notice?.text) showStatus(page, notice.text);
}

async function onClick(page, event) {
  const name = event.target.closest?.("[data-race-do]")?.dataset.raceDo;
  if (name === "copy") {
    if (await copyText($("#race-link").value)) event.target.textContent = page.labels.copied;
  } else if (name) page.socket.send(ACTIONS[name]);
}

function boot() {
  const root = $("[data-race]");
  const labels = readJson("race-labels");
  const race = createRoom(readJson("race-room"), Number(root.dataset.me) || null);
  const table = new RacersTable(root, labels);
  const page = { root, labels, race, table, game: null, frames: 0, online: false };
  page.socket = new Connection(root.dataset.wsPath, {
    onFrame: (frame) => onFrame(page, frame),
    onStatus: (...status) => onStatus(page, ...status),
  });
  root.addEventListener("click", (event) => onClick(page, event));
  draw(page);
  setInterval(() => showCountdown(page), 100);
  page.socket.open();
}

boot();
