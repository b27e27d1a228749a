// The race's finish window (templates/race/_finish.html): the racer's place, time, moves and
// rating change, who won, and "Race again" while the rematch is open. raceFinish makes its
// words from the room as the socket sent it (docs/protocol.md, "Race rooms"); fillRaceFinish
// puts them in the window.
import { duration, fillSlot } from "../site/dom.js";
import { interpolate } from "../site/i18n.js";

const MINUS = "\u2212"; // a rating that fell reads "−8", with the minus sign, not a hyphen

/** A rating change as shown: "+12", "−8", "0"; "" until the race is rated. */
export function ratingText(change) {
  if (change == null) return "";
  if (change > 0) return `+${change}`;
  return change < 0 ? `${MINUS}${-change}` : "0";
}

/** Whole seconds left to race again at `now` (the server's clock), never below 0. */
export function againLeftS(race, now = Date.now()) {
  const until = Date.parse(race.room.again_until ?? "");
  if (Number.isNaN(until)) return 0;
  return Math.max(0, Math.ceil((until - (now + race.skew)) / 1000));
}

function againNote(race, labels, now) {
  if (race.room.rematch) return labels.rematch_open;
  const left = againLeftS(race, now);
  return left ? interpolate(labels.again_left, { n: left }) : labels.again_closed;
}

function winnerLine(race, labels, won) {
  const winner = race.entries.find((entry) => entry.player === race.room.winner);
  if (won) return "";
  return winner ? interpolate(labels.winner, { name: winner.name ?? "?" }) : labels.nobody_won;
}

/** What the racer's finish window says, or null for a viewer who did not race here. */
export function raceFinish(race, labels, now = Date.now()) {
  const entry = race.entries.find((shown) => shown.player === race.me);
  if (!entry || race.room.status !== "finished") return null;
  const won = race.room.winner === entry.player;
  return {
    won,
    title: won ? labels.finish_won : labels.finish_over,
    place: String(entry.place),
    of: interpolate(labels.of, { n: race.entries.length }),
    time: duration(entry.duration_ms) || "–",
    moves: String(entry.moves),
    rating: ratingText(entry.rating_change),
    winner: winnerLine(race, labels, won),
    again: againNote(race, labels, now),
  };
}

/** Fill the window from raceFinish's words; the rating's box shows once the race is rated. */
export function fillRaceFinish(dialog, finish) {
  dialog.classList.toggle("won", finish.won);
  for (const name of ["title", "place", "of", "time", "moves", "rating", "winner", "again"]) {
    fillSlot(dialog, name, finish[name]);
  }
  dialog.querySelector("[data-slot=rating-box]").hidden = !finish.rating;
  dialog.querySelector("[data-slot=winner]").hidden = !finish.winner;
  dialog.querySelector("[data-slot=cheer]").hidden = !finish.won;
}
