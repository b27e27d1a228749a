// A race room: the lobby (join, ready), the countdown to the server's start instant, the
// racer's own board, and everyone's progress live. The room socket sends the whole room on
// connect and after each change, so a dropped racer who comes back sees the race as it is.
import { copyText } from "../site/clipboard.js";
import { readJson } from "../site/dom.js";
import { gettext, interpolate } from "../site/i18n.js";
import { Connection } from "../socket/socket.js";
import { confirmWith, show } from "../windows/dialogs.js";
import { againLeftS, fillRaceFinish, raceFinish } from "../windows/race-finish.js";
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
  again: { type: "again" },
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
  for (const name of ["join", "ready", "unready", "leave", "again"]) {
    const button = $(`.race-actions [data-race-do=${name}]`, page.root);
    if (!button) continue;
    button.hidden = !shown[name];
    button.disabled = !page.online;
  }
  $("[data-race-finish] [data-race-do=again]", page.root).disabled = !page.online;
  $("[data-race-new]", page.root).hidden = !shown.open;
  showRematch(page);
}

/** Once a racer raced again, the old room links to the rematch, for everyone. */
function showRematch(page) {
  const { rematch } = page.race.room;
  const link = $("[data-race-rematch]", page.root);
  link.hidden = !rematch;
  if (!rematch) return;
  link.href = rematch.url;
  link.textContent = interpolate(page.labels.rematch, { room: rematch.room });
}

/** The racer's finish window: it opens once, when this page saw the race end or while the
 * racers may still race again, and follows the room while it is open (the rating change and
 * a rematch come after the end). It opens with its socket up, so that its "Race again" is
 * enabled and takes the focus. */
function showFinish(page) {
  const finish = raceFinish(page.race, page.labels);
  const dialog = $("[data-race-finish]", page.root);
  if (!finish) return;
  fillRaceFinish(dialog, finish);
  if (page.finishShown || !page.online) return;
  if (!(page.sawRace || againLeftS(page.race) > 0)) return;
  page.finishShown = true;
  show(dialog);
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
  showFinish(page);
}

function showCountdown(page) {
  const node = $("[data-race-countdown]", page.root);
  const text = countdownText(page.race, page.labels);
  node.hidden = text === null;
  if (text !== null && node.textContent !== text) node.textContent = text;
}

/** A refusal shows where the racer is looking: in the finish window while it is open. */
function showError(page, message) {
  const dialog = $("[data-race-finish]", page.root);
  if (dialog.open) $("[data-slot=error]", dialog).textContent = message;
  else showStatus(page, message);
}

function onFrame(page, frame) {
  page.root.dataset.frames = String(++page.frames);
  if (frame.type === "error") return showError(page, frame.message);
  if (frame.type === "again") return location.assign(frame.url);
  if (frame.type === "room" && applyRoom(page.race, frame)) openBoard(page);
  else if (frame.type === "progress") applyProgress(page.race, frame);
  page.sawRace ||= page.race.room.status === "running";
  draw(page);
}

/** Offline, the room is greyed; refused for good, the status line says why. */
function onStatus(page, online, closeCode, notice) {
  page.online = online;
  page.root.classList.toggle("offline", !online);
  showButtons(page);
  showFinish(page);
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
  page.sawRace = race.room.status === "running";
  page.socket = new Connection(root.dataset.wsPath, {
    onFrame: (frame) => onFrame(page, frame),
    onStatus: (...status) => onStatus(page, ...status),
  });
  root.addEventListener("click", (event) => onClick(page, event));
  draw(page);
  setInterval(() => {
    showCountdown(page);
    if ($("[data-race-finish]", root).open) showFinish(page); // the seconds left to race again
  }, 100);
  page.socket.open();
}

boot();
