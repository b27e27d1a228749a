// A race room's state as the room socket tells it: the room frame, then racers' progress.
// Pure: the page draws it (race.js, race-table.js). Places, the order and the winner are the
// server's (docs/protocol.md, "Race rooms"); between two room frames, progress re-sorts the
// entries by the order the room frame sent.
import { compareBy } from "../boards/order.js";
import { interpolate } from "../site/i18n.js";

/** The room from the page's snapshot; `me` is the viewer's player id or null. */
export function createRoom(snapshot, me = null, now = Date.now()) {
  const race = { room: snapshot, me, skew: 0, entries: [] };
  applyRoom(race, snapshot, now);
  race.me = me;
  return race;
}

/** A room frame replaces everything, unless it is older than the one shown. */
export function applyRoom(race, frame, now = Date.now()) {
  if (frame.version < race.room.version) return false; // overtaken on the way
  race.room = frame;
  race.me = frame.me ?? race.me;
  race.skew = Date.parse(frame.server_now) - now || 0;
  race.entries = frame.entries.map((entry) => ({ ...entry }));
  return true;
}

/** A racer's progress: their numbers and their `state` (the server's word for their row)
 * change, and the table re-sorts by the server's order. */
export function applyProgress(race, frame) {
  const entry = race.entries.find((shown) => shown.player === frame.player);
  if (!entry) return false;
  const { type, ...progress } = frame;
  Object.assign(entry, progress);
  race.entries.sort(compareBy(race.room.order ?? []));
  race.entries.forEach((shown, i) => (shown.place = i + 1));
  return true;
}

export function mine(race) {
  return race.entries.find((entry) => entry.player === race.me) ?? null;
}

/** The racer's own game has started: its board can open. */
export function boardCode(race) {
  const { room } = race;
  return room.started && room.code && mine(race)?.game ? room.code : null;
}

/** Which of the room's buttons show for this viewer: once the race is over its racers may
 * race again, and everyone else may open a room of their own. */
export function buttonsFor(race, loggedIn) {
  const { room } = race;
  const lobby = room.status === "lobby";
  const readying = lobby && !room.quick; // a quick room starts by itself: no Join, no Ready
  const over = ["finished", "expired"].includes(room.status);
  const entry = mine(race);
  const again = room.status === "finished" && Boolean(entry);
  return {
    join: readying && !entry && race.entries.length < room.max && loggedIn,
    ready: readying && Boolean(entry) && !entry.ready,
    unready: readying && Boolean(entry?.ready),
    leave: lobby && Boolean(entry),
    again,
    open: over && !again,
  };
}

function winnerText(race, labels) {
  const winner = race.entries.find((entry) => entry.player === race.room.winner);
  return winner ? interpolate(labels.winner, { name: winner.name ?? "?" }) : "";
}

/** The line above the table: the room's stage, who won (the server says), or "you are stuck". */
export function statusText(race, labels) {
  const { room } = race;
  const won = room.winner == null ? "" : winnerText(race, labels);
  if (room.status === "running" && room.started) {
    if (mine(race)?.state === "stuck") return labels.stuck_you;
    return won || labels.racing;
  }
  if (room.status === "running") return ""; // the countdown says it
  if (room.status === "finished" && won) return `${labels.finished} ${won}`;
  if (room.status === "lobby" && room.quick) return labels.quick_lobby;
  return labels[room.status] || "";
}

/** The countdown to the server's start instant, or null when none is running. */
export function countdownText(race, labels, now = Date.now()) {
  const { room } = race;
  if (room.status !== "running" || room.started) return null;
  const left = Date.parse(room.starts_at) - (now + race.skew);
  return left > 0 ? String(Math.ceil(left / 1000)) : labels.go;
}
