// The board's pure transitions: what a server frame does to the state and what it gives the
// player to hear, and which message an intent sends now. No DOM: the page renders the result.
// The server decides every rule; these only keep the board from asking what it cannot have.
import { cardName } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";
import { applyFrame, awaitingStart, createState, isOver, isPlayable } from "./state.js";

function describe(state, event) {
  const before = state.previous;
  if (event === "pair" && before) {
    const gone = before.heart.find((card, i) => card && !state.view.heart[i]);
    if (!gone) return "";
    return interpolate(gettext("Pair removed: %(card)s"), { card: cardName(gone.rank) });
  }
  if (event === "draw") return cardName(state.view.waste.top);
  if (event === "redeal") return gettext("Stock turned over");
  if (event === "undo") return gettext("Move undone");
  return "";
}

function endNotice(view) {
  if (view.won) return gettext("You won!");
  if (view.deadlocked) return gettext("No more moves possible");
  return "";
}

/** The mismatch's words, shown only with "Move errors" on. */
function mismatchText(state, frame) {
  if (frame.event !== "mismatch" || !state.settings.moveErrors) return "";
  return frame.reason === "same_rank" ? gettext("Must be same rank") : frame.message || "";
}

/** Take a state frame into `state` (or start one from it); returns the state and what to tell
 * the player: `said` for screen readers, `toast` over the table. */
export function receiveState(state, frame) {
  if (state === null) return { state: createState(frame.view, frame.game), said: "", toast: "" };
  const endBefore = endNotice(state.view);
  applyFrame(state, frame);
  const end = endNotice(state.view);
  const said = end && end !== endBefore ? end : describe(state, frame.event);
  return { state, said, toast: mismatchText(state, frame) };
}

/** Take a "par" frame (the deal's par, computed after the game ended): true if it is this
 * game's and its result now shows it. */
export function receivePar(state, frame) {
  const result = state?.game.result;
  if (!result || frame.game !== state.game.id || !Number.isInteger(frame.par)) return false;
  result.par = frame.par;
  return true;
}

/** The message an intent sends now (tap needs its target), or null if the board knows it
 * would be refused. */
export function request(state, intent, target) {
  if (intent === "start") return state.online && awaitingStart(state) ? { type: "start" } : null;
  if (!isPlayable(state)) return null;
  if (intent === "tap") return { type: "tap", target };
  if (intent === "undo") return state.view.can_undo ? { type: "undo" } : null;
  if (intent === "resign") return { type: "resign" };
  return null;
}

/** On (re)connect or a changed switch: the game's log keeps the placement help setting; the
 * message that brings it in line with the player's, or null when it already is. */
export function settingsRequest(state) {
  const settable = state.online && !isOver(state) && !awaitingStart(state);
  if (!settable || state.game.placement_help === state.settings.placementHelp) return null;
  return { type: "settings", placement_help: state.settings.placementHelp };
}

/** Which end-of-game window the view calls for: "won", "deadlock", "ended" or "open". A game
 * resigned while deadlocked is over: its summary replaces the deadlock window. */
export function windowFor(state) {
  if (state.view.won) return "won";
  if (state.game.status !== "open") return "ended";
  return state.view.deadlocked ? "deadlock" : "open";
}
