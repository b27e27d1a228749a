// The board's pure transitions: what a server frame does to the state and what it has to tell,
// and which message an intent sends now. No DOM and no words: what is told comes out as codes,
// and the page says them in the player's language. The server decides every rule; these only
// keep the board from asking what it cannot have.
import { applyFrame, awaitingStart, createState, isOver, isPlayable } from "./state.js";

/** What an event did, for screen readers: its code and the card it moved, if one did. */
function happened(state, event) {
  const before = state.previous;
  if (event === "pair" && before) {
    const gone = before.heart.find((card, i) => card && !state.view.heart[i]);
    return gone ? { code: "pair", rank: gone.rank } : null;
  }
  if (event === "draw") return { code: "draw", rank: state.view.waste.top };
  if (event === "redeal" || event === "undo") return { code: event };
  return null;
}

/** "won" or "deadlocked" while the view is at an end, else null. */
function endOf(view) {
  if (view.won) return "won";
  return view.deadlocked ? "deadlocked" : null;
}

/** A refused tap's reason as the server gave it ({reason, message}), for "Move errors" only. */
function refusal(state, frame) {
  if (!frame.reason || !state.settings.moveErrors) return null;
  return { reason: frame.reason, message: frame.message ?? "" };
}

/** Take a state frame into `state` (or start one from it). Returns the state and what to tell
 * the player: `said` for screen readers ({code, rank}: a new end, "won" or "deadlocked", else
 * what the event did) and `refused` over the table (the server's reason for a refused tap). */
export function receiveState(state, frame) {
  if (state === null) {
    return { state: createState(frame.view, frame.game), said: null, refused: null };
  }
  const endBefore = endOf(state.view);
  applyFrame(state, frame);
  const end = endOf(state.view);
  const said = end && end !== endBefore ? { code: end } : happened(state, frame.event);
  return { state, said, refused: refusal(state, frame) };
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
