// The little messages around a board: a toast over the table, what screen readers hear, and how
// many watch.

let toastTimer = null;

/** A short visible message over the table (it is also read out by the live region). */
export function toast(node, text, ms = 2600) {
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), ms);
}

/** Tell screen readers; the same text twice in a row is still announced. */
export function announce(node, text) {
  node.textContent = node.textContent === text ? `${text}\u00a0` : text;
}

/** How many watch the player's game (the "watchers" frames, docs/protocol.md "Spectating"):
 * the page's [data-watchers] element shows the number, hidden while nobody watches. */
export function showWatchers(count) {
  const node = document.querySelector("[data-watchers]");
  if (!node) return;
  node.querySelector("[data-slot=n]").textContent = String(count);
  node.hidden = !count;
}
