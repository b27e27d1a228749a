// How a rank is written on a card face and read out by a screen reader.
import { gettext, interpolate } from "../site/i18n.js";

const FACE = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function faceLabel(rank) {
  return FACE[rank] || "";
}

function rankName(rank) {
  const names = {
    1: gettext("Ace"),
    11: gettext("Jack"),
    12: gettext("Queen"),
    13: gettext("King"),
  };
  return names[rank] || String(rank);
}

/** "7 of hearts" in the page's language. */
export function cardName(rank) {
  return interpolate(gettext("%(rank)s of hearts"), { rank: rankName(rank) });
}
