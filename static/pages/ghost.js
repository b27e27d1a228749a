// The ghost raced beside the board (docs/protocol.md, "Racing a ghost"): its progress numbers as
// the socket's ghost frames bring them, and who won once the player's game is over. Screen
// readers hear little: the ghost's start, each fifth heart it clears, its finish, the winner.
import { duration } from "../site/dom.js";
import { gettext, interpolate } from "../site/i18n.js";

const STATS = ["heart_left", "score", "moves"];
const HEART = 25;
const SPOKEN_EVERY = 5; // hearts cleared between two words to screen readers

/** What is worth saying about the ghost's move from `before` to `now`, or "". */
export function ghostNews(before, now) {
  if (now.heart_left === 0 && before.heart_left !== 0) {
    return interpolate(gettext("The ghost cleared the heart in %(time)s."), { time: duration(now.t_ms) }, true);
  }
  if (before.moves === 0 && now.moves > 0) return gettext("The ghost is off.");
  const cleared = (left) => Math.floor((HEART - left) / SPOKEN_EVERY);
  if (cleared(now.heart_left) > cleared(before.heart_left)) {
    return interpolate(gettext("The ghost has %(left)s hearts left."), { left: now.heart_left }, true);
  }
  return "";
}

/** The sentence for the race's end (a ghost_end frame: `winner` is "you", "ghost" or "tie",
 * and the numbers are where the ghost ended, which the panel then shows). */
export function winnerText({ winner, heart_left: left, t_ms: ms }) {
  if (winner === "tie") return gettext("A tie with the ghost.");
  if (winner === "ghost") return gettext("The ghost won this race.");
  if (left !== 0) return gettext("You beat the ghost!");
  const text = gettext("You beat the ghost! It took %(time)s to clear the heart.");
  return interpolate(text, { time: duration(ms) }, true);
}

function show(panel, frame) {
  for (const stat of STATS) {
    panel.querySelector(`[data-ghost-stat=${stat}]`).textContent = String(frame[stat]);
  }
  panel.dataset.moves = String(frame.moves);
  panel.dataset.t = String(frame.t_ms);
}

/** The panel's handler of the socket's frames other than the board's own. The panel's line
 * keeps what stays true (the ghost's finish, then the winner); screen readers hear each news. */
export function bindGhost(panel) {
  const line = panel.querySelector("[data-ghost-say]");
  const live = panel.querySelector("[data-ghost-live]");
  let last = { t_ms: 0, heart_left: HEART, score: 0, moves: 0 };
  return (frame) => {
    if (frame.type !== "ghost" && frame.type !== "ghost_end") return;
    const ended = frame.type === "ghost_end";
    const news = ended ? winnerText(frame) : ghostNews(last, frame);
    if (last.moves === 0 && frame.moves > 0) line.textContent = gettext("Racing the ghost.");
    show(panel, frame);
    last = frame;
    if (ended) panel.dataset.winner = frame.winner;
    if (ended || frame.heart_left === 0) line.textContent = news || line.textContent;
    if (news) live.textContent = news;
  };
}
