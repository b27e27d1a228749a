// What a game page tells the player, in their language, from the codes the board's transitions
// give (transitions.js): what happened, for screen readers, and why a tap was refused.
import { cardName } from "../board/cards.js";
import { gettext, interpolate } from "../site/i18n.js";

/** The sentence for `said` ({code, rank}), or "" for nothing to say. */
export function saidText(said) {
  if (!said) return "";
  if (said.code === "won") return gettext("You won!");
  if (said.code === "deadlocked") return gettext("No more moves possible");
  if (said.code === "pair") {
    return interpolate(gettext("Pair removed: %(card)s"), { card: cardName(said.rank) });
  }
  if (said.code === "draw") return cardName(said.rank);
  if (said.code === "redeal") return gettext("Stock turned over");
  if (said.code === "undo") return gettext("Move undone");
  return "";
}

/** A refused tap's sentence: the server's own, already in the player's language. */
export function refusalText(refused) {
  return refused?.message ?? "";
}

/** An error frame's sentence: the server's, else a word that something failed. */
export function errorText(frame) {
  return frame.message || gettext("That did not work.");
}
